/**
 * `deno task spec:coverage`: per rule, whether it is implemented, tested and checked by the
 * conformance suite, and its support state; per table, how many rules are.
 *
 * A rule is credited only where something declares it in a structured place:
 * - **tested**: a unit test (`Deno.test`) whose name begins with a comma-separated list of rule IDs
 *   or rule-ID globs before the first `: ` (`"admin.mutation.get-returns-400, errors.x: GET ..."`).
 *   Names are read by loading every `*_test.ts` in a child process with `Deno.test` replaced by a
 *   recorder, so names built from rows (`` `${row.id}: ...` ``) count and no test runs. A rule ID
 *   mentioned in a test body or a comment does not count.
 * - **conformance**: a conformance case whose `rules` field names it: the cases the `...Cases`
 *   builders of `conformance/cases/` return (each case is attributed to the innermost file whose
 *   builder returns it), and the literal `rules: [...]` arrays of those files.
 * - **implemented**: a production file of `src/` (one `mod.ts` reaches through its imports) that
 *   names the rule's ID in a string literal, or that imports the rule's table constant from
 *   `spec/` and reads its rows (a file that only looks rows up with `.find(` is credited through
 *   the IDs it names instead).
 *
 * Usage: `deno run -A tools/spec_coverage.ts [--check] [--strict] [--list] [--root DIR]`
 * - without `--check`: the per-table counts, then one line per rule (implemented, tested,
 *   conformance, support);
 * - `--check`: only the counts; exit 1 when a conformance case names an unknown rule ID or a glob
 *   that matches nothing, or when a test or case module could not be loaded;
 * - `--strict` (with `--check`): also exit 1 when a `black-box` or `command` rule has no
 *   conformance case;
 * - `--list` (with `--check`): the per-rule lines too.
 *
 * @example
 * ```ts ignore
 * import { coverage } from "./spec_coverage.ts";
 * const report = await coverage();
 * console.log(report.tables.map((t) => `${t.table}: ${t.tested}/${t.total}`));
 * ```
 * @module
 */
import { allRules, type TableName, TABLES, type TaggedRule } from "../spec/mod.ts";
import * as SPEC from "../spec/mod.ts";

/** The repository root (the parent of `tools/`). */
export const REPO_ROOT = new URL("../", import.meta.url);

