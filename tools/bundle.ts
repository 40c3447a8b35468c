/**
 * The bundle the proxy runs from (`deno task proxy`, `deno task start`, the benchmarks):
 * `.build/serve/mod.js` with its shared chunks and the workers' entries, built by esbuild (the
 * npm package; `deno bundle` is esbuild too but minifies only with identifiers renamed, which
 * renames `#private` methods in log lines). Each file has a linked source map without the
 * sources' text: Deno maps stack frames through it, so a log line's `[src/server/server.ts:529]`
 * is the source's.
 *
 * Why: Deno runs a TypeScript module as its transpiled text, comments kept, with the whole source
 * map inline, original text included, and keeps it for the process's life: the 355 modules a
 * serving process loads are 2 MB of code and 4.8 MB of map. From the bundle, the idle process is
 * about 7 MiB smaller (79.5 to 72.8 MiB on the default bootstrap, `--concurrency 1`, three runs
 * each). `deno run -A mod.ts` still runs the sources and behaves the same; the tests run the
 * sources and `tools/bundle_test.ts` runs the bundle.
 *
 * A bundle is rebuilt when stale: `.build/serve/inputs.sha256` holds a digest of every source it
 * is built from (`mod.ts`, the modules of `src/` and `spec/`, `deno.json`, `deno.lock`), Deno's
 * and esbuild's versions and the options; building takes a few seconds, checking a few
 * milliseconds.
 *
 * Run: `deno run -A tools/bundle.ts [--out .build/<name>] [--force] [--quiet]`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isBundleInput } from "./bundle.ts";
 * assert.ok(isBundleInput("src/server/server.ts"));
 * assert.ok(isBundleInput("deno.lock"));
 * assert.ok(!isBundleInput("src/server/server_test.ts"));
 * assert.ok(!isBundleInput("src/server/testdata/slow_loading_worker.ts"));
 * assert.ok(!isBundleInput("tools/start.ts"));
 * ```
 * @module
 */

import * as esbuild from "esbuild";
import { WORKER_ENTRIES } from "../src/platform/entry_url.ts";

const ROOT = new URL("../", import.meta.url);

/** The bundle's default directory, two levels below the root like the sources' modules. */
export const BUNDLE_DIR = ".build/serve";

/** The modules started on their own: the proxy and its workers' entries. */
export const BUNDLE_ENTRIES: readonly string[] = ["mod.ts", ...Object.values(WORKER_ENTRIES)];

/**
 * esbuild's options: ES modules split into shared chunks (a lazily imported module stays lazy);
 * whitespace and syntax minified but identifiers kept (a log line's function name, `#private`
 * methods included, is the source's); maps linked, without the sources' text; packages and
 * `node:`/`npm:` imports left to Deno. Part of the digest, so a change rebuilds.
 */
const BUNDLE_OPTIONS: esbuild.BuildOptions = {
  bundle: true,
  splitting: true,
  format: "esm",
  outbase: ".",
  minifyWhitespace: true,
  minifySyntax: true,
  keepNames: true,
  sourcemap: "linked",
  sourcesContent: false,
  packages: "external",
  external: ["node:*", "npm:*"],
  platform: "neutral",
  target: "esnext",
  logLevel: "silent",
};

const STAMP = "inputs.sha256";

/** Whether a root-relative path is one the bundle is built from (tests and fixtures are not). */
export function isBundleInput(path: string): boolean {
  if (path === "mod.ts" || path === "deno.json" || path === "deno.lock") return true;
  if (!/^(src|spec)\//.test(path) || !path.endsWith(".ts")) return false;
  return !/_test\.ts$|\/testdata\//.test(path);
}

async function listInputs(dir: URL, rel = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    const path = rel + e.name;
    if (e.isDirectory) {
      if (rel === "" && path !== "src" && path !== "spec") continue;
      out.push(...await listInputs(new URL(`${e.name}/`, dir), `${path}/`));
    } else if (isBundleInput(path)) out.push(path);
  }
  return out;
}

/** The digest of everything a bundle of the tree at `root` is built from, as hex. */
export async function inputsDigest(root: URL = ROOT): Promise<string> {
  const paths = (await listInputs(root)).sort();
  const enc = new TextEncoder();
  const parts: Uint8Array[] = [
    enc.encode(`${Deno.version.deno}\0${esbuild.version}\0${JSON.stringify(BUNDLE_OPTIONS)}\0`),
  ];
  for (const p of paths) {
    parts.push(enc.encode(`${p}\0`), await Deno.readFile(new URL(p, root)), enc.encode("\0"));
  }
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", all));
  return Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("");
}

async function readStamp(dir: URL): Promise<string | undefined> {
  try {
    return (await Deno.readTextFile(new URL(STAMP, dir))).trim();
  } catch {
    return undefined;
  }
}

