/**
 * `deno task layers`: the import layering of the tree, checked. Each folder may import only from
 * its own layer and the layers listed before it in {@linkcode LAYERS}; test files obey the same
 * rule as the code beside them. The conformance suite may import `spec/` only, so that it checks
 * an implementation without borrowing from ours.
 *
 * Usage: `deno run -A tools/layers.ts [--root DIR]`; exits 1 and lists every import that runs
 * against the layering.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { layerOf } from "./layers.ts";
 * assert.equal(layerOf("src/http/header_map.ts"), "src/http");
 * assert.equal(layerOf("spec/admin/endpoints.ts"), "spec");
 * ```
 * @module
 */

/**
 * The layers, lowest first. Layers that share a rank (the same inner array) may import each
 * other's files only where the inner order allows: an entry may import entries before it.
 */
export const LAYERS = [
  "spec",
  "src/platform",
  "src/http",
  "src/stats",
  "src/config",
  "src/upstream",
  "src/access_log",
  "src/router",
  "src/filters",
  "src/listener",
  "src/server",
  "src/admin",
  "src/cli",
  "mod.ts",
] as const;

/** One of {@linkcode LAYERS}, or a folder outside the layering. */
export type Layer = (typeof LAYERS)[number];

/** Folders outside the layering, with the layers each may import. */
const OUTSIDE: Record<string, readonly string[] | "any"> = {
  // The suite checks any implementation: it may read the rule tables, nothing of ours.
  conformance: ["spec", "conformance"],
  tools: "any",
  bench: "any",
  fixtures: "any",
};

/**
 * The layer a repository-relative path belongs to (`src/<folder>` for source, the top folder
 * otherwise).
 */
export function layerOf(path: string): string {
  const parts = path.split("/");
  if (parts[0] === "src" && parts.length > 2) return `src/${parts[1]}`;
  return parts[0];
}

/** One import that runs against the layering. */
export interface Violation {
  file: string;
  imports: string;
  why: string;
}

const RANK = new Map<string, number>(LAYERS.map((l, i) => [l, i]));

/** Whether a file in layer `from` may import a file in layer `to`; else the reason. */
export function allowed(from: string, to: string): string | null {
  if (from === to) return null;
  const outside = OUTSIDE[from];
  if (outside === "any") return null;
  if (outside) return outside.includes(to) ? null : `${from} may import only ${outside.join(", ")}`;
  const a = RANK.get(from), b = RANK.get(to);
  if (a === undefined) return null;
  if (b === undefined) {
    return to === "deno.json" || to === "fixtures" ? null : `${to} is outside the layering`;
  }
  return b <= a ? null : `${from} is below ${to}`;
}

/** Relative module specifiers in import and export statements and dynamic imports. */
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\b[^;]*?\sfrom\s*["'](\.{1,2}\/[^"']+)["']|\bimport\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)|(?:^|\n)\s*import\s*["'](\.{1,2}\/[^"']+)["']/g;

/** Drops JSDoc and line comments, so `@example` imports do not count. */
function stripComments(src: string): string {
  return src.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
}

function normalize(parts: string[]): string {
  const out: string[] = [];
  for (const p of parts) {
    if (p === "..") out.pop();
    else if (p !== "." && p !== "") out.push(p);
  }
  return out.join("/");
}

/** Every violation in the source text of `file` (a repository-relative path). */
export function violationsIn(file: string, src: string): Violation[] {
  const out: Violation[] = [];
  const dir = file.split("/").slice(0, -1);
  for (const m of stripComments(src).matchAll(IMPORT)) {
    const spec = m[1] ?? m[2] ?? m[3];
    const target = normalize([...dir, ...spec.split("/")]);
    // The suite's generators of valid configuration are test support for our own tests too.
    if (file.endsWith("_test.ts") && target === "conformance/arbitraries.ts") continue;
    const why = allowed(layerOf(file), layerOf(target));
    if (why) out.push({ file, imports: target, why });
  }
  return out;
}

async function* walk(root: URL, rel = ""): AsyncGenerator<string> {
  for await (const e of Deno.readDir(new URL(rel || ".", root))) {
    if (e.name.startsWith(".") || e.name === "node_modules" || e.name === "dist") continue;
    const p = rel ? `${rel}${e.name}` : e.name;
    if (e.isDirectory) yield* walk(root, `${p}/`);
    else if (e.isFile && p.endsWith(".ts")) yield p;
  }
}

/** Every violation under `root` (the repository root). */
export async function checkLayers(root: URL): Promise<Violation[]> {
  const out: Violation[] = [];
  for await (const file of walk(root)) {
    out.push(...violationsIn(file, await Deno.readTextFile(new URL(file, root))));
  }
  return out;
}

if (import.meta.main) {
  const i = Deno.args.indexOf("--root");
  const root = i >= 0
    ? new URL(`${Deno.args[i + 1].replace(/\/?$/, "/")}`, `file://${Deno.cwd()}/`)
    : new URL("../", import.meta.url);
  const found = await checkLayers(root);
  for (const v of found) console.error(`${v.file}: imports ${v.imports} (${v.why})`);
  if (found.length > 0) {
    console.error(`${found.length} imports run against the layering (tools/layers.ts)`);
    Deno.exit(1);
  }
  console.log(`layers: ok (${LAYERS.join(" <- ")})`);
}