/** A rule ID, or a glob over rule IDs (`*` any run, `?` one character). */
const ID_TOKEN = /^[a-z0-9_]+(?:\.[a-z0-9_*?-]+)+$/;
/** String literals ('...', "...", `...` without `${`), one line each. */
const LITERAL = /(["'`])((?:\\.|(?!\1)[^\\\n])*)\1/g;
/** The `rules: [...]` (or `ruleIds: [...]`) arrays of conformance cases. */
const RULES_ARRAY = /\brule(?:s|Ids)\s*:\s*\[([^\]]*)\]/g;

/** An `import ... from "..."` or `export ... from "..."` statement. */
const IMPORT_STATEMENT =
  /(?:^|[;\n])\s*(?:import|export)\s+(type\s+)?([\w*${}\s,]*?)\s*from\s*(["'])([^"'\n]+)\3/g;

/** How a production file implements a rule. */
export type Implementation =
  /** The file names the rule's ID in a string literal. */
  | "id"
  /** The file imports the rule's table constant from `spec/` and reads its rows. */
  | "table";

/** Where one rule is implemented, tested and checked. Every list is sorted. */
export interface RuleLinks {
  /** Production files of `src/`, with how each implements the rule. */
  implemented: { file: string; how: Implementation }[];
  /** Unit tests whose names declare the rule. */
  tests: { file: string; name: string }[];
  /** Conformance cases whose `rules` name the rule (`id` is empty for a bare `rules: [...]`). */
  cases: { file: string; id: string }[];
}

/** The support state a row may carry (`spec/rule.ts`), read defensively. */
export interface Support {
  support?: string;
  supportNote?: string;
}

/**
 * A row's support state: `honoured`, `refused`, `default-only`, or undefined when the row does
 * not say.
 *
 * @example
 * ```ts
 * supportOf({ support: "refused", supportNote: "no health checker" }).support; // "refused"
 * ```
 */
export function supportOf(row: object): Support {
  const r = row as { support?: unknown; supportNote?: unknown };
  const out: Support = {};
  if (typeof r.support === "string") out.support = r.support;
  if (typeof r.supportNote === "string") out.supportNote = r.supportNote;
  return out;
}

/** Per-table counts. */
export interface TableCoverage {
  table: TableName;
  total: number;
  /** Rules a production file of `src/` implements. */
  implemented: number;
  /** Rules a unit test declares. */
  tested: number;
  /** Rules a conformance case declares. */
  conformance: number;
  /** Rows marked `support: "refused"`. */
  refused: number;
  /** `black-box` and `command` rules. */
  checkable: number;
  /** `black-box` and `command` rules with a conformance case. */
  checkableCovered: number;
}

/** A name in a conformance case that matches no rule. */
export interface UnknownReference {
  file: string;
  name: string;
}

/** What {@linkcode coverage} finds. */
export interface CoverageReport {
  tables: TableCoverage[];
  /** Every rule with its links, in table order. */
  rules: { rule: TaggedRule; links: RuleLinks }[];
  /** Rules that no unit test declares. */
  untested: TaggedRule[];
  /** `black-box`/`command` rules without a conformance case. */
  uncheckedCheckable: TaggedRule[];
  /** IDs or globs in conformance cases' rule lists that match no rule. */
  unknown: UnknownReference[];
  /** Rule-ID-like words in test-name rule lists that match no rule (a renamed row?). */
  unknownInTests: UnknownReference[];
  /** Problems met while reading (a module that failed to load). */
  warnings: string[];
  /** How many files were scanned. */
  files: { tests: number; cases: number; sources: number };
}

/** Options of {@linkcode coverage}. */
export interface CoverageOptions {
  /** The repository root (default: the parent of `tools/`). */
  root?: URL;
  /** The rules (default: every table). */
  rules?: readonly TaggedRule[];
  /** Load the case builders of `conformance/cases/` (default true). */
  importCases?: boolean;
  /** The exported names of the table constants of `spec/` (default: read from `spec/mod.ts`). */
  tableConstants?: Readonly<Record<string, readonly TableName[]>>;
}

/**
 * Compiles a rule-ID glob to a whole-ID regular expression.
 *
 * @param glob `*` matches any run of characters, `?` one character
 * @example
 * ```ts
 * globToRegExp("admin.*").test("admin.endpoints.ready"); // true
 * ```
 */
export function globToRegExp(glob: string): RegExp {
  const src = glob.replace(/[.+^${}()|[\]\\]/g, "\\$&").replaceAll("*", ".*").replaceAll("?", ".");
  return new RegExp(`^${src}$`);
}

const SKIP_DIRS = new Set(["node_modules", ".git", "dist", "reports", ".deno"]);
const byText = (a: string, b: string) => a < b ? -1 : a > b ? 1 : 0;

async function walk(dir: URL, out: string[], rel = ""): Promise<void> {
  let entries: Deno.DirEntry[];
  try {
    entries = [];
    for await (const e of Deno.readDir(dir)) entries.push(e);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return;
    throw e;
  }
  entries.sort((a, b) => byText(a.name, b.name));
  for (const e of entries) {
    if (e.isDirectory && !SKIP_DIRS.has(e.name) && !e.name.startsWith(".")) {
      await walk(new URL(`${e.name}/`, dir), out, `${rel}${e.name}/`);
    } else if (e.isFile && e.name.endsWith(".ts")) {
      out.push(`${rel}${e.name}`);
    }
  }
}

/**
 * Blanks out comments, keeping strings and line breaks, so a rule ID in a comment is not read
 * as code.
 *
 * @param source TypeScript source text
 * @example
 * ```ts
 * stripComments(`a("x") // "y"`); // `a("x") `
 * ```
 */
export function stripComments(source: string): string {
  let out = "";
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    const next = source[i + 1];
    if (c === "/" && next === "/") {
      while (i < source.length && source[i] !== "\n") i++;
    } else if (c === "/" && next === "*") {
      const end = source.indexOf("*/", i + 2);
      const stop = end < 0 ? source.length : end + 2;
      out += source.slice(i, stop).replace(/[^\n]/g, "");
      i = stop;
    } else if (c === '"' || c === "'" || c === "`") {
      let j = i + 1;
      while (j < source.length && source[j] !== c && (c === "`" || source[j] !== "\n")) {
        j += source[j] === "\\" ? 2 : 1;
      }
      out += source.slice(i, j + 1);
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/**
 * The ID-like words of the string literals of a piece of source (comments stripped first).
 *
 * @param source TypeScript source text
 * @example
 * ```ts
 * idTokens(`f("admin.endpoints.ready: answers") // "cli.options.mode"`); // ["admin.endpoints.ready"]
 * ```
 */
export function idTokens(source: string): string[] {
  const tokens: string[] = [];
  for (const m of stripComments(source).matchAll(LITERAL)) {
    for (const word of m[2].split(/[\s,;:()[\]{}"'`|]+/)) {
      if (ID_TOKEN.test(word)) tokens.push(word);
    }
  }
  return tokens;
}

/**
 * The string literals inside `rules: [...]` arrays of a source.
 *
 * @param source TypeScript source text
 * @example
 * ```ts
 * ruleListEntries(`{ rules: ["errors.ready-live"] }`); // ["errors.ready-live"]
 * ```
 */
export function ruleListEntries(source: string): string[] {
  const out: string[] = [];
  for (const m of stripComments(source).matchAll(RULES_ARRAY)) {
    for (const lit of m[1].matchAll(LITERAL)) if (!lit[2].includes("${")) out.push(lit[2]);
  }
  return out;
}

/**
 * The rule IDs (or globs) a test name declares: the comma-separated list before its first `: `,
 * when every item of it looks like a rule ID; else none.
 *
 * @param name a test name
 * @example
 * ```ts
 * declaredRules("admin.x.a, errors.b: GET answers 400"); // ["admin.x.a", "errors.b"]
 * declaredRules("router: admin.x.a is served"); // []
 * ```
 */
export function declaredRules(name: string): string[] {
  const colon = name.indexOf(": ");
  if (colon < 0) return [];
  const items = name.slice(0, colon).split(",").map((s) => s.trim());
  return items.every((s) => ID_TOKEN.test(s)) ? items : [];
}

/** One import (or re-export) of a module. */
export interface ImportOf {
  /** The specifier as written. */
  from: string;
  /** Imported value names, as exported (`A` of `A as B`) → local name. Type-only ones are left out. */
  names: Map<string, string>;
  /** The local name of a namespace import (`* as ns`). */
  namespace?: string;
  /** True for `import type` / `export type`. */
  typeOnly: boolean;
}

/**
 * The static imports and re-exports of a module, and its dynamic `import("...")` of literals.
 *
 * @param source TypeScript source text
 * @example
 * ```ts
 * importsOf(`import { A as B, type C } from "./x.ts";`)[0].names; // Map { "A" => "B" }
 * ```
 */
export function importsOf(source: string): ImportOf[] {
  const code = stripComments(source);
  const out: ImportOf[] = [];
  for (const m of code.matchAll(IMPORT_STATEMENT)) {
    const clause = m[2];
    const names = new Map<string, string>();
    let namespace: string | undefined;
    const braces = clause.match(/\{([^}]*)\}/);
    if (braces) {
      for (const part of braces[1].split(",")) {
        const p = part.trim();
        if (!p || p.startsWith("type ")) continue;
        const [exported, local] = p.split(/\s+as\s+/);
        names.set(exported.trim(), (local ?? exported).trim());
      }
    }
    const ns = clause.match(/\*\s*as\s+([\w$]+)/);
    if (ns) namespace = ns[1];
    out.push({ from: m[4], names, namespace, typeOnly: Boolean(m[1]) });
  }
  for (const m of code.matchAll(/\bimport\(\s*(["'])([^"'\n]+)\1\s*\)/g)) {
    out.push({ from: m[2], names: new Map(), typeOnly: false });
  }
  for (const m of code.matchAll(/(?:^|[;\n])\s*import\s*(["'])([^"'\n]+)\1/g)) {
    out.push({ from: m[2], names: new Map(), typeOnly: false });
  }
  return out;
}

/**
 * Whether a module reads the rows of an imported table, rather than only looking single rows
 * up with `.find(` (or naming its type with `typeof`).
 *
 * @param source TypeScript source text
 * @param local the table constant's local name
 * @example
 * ```ts
 * readsRows(`for (const r of ENDPOINTS) f(r);`, "ENDPOINTS"); // true
 * readsRows(`const r = ENDPOINTS.find((r) => r.id === "x");`, "ENDPOINTS"); // false
 * ```
 */
export function readsRows(source: string, local: string): boolean {
  const code = stripComments(source).replace(IMPORT_STATEMENT, "").replace(LITERAL, '""');
  return readsIn(code, local, 0, code.length, 0);
}

/** {@linkcode readsRows} over `code.slice(from, to)`, following `const x = TABLE` aliases. */
function readsIn(code: string, local: string, from: number, to: number, depth: number): boolean {
  const name = local.replaceAll("$", "\\$");
  const uses = new RegExp(`(?<![\\w$.])${name}(?![\\w$])`, "g");
  uses.lastIndex = from;
  let runtime = 0;
  let lookups = 0;
  for (let m = uses.exec(code); m && m.index < to; m = uses.exec(code)) {
    const before = code.slice(Math.max(0, m.index - 200), m.index);
    if (/\btypeof\s*\(?\s*$/.test(before)) continue;
    runtime++;
    const after = code.slice(m.index + local.length);
    const alias = before.match(/\b(?:const|let)\s+([\w$]+)\s*(?::[^=;]*)?=\s*\(?\s*$/);
    if (/^(?:\s+as\s+[^)]*\))?\s*\.find\(/.test(after)) {
      lookups++;
    } else if (alias && depth < 3 && !/^(?:\s+as\s+[^)]*\))?\s*[.[]/.test(after)) {
      // The alias lives until the end of the block that declares it.
      let end = m.index;
      for (let open = 0; end < to && open >= 0; end++) {
        if (code[end] === "{") open++;
        else if (code[end] === "}") open--;
      }
      if (!readsIn(code, alias[1], m.index + local.length, end, depth + 1)) lookups++;
    }
  }
  return runtime === 0 || lookups < runtime;
}

/**
 * The rule IDs a module names through a prefix template: in a module that writes
 * `` `cli.constraints.${id}` ``, the literal `"mode"` names `cli.constraints.mode`.
 *
 * @param source TypeScript source text
 * @param ids every rule ID
 * @example
 * ```ts
 * prefixedIds('const f = (id) => `a.b.${id}`; f("c");', new Set(["a.b.c"])); // ["a.b.c"]
 * ```
 */
export function prefixedIds(source: string, ids: ReadonlySet<string>): string[] {
  const code = stripComments(source);
  const prefixes = new Set(
    [...code.matchAll(/`([a-z0-9_]+(?:\.[a-z0-9_-]+)*\.)\$\{/g)].map((m) => m[1]),
  );
  if (prefixes.size === 0) return [];
  const out = new Set<string>();
  for (const m of code.matchAll(LITERAL)) {
    if (!/^[a-z0-9_-]+$/.test(m[2])) continue;
    for (const p of prefixes) if (ids.has(p + m[2])) out.add(p + m[2]);
  }
  return [...out];
}

/**
 * The case IDs a conformance case file writes after `id:`: literals, and the fixed start of
 * templates.
 *
 * @param source TypeScript source text
 * @example
 * ```ts
 * caseIdPrefixes('{ id: `cli:constraint:${k}` }'); // [{ text: "cli:constraint:", template: true }]
 * ```
 */
export function caseIdPrefixes(source: string): { text: string; template: boolean }[] {
  const out: { text: string; template: boolean }[] = [];
  for (
    const m of stripComments(source).matchAll(/\bid:\s*(["'`])((?:\\.|(?!\1)[^\\\n$])*)(\$\{)?/g)
  ) {
    out.push({ text: m[2], template: m[3] !== undefined });
  }
  return out;
}

/** The exported names of the table constants of `spec/mod.ts`, by identity with `TABLES`. */
function specTableConstants(): Record<string, TableName[]> {
  const out: Record<string, TableName[]> = {};
  for (const [name, value] of Object.entries(SPEC)) {
    const tables = (Object.keys(TABLES) as TableName[]).filter((t) => TABLES[t] === value);
    if (tables.length) out[name] = tables;
  }
  return out;
}

/** A test name and the file that declared it. */
export interface TestName {
  file: string;
  name: string;
}

const TOOL = new URL(import.meta.url);
/** How long loading every test file may take before the listing gives up (a hung import). */
const LIST_TIMEOUT_MS = 120_000;
const CONFIG = new URL("../deno.json", import.meta.url);

/**
 * The names of every `Deno.test` the given test files declare, read by loading them in a child
 * process whose `Deno.test` records instead of running (temporary files they make at load time go
 * to a folder removed afterwards).
 *
 * @param root the repository root
 * @param files test files, relative to `root`
 */
export async function listTestNames(
  root: URL,
  files: readonly string[],
): Promise<{ names: TestName[]; errors: string[] }> {
  if (files.length === 0) return { names: [], errors: [] };
  const tmp = await Deno.makeTempDir({ prefix: "spec_coverage_" });
  try {
    const result = `${tmp}/names.json`;
    const config = await Deno.stat(CONFIG).then(() => ["--config", CONFIG.pathname], () => []);
    const out = await new Deno.Command(Deno.execPath(), {
      signal: AbortSignal.timeout(LIST_TIMEOUT_MS),
      args: [
        "run",
        "-A",
        "--quiet",
        ...config,
        TOOL.href,
        "--test-names",
        result,
        root.href,
        ...files,
      ],
      cwd: new URL(".", CONFIG).pathname,
      env: { TMPDIR: tmp, TMP: tmp, TEMP: tmp },
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).output();
    let parsed: { names: TestName[]; errors: string[] };
    try {
      parsed = JSON.parse(await Deno.readTextFile(result));
    } catch {
      const err = new TextDecoder().decode(out.stderr).trim().split("\n").slice(-5).join(" | ");
      return {
        names: [],
        errors: [
          `could not list test names (exit ${out.code}${
            out.signal ? `, ${out.signal}` : ""
          }): ${err}`,
        ],
      };
    }
    return parsed;
  } finally {
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
}

/** The child-process side of {@linkcode listTestNames}. */
async function recordTestNames(resultPath: string, root: string, files: string[]): Promise<void> {
  const names: TestName[] = [];
  const errors: string[] = [];
  let current = "";
  const fileOf = (stack: string | undefined): string => {
    for (const line of (stack ?? "").split("\n")) {
      const m = line.match(/(file:\/\/[^\s)]+?_test\.ts):\d+:\d+/);
      if (m && m[1].startsWith(root)) return decodeURIComponent(m[1].slice(root.length));
    }
    return current;
  };
  const record = (a: unknown, b?: unknown) => {
    let name: unknown;
    if (typeof a === "string") name = a;
    else if (typeof a === "function") name = a.name;
    else if (typeof a === "object" && a !== null) name = (a as { name?: unknown }).name;
    if (typeof name !== "string" && typeof b === "function") name = b.name;
    if (typeof name === "string") names.push({ file: fileOf(new Error().stack), name });
  };
  Object.assign(record, { ignore: record, only: record });
  (Deno as unknown as { test: unknown }).test = record;
  for (const f of files) {
    current = f;
    try {
      await import(new URL(f, root).href);
    } catch (e) {
      errors.push(`${f}: ${(e as Error).message.split("\n")[0]}`);
    }
  }
  await Deno.writeTextFile(resultPath, JSON.stringify({ names, errors }));
}

function isCaseList(v: unknown): v is { id?: unknown; rules: readonly unknown[] }[] {
  return Array.isArray(v) &&
    v.every((c) => typeof c === "object" && c !== null && Array.isArray(c.rules));
}

/** Resolves a module specifier against a file, relative to the root; undefined when outside. */
function resolveIn(root: URL, file: string, spec: string): string | undefined {
  if (!spec.startsWith(".")) return undefined;
  const url = new URL(spec, new URL(file, root)).href;
  return url.startsWith(root.href) ? decodeURIComponent(url.slice(root.href.length)) : undefined;
}

/** The files of `sources` that `entry` reaches through relative imports. */
function reachable(
  root: URL,
  entry: string,
  sources: ReadonlyMap<string, string>,
): Set<string> {
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length) {
    const f = queue.pop()!;
    if (seen.has(f) || !sources.has(f)) continue;
    seen.add(f);
    for (const imp of importsOf(sources.get(f)!)) {
      const to = resolveIn(root, f, imp.from);
      if (to && !seen.has(to)) queue.push(to);
    }
  }
  return seen;
}

/**
 * Scans the repository and finds, per rule, where it is implemented, tested and checked.
 *
 * @param opts where to look and which rules to count
 * @example
 * ```ts ignore
 * const report = await coverage();
 * console.log(report.untested.length);
 * ```
 */
export async function coverage(opts: CoverageOptions = {}): Promise<CoverageReport> {
  const root = opts.root ?? REPO_ROOT;
  const rules = opts.rules ?? allRules();
  const ids = new Set(rules.map((r) => r.id));
  const tableNames = new Set<string>(rules.map((r) => r.table));
  const prefixes = new Set(rules.map((r) => r.id.split(".")[0]));
  const files: string[] = [];
  await walk(root, files);
  const tests = files.filter((f) => f.endsWith("_test.ts"));
  const caseFiles = files.filter((f) => f.startsWith("conformance/cases/") && !tests.includes(f));
  const unknown: UnknownReference[] = [];
  const unknownInTests: UnknownReference[] = [];
  const warnings: string[] = [];

  const links = new Map<string, RuleLinks>(
    rules.map((r) => [r.id, { implemented: [], tests: [], cases: [] }]),
  );
  const matching = (token: string): string[] =>
    /[*?]/.test(token)
      ? rules.filter((r) => globToRegExp(token).test(r.id)).map((r) => r.id)
      : ids.has(token)
      ? [token]
      : [];

  // Tested: unit tests whose names declare rules.
  const listed = await listTestNames(root, tests);
  warnings.push(...listed.errors);
  for (const t of listed.names) {
    for (const token of declaredRules(t.name)) {
      const hits = matching(token);
      for (const id of hits) links.get(id)!.tests.push(t);
      const aPrefix = tableNames.has(token) || rules.some((r) => r.id.startsWith(`${token}.`));
      if (hits.length === 0 && !aPrefix) unknownInTests.push({ file: t.file, name: token });
    }
  }

  // Conformance: the rule lists of cases.
  const caseOf = new Map<string, { file: string; size: number; rules: Set<string> }>();
  const fromBuilder = (file: string, cases: { id?: unknown; rules: readonly unknown[] }[]) => {
    for (const c of cases) {
      const id = typeof c.id === "string" ? c.id : "";
      const have = caseOf.get(id);
      const size = file === "conformance/cases/mod.ts" ? Infinity : cases.length;
      if (have && have.size < size) {
        for (const r of c.rules) if (typeof r === "string") have.rules.add(r);
        continue;
      }
      const set = have?.rules ?? new Set<string>();
      for (const r of c.rules) if (typeof r === "string") set.add(r);
      caseOf.set(id, { file, size, rules: set });
    }
  };
  for (const f of caseFiles) {
    const src = await Deno.readTextFile(new URL(f, root));
    for (const entry of ruleListEntries(src)) {
      const looksLikeRule = ID_TOKEN.test(entry) && prefixes.has(entry.split(".")[0]);
      const hits = looksLikeRule ? matching(entry) : [];
      if (hits.length === 0) unknown.push({ file: f, name: entry });
      for (const id of hits) links.get(id)!.cases.push({ file: f, id: "" });
    }
    if (opts.importCases === false) continue;
    try {
      const mod = await import(new URL(f, root).href);
      for (const [name, exported] of Object.entries(mod)) {
        // A case list, or a builder `(input: { rules, variant }) => Case[]` such as `buildCases`.
        const values: unknown[] = typeof exported === "function" && /cases$/i.test(name) &&
            exported.length <= 1
          ? [
            await exported({ rules, variant: "new" }),
            await exported({ rules, variant: "v2" }),
          ]
          : [exported];
        for (const value of values) if (isCaseList(value)) fromBuilder(f, value);
      }
    } catch (e) {
      warnings.push(`could not load ${f}: ${(e as Error).message.split("\n")[0]}`);
    }
  }
  // A case built by a helper of another file (`constraintCase`) goes to that file when its ID
  // template there fits the case's ID better than any in the builder's own file.
  const caseSources = new Map<string, string>();
  for (const f of caseFiles) caseSources.set(f, await Deno.readTextFile(new URL(f, root)));
  const idPrefixes = new Map([...caseSources].map(([f, src]) => [f, caseIdPrefixes(src)]));
  const fit = (file: string, caseId: string) =>
    Math.max(
      -1,
      ...(idPrefixes.get(file) ?? []).map((p) =>
        p.template ? (caseId.startsWith(p.text) ? p.text.length : -1) : p.text === caseId ? 1e6 : -1
      ),
    );
  for (const [caseId, c] of caseOf) {
    const helpers = importsOf(caseSources.get(c.file) ?? "")
      .map((i) => resolveIn(root, c.file, i.from))
      .filter((f): f is string => f !== undefined && caseSources.has(f));
    let best = c.file;
    for (const h of helpers) if (fit(h, caseId) > fit(best, caseId)) best = h;
    c.file = best;
  }
  for (const [caseId, c] of caseOf) {
    for (const r of c.rules) {
      const hits = matching(r);
      if (hits.length === 0) unknown.push({ file: `${c.file} (${caseId})`, name: r });
      for (const id of hits) links.get(id)!.cases.push({ file: c.file, id: caseId });
    }
  }

  // Implemented: production files of src/ that name the ID or read the table's rows.
  const sourceFiles = files.filter((f) => f.startsWith("src/") && !f.endsWith("_test.ts"));
  const sources = new Map<string, string>();
  for (const f of [...sourceFiles, ...(files.includes("mod.ts") ? ["mod.ts"] : [])]) {
    sources.set(f, await Deno.readTextFile(new URL(f, root)));
  }
  const production = files.includes("mod.ts")
    ? [...reachable(root, "mod.ts", sources)].filter((f) => f.startsWith("src/"))
    : sourceFiles;
  const constants = opts.tableConstants ?? specTableConstants();
  for (const f of production) {
    const src = sources.get(f)!;
    for (const token of new Set([...idTokens(src), ...prefixedIds(src, ids)])) {
      if (ids.has(token)) links.get(token)!.implemented.push({ file: f, how: "id" });
    }
    const read = new Set<string>();
    for (const imp of importsOf(src)) {
      const to = resolveIn(root, f, imp.from);
      if (imp.typeOnly || !to?.startsWith("spec/")) continue;
      for (const [exported, local] of imp.names) {
        if (constants[exported] && readsRows(src, local)) {
          for (const t of constants[exported]) read.add(t);
        }
      }
      if (imp.namespace) {
        for (const [exported, tables] of Object.entries(constants)) {
          if (new RegExp(`\\b${imp.namespace}\\.${exported}\\b`).test(stripComments(src))) {
            for (const t of tables) read.add(t);
          }
        }
      }
    }
    for (const r of rules) {
      const l = links.get(r.id)!;
      if (read.has(r.table) && !l.implemented.some((i) => i.file === f)) {
        l.implemented.push({ file: f, how: "table" });
      }
    }
  }

  for (const l of links.values()) {
    l.implemented.sort((a, b) => byText(a.file, b.file));
    const seenTest = new Set<string>();
    l.tests = l.tests.filter((t) => {
      const k = `${t.file}\0${t.name}`;
      return seenTest.has(k) ? false : (seenTest.add(k), true);
    }).sort((a, b) => byText(a.file, b.file) || byText(a.name, b.name));
    const seenCase = new Set<string>();
    const built = l.cases.some((c) => c.id);
    l.cases = l.cases.filter((c) => {
      const k = `${c.file}\0${c.id}`;
      if (!c.id && built) return false;
      return seenCase.has(k) ? false : (seenCase.add(k), true);
    }).sort((a, b) => byText(a.file, b.file) || byText(a.id, b.id));
  }

  const seen = new Set<string>();
  const dedupe = (u: UnknownReference) => {
    const key = `${u.file.split(" (")[0]}\0${u.name}`;
    return seen.has(key) ? false : (seen.add(key), true);
  };
  const checkable = (r: TaggedRule) => r.check === "black-box" || r.check === "command";
  const l = (r: TaggedRule) => links.get(r.id)!;
  const tables = [...new Set(rules.map((r) => r.table))];
  return {
    tables: tables.map((table) => {
      const rows = rules.filter((r) => r.table === table);
      return {
        table,
        total: rows.length,
        implemented: rows.filter((r) => l(r).implemented.length > 0).length,
        tested: rows.filter((r) => l(r).tests.length > 0).length,
        conformance: rows.filter((r) => l(r).cases.length > 0).length,
        refused: rows.filter((r) => supportOf(r).support === "refused").length,
        checkable: rows.filter(checkable).length,
        checkableCovered: rows.filter((r) => checkable(r) && l(r).cases.length > 0).length,
      };
    }),
    rules: rules.map((rule) => ({ rule, links: l(rule) })),
    untested: rules.filter((r) => l(r).tests.length === 0),
    uncheckedCheckable: rules.filter((r) => checkable(r) && l(r).cases.length === 0),
    unknown: unknown.filter(dedupe),
    unknownInTests: unknownInTests.filter(dedupe),
    warnings,
    files: { tests: tests.length, cases: caseFiles.length, sources: production.length },
  };
}

/** The totals row of a report's tables. */
export function totals(report: CoverageReport): Omit<TableCoverage, "table"> {
  const sum = (k: Exclude<keyof TableCoverage, "table">) =>
    report.tables.reduce((n, t) => n + t[k], 0);
  return {
    total: sum("total"),
    implemented: sum("implemented"),
    tested: sum("tested"),
    conformance: sum("conformance"),
    refused: sum("refused"),
    checkable: sum("checkable"),
    checkableCovered: sum("checkableCovered"),
  };
}

/**
 * Renders the summary table printed by the tool, and with `list` one line per rule.
 *
 * @param report what {@linkcode coverage} found
 * @param list also list every rule with its state
 * @example
 * ```ts ignore
 * console.log(formatCoverage(await coverage(), true));
 * ```
 */
export function formatCoverage(report: CoverageReport, list = false): string {
  const head = [
    "table",
    "rules",
    "implemented",
    "tested",
    "conformance",
    "refused",
    "checkable",
    "checkable in cases",
  ];
  const cells = (name: string, t: Omit<TableCoverage, "table">) => [
    name,
    ...[
      t.total,
      t.implemented,
      t.tested,
      t.conformance,
      t.refused,
      t.checkable,
      t.checkableCovered,
    ].map(String),
  ];
  const rows = [...report.tables.map((t) => cells(t.table, t)), cells("total", totals(report))];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (c: string[]) =>
    c.map((x, i) => i === 0 ? x.padEnd(widths[i]) : x.padStart(widths[i])).join("  ");
  const out = [
    `scanned ${report.files.tests} test files, ${report.files.cases} conformance case files ` +
    `and ${report.files.sources} source files; a rule counts as tested or checked only where a ` +
    `test name or a case's rules declare it`,
    line(head),
    widths.map((w) => "-".repeat(w)).join("  "),
    ...rows.map(line),
  ];
  for (const w of report.warnings) out.push(`warning: ${w}`);
  for (const u of report.unknown) out.push(`unknown rule ID in ${u.file}: ${u.name}`);
  for (const u of report.unknownInTests) {
    out.push(`note: a test name in ${u.file} declares ${u.name}, which is no rule`);
  }
  if (list) {
    out.push("", "rule  [check]  implemented tested conformance  support");
    for (const { rule, links } of report.rules) {
      const mark = (n: number, word: string) => n > 0 ? word : "-".repeat(word.length);
      const s = supportOf(rule);
      out.push(
        [
          rule.id,
          `[${rule.check}]`,
          mark(links.implemented.length, "impl"),
          mark(links.tests.length, "test"),
          mark(links.cases.length, "conf"),
          s.support ? `${s.support}${s.supportNote ? `: ${s.supportNote}` : ""}` : "",
        ].join("  ").trimEnd(),
      );
    }
  } else if (report.untested.length) {
    out.push(`${report.untested.length} rules are declared by no test (--list shows every rule)`);
  }
  return out.join("\n");
}

if (import.meta.main && Deno.args[0] === "--test-names") {
  // Not awaited here: test files import this module, which must finish evaluating first.
  const [, result, root, ...files] = Deno.args;
  setTimeout(() => recordTestNames(result, root, files).then(() => Deno.exit(0)));
} else if (import.meta.main) {
  const args = new Set(Deno.args);
  const rootAt = Deno.args.indexOf("--root");
  const root = rootAt >= 0 && Deno.args[rootAt + 1]
    ? new URL(`file://${await Deno.realPath(Deno.args[rootAt + 1])}/`)
    : undefined;
  const report = await coverage({ root });
  console.log(formatCoverage(report, args.has("--list") || !args.has("--check")));
  if (args.has("--check")) {
    let failed = false;
    if (report.warnings.length) {
      console.error(
        `error: ${report.warnings.length} module(s) could not be read; counts are wrong`,
      );
      failed = true;
    }
    if (report.unknown.length) {
      console.error(`error: conformance cases name ${report.unknown.length} unknown rule ID(s)`);
      failed = true;
    }
    if (args.has("--strict") && report.uncheckedCheckable.length) {
      console.error(
        `error: ${report.uncheckedCheckable.length} black-box/command rule(s) have no conformance case:`,
      );
      for (const r of report.uncheckedCheckable) console.error(`  ${r.id}`);
      failed = true;
    }
    if (failed) Deno.exit(1);
  }
}