/** What {@linkcode ensureBundle} did. */
export interface BundleResult {
  /** The bundle's directory (ends in `/`). */
  dir: URL;
  /** The proxy's entry in it. */
  entry: URL;
  /** Whether it was built now (false: it was fresh). */
  built: boolean;
}

/**
 * Builds the bundle of the tree at `root` into `out` (a directory under `.build/`) unless it is
 * fresh. The new files are written beside and renamed into place one by one, the digest last, so
 * no file is ever half written; chunks are named by their content, so a proxy still running from
 * an earlier build finds its lazily loaded chunks. Files no build has written for a day go.
 */
export async function ensureBundle(
  opts: { root?: URL; out?: string; force?: boolean } = {},
): Promise<BundleResult> {
  const root = opts.root ?? ROOT;
  const out = opts.out ?? BUNDLE_DIR;
  if (!/^\.build\/[^/]+$/.test(out)) {
    throw new Error(`bundle directory ${out}: must be .build/<name> (two levels, as src/<dir>/)`);
  }
  const dir = new URL(`${out}/`, root);
  const result = { dir, entry: new URL("mod.js", dir), built: false };
  const digest = await inputsDigest(root);
  if (!opts.force && await readStamp(dir) === digest) return result;
  const tmp = new URL(`${out}.tmp-${Deno.pid}/`, root);
  await Deno.remove(tmp, { recursive: true }).catch(() => {});
  try {
    try {
      await esbuild.build({
        ...BUNDLE_OPTIONS,
        entryPoints: BUNDLE_ENTRIES.map((e) => new URL(e, root).pathname),
        absWorkingDir: root.pathname,
        outdir: tmp.pathname,
      });
    } catch (e) {
      throw new Error(`esbuild failed: ${e instanceof Error ? e.message : e}`);
    } finally {
      await esbuild.stop();
    }
    const files = await listFiles(tmp);
    await Deno.mkdir(dir, { recursive: true });
    // Chunks first, the entries (fixed names) after them, so an entry never names a missing one.
    const entry = (f: string) => !/(^|\/)chunk-|-[A-Z0-9]{8}\.js(\.map)?$/.test(f);
    for (const f of [...files.filter((f) => !entry(f)), ...files.filter(entry)]) {
      await Deno.mkdir(new URL(".", new URL(f, dir)), { recursive: true });
      await Deno.rename(new URL(f, tmp), new URL(f, dir));
    }
    await Deno.writeTextFile(new URL(`${STAMP}.tmp-${Deno.pid}`, dir), `${digest}\n`);
    await Deno.rename(new URL(`${STAMP}.tmp-${Deno.pid}`, dir), new URL(STAMP, dir));
    await pruneOld(dir, new Set([...files, STAMP]));
  } finally {
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
  result.built = true;
  return result;
}

/** Every file under `dir`, as paths relative to it. */
async function listFiles(dir: URL, rel = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(new URL(rel, dir))) {
    if (e.isDirectory) out.push(...await listFiles(dir, `${rel}${e.name}/`));
    else out.push(`${rel}${e.name}`);
  }
  return out;
}

const DAY_MS = 24 * 3600 * 1000;

/** Removes files of earlier builds (not in `keep`) that are more than a day old. */
async function pruneOld(dir: URL, keep: ReadonlySet<string>): Promise<void> {
  for (const f of await listFiles(dir)) {
    if (keep.has(f)) continue;
    const st = await Deno.stat(new URL(f, dir)).catch(() => null);
    if (st?.mtime && Date.now() - st.mtime.getTime() > DAY_MS) {
      await Deno.remove(new URL(f, dir)).catch(() => {});
    }
  }
}

if (import.meta.main) {
  const args = [...Deno.args];
  const flag = (name: string) => {
    const i = args.indexOf(name);
    if (i >= 0) args.splice(i, 1);
    return i >= 0;
  };
  const force = flag("--force");
  const quiet = flag("--quiet");
  const o = args.indexOf("--out");
  const out = o >= 0 ? args.splice(o, 2)[1] : undefined;
  if (o >= 0 && (out === undefined || out.startsWith("--"))) {
    console.error("tools/bundle.ts: --out needs a directory (.build/<name>)");
    Deno.exit(2);
  }
  if (args.length > 0) {
    console.error(`tools/bundle.ts: unknown argument ${args[0]}`);
    Deno.exit(2);
  }
  const started = performance.now();
  try {
    const r = await ensureBundle({ out, force });
    if (!quiet || r.built) {
      const took = ((performance.now() - started) / 1000).toFixed(1);
      console.error(`${r.built ? "built" : "fresh:"} ${r.entry.pathname} (${took} s)`);
    }
  } catch (e) {
    console.error(`tools/bundle.ts: ${e instanceof Error ? e.message : e}`);
    Deno.exit(1);
  }
}
