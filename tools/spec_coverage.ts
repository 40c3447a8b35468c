/**
 * `deno task spec:coverage`: how many rules of each table are named by at least one test.
 *
 * It scans every `*_test.ts` file and every file under `conformance/cases/` for string literals
 * that hold rule IDs (a test name that begins with an ID, a case's `rules: [...]`), and, in
 * conformance cases, rule-ID globs such as `admin.endpoints.*`. When `conformance/cases/mod.ts`
 * exists and exports arrays of cases (or `...Cases` builder functions taking `{ rules, variant }`),
 * their `rules` are read too, since cases may build their IDs from rows.
 *
 * Usage: `deno run -A tools/spec_coverage.ts [--check] [--strict] [--list] [--root DIR]`
 * - `--check`: exit 1 when a conformance case names an unknown rule ID or a glob that matches
 *   nothing;
 * - `--strict` (with `--check`): also exit 1 when a `black-box` or `command` rule has no
 *   conformance case;
 * - `--list`: list every rule that nothing names.
 *
 * @example Not run: it reads every test and conformance file of the repository (slow).
 * ```ts ignore
 * import { coverage } from "./spec_coverage.ts";
 * const report = await coverage();
 * console.log(report.tables.map((t) => `${t.table}: ${t.named}/${t.total}`));
 * ```
 * @module
 */
import { allRules, type TableName, type TaggedRule } from "../spec/mod.ts";

/** The repository root (the parent of `tools/`). */
export const REPO_ROOT = new URL("../", import.meta.url);

/** A rule ID, or a glob over rule IDs (`*` any run, `?` one character). */
const ID_TOKEN = /^[a-z0-9_]+(?:\.[a-z0-9_*?-]+)+$/;
/** String literals ('...', "...", `...` without `${`), one line each. */
const LITERAL = /(["'`])((?:\\.|(?!\1)[^\\\n])*)\1/g;
/** The `rules: [...]` (or `ruleIds: [...]`) arrays of conformance cases. */
const RULES_ARRAY = /\brule(?:s|Ids)\s*:\s*\[([^\]]*)\]/g;

/** Per-table counts. */
export interface TableCoverage {
  table: TableName;
  total: number;
  /** Rules named by a unit test or a conformance case. */
  named: number;
  /** Rules named by a conformance case. */
  conformance: number;
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
  /** Rules that no test and no case names. */
  unnamed: TaggedRule[];
  /** `black-box`/`command` rules without a conformance case. */
  uncheckedCheckable: TaggedRule[];
  /** IDs or globs in conformance cases' rule lists that match no rule. */
  unknown: UnknownReference[];
  /** Problems met while reading (a case index that failed to load). */
  warnings: string[];
  /** How many files were scanned. */
  files: { tests: number; cases: number };
}

/** Options of {@linkcode coverage}. */
export interface CoverageOptions {
  /** The repository root (default: the parent of `tools/`). */
  root?: URL;
  /** The rules (default: every table). */
  rules?: readonly TaggedRule[];
  /** Read `conformance/cases/mod.ts` when present (default true). */
  importCases?: boolean;
}

/**
 * Compiles a rule-ID glob to a whole-ID regular expression.
 *
 * @param glob `*` matches any run of characters, `?` one character
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { globToRegExp } from "./spec_coverage.ts";
 * assert.equal(globToRegExp("admin.*").test("admin.endpoints.ready"), true);
 * ```
 */
export function globToRegExp(glob: string): RegExp {
  const src = glob.replace(/[.+^${}()|[\]\\]/g, "\\$&").replaceAll("*", ".*").replaceAll("?", ".");
  return new RegExp(`^${src}$`);
}

const SKIP_DIRS = new Set(["node_modules", ".git", "dist", "reports", ".deno"]);

async function walk(dir: URL, out: string[], rel = ""): Promise<void> {
  let entries: Deno.DirEntry[];
  try {
    entries = [];
    for await (const e of Deno.readDir(dir)) entries.push(e);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return;
    throw e;
  }
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const e of entries) {
    if (e.isDirectory && !SKIP_DIRS.has(e.name) && !e.name.startsWith(".")) {
      await walk(new URL(`${e.name}/`, dir), out, `${rel}${e.name}/`);
    } else if (e.isFile && e.name.endsWith(".ts")) {
      out.push(`${rel}${e.name}`);
    }
  }
}

/**
 * The ID-like tokens of a piece of source: every word of every string literal.
 *
 * @param source TypeScript source text
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { idTokens } from "./spec_coverage.ts";
 * assert.deepEqual(
 *   idTokens(`Deno.test("admin.endpoints.ready: answers", f)`),
 *   ["admin.endpoints.ready"],
 * );
 * ```
 */
export function idTokens(source: string): string[] {
  const tokens: string[] = [];
  for (const m of source.matchAll(LITERAL)) {
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
 * import assert from "node:assert/strict";
 * import { ruleListEntries } from "./spec_coverage.ts";
 * assert.deepEqual(ruleListEntries(`{ rules: ["errors.ready-live"] }`), ["errors.ready-live"]);
 * ```
 */
export function ruleListEntries(source: string): string[] {
  const out: string[] = [];
  for (const m of source.matchAll(RULES_ARRAY)) {
    for (const lit of m[1].matchAll(LITERAL)) if (!lit[2].includes("${")) out.push(lit[2]);
  }
  return out;
}

function isCaseList(v: unknown): v is { rules: readonly unknown[] }[] {
  return Array.isArray(v) &&
    v.every((c) => typeof c === "object" && c !== null && Array.isArray(c.rules));
}

/**
 * Scans the repository and counts, per table, the rules that tests and conformance cases name.
 *
 * @param opts where to look and which rules to count
 * @example Not run: it reads every test and conformance file of the repository (slow).
 * ```ts ignore
 * import { coverage } from "./spec_coverage.ts";
 * const report = await coverage();
 * console.log(report.unnamed.length);
 * ```
 */
export async function coverage(opts: CoverageOptions = {}): Promise<CoverageReport> {
  const root = opts.root ?? REPO_ROOT;
  const rules = opts.rules ?? allRules();
  const ids = new Set(rules.map((r) => r.id));
  const prefixes = new Set(rules.map((r) => r.id.split(".")[0]));
  const files: string[] = [];
  await walk(root, files);
  const tests = files.filter((f) => f.endsWith("_test.ts"));
  const cases = files.filter((f) => f.startsWith("conformance/cases/"));
  const named = new Set<string>();
  const inCases = new Set<string>();
  const unknown: UnknownReference[] = [];
  const warnings: string[] = [];

  const nameAll = (token: string, into: Set<string>[]) => {
    const hits = /[*?]/.test(token)
      ? rules.filter((r) => globToRegExp(token).test(r.id)).map((r) => r.id)
      : ids.has(token)
      ? [token]
      : [];
    for (const id of hits) for (const s of into) s.add(id);
    return hits.length;
  };

  for (const f of tests) {
    const src = await Deno.readTextFile(new URL(f, root));
    for (const t of idTokens(src)) if (!/[*?]/.test(t)) nameAll(t, [named]);
  }
  for (const f of cases) {
    const src = await Deno.readTextFile(new URL(f, root));
    for (const t of idTokens(src)) nameAll(t, [named, inCases]);
    for (const entry of ruleListEntries(src)) {
      const looksLikeRule = ID_TOKEN.test(entry) && prefixes.has(entry.split(".")[0]);
      if (!looksLikeRule || nameAll(entry, [named, inCases]) === 0) {
        unknown.push({ file: f, name: entry });
      }
    }
  }
  if (opts.importCases !== false && cases.includes("conformance/cases/mod.ts")) {
    try {
      const mod = await import(new URL("conformance/cases/mod.ts", root).href);
      for (const [name, exported] of Object.entries(mod)) {
        // A case list, or a builder `(input: { rules, variant }) => Case[]` such as `buildCases`.
        let value: unknown = exported;
        if (typeof exported === "function" && /cases/i.test(name) && exported.length <= 1) {
          value = await exported({ rules, variant: "new" });
        }
        if (!isCaseList(value)) continue;
        for (const c of value) {
          for (const r of c.rules) {
            if (typeof r !== "string") continue;
            if (nameAll(r, [named, inCases]) === 0) {
              unknown.push({ file: `conformance/cases/mod.ts (${name})`, name: r });
            }
          }
        }
      }
    } catch (e) {
      warnings.push(`could not load conformance/cases/mod.ts: ${(e as Error).message}`);
    }
  }

  const seen = new Set<string>();
  const dedupedUnknown = unknown.filter((u) => {
    const key = `${u.file.split(" (")[0]}\0${u.name}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
  const checkable = (r: TaggedRule) => r.check === "black-box" || r.check === "command";
  const tableNames = [...new Set(rules.map((r) => r.table))];
  return {
    tables: tableNames.map((table) => {
      const rows = rules.filter((r) => r.table === table);
      return {
        table,
        total: rows.length,
        named: rows.filter((r) => named.has(r.id)).length,
        conformance: rows.filter((r) => inCases.has(r.id)).length,
        checkable: rows.filter(checkable).length,
        checkableCovered: rows.filter((r) => checkable(r) && inCases.has(r.id)).length,
      };
    }),
    unnamed: rules.filter((r) => !named.has(r.id)),
    uncheckedCheckable: rules.filter((r) => checkable(r) && !inCases.has(r.id)),
    unknown: dedupedUnknown,
    warnings,
    files: { tests: tests.length, cases: cases.length },
  };
}

/**
 * Renders the summary table printed by the tool.
 *
 * @param report what {@linkcode coverage} found
 * @param list also list every rule nothing names
 * @example Not run: it reads every test and conformance file of the repository (slow).
 * ```ts ignore
 * import { coverage, formatCoverage } from "./spec_coverage.ts";
 * console.log(formatCoverage(await coverage(), true));
 * ```
 */
export function formatCoverage(report: CoverageReport, list = false): string {
  const head = ["table", "rules", "named", "in cases", "checkable", "checkable in cases"];
  const rows = report.tables.map((t) => [
    t.table,
    String(t.total),
    String(t.named),
    String(t.conformance),
    String(t.checkable),
    String(t.checkableCovered),
  ]);
  const sum = (k: keyof TableCoverage) =>
    String(report.tables.reduce((n, t) => n + (t[k] as number), 0));
  rows.push([
    "total",
    sum("total"),
    sum("named"),
    sum("conformance"),
    sum("checkable"),
    sum("checkableCovered"),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])).join("  ");
  const out = [
    `scanned ${report.files.tests} test files and ${report.files.cases} conformance case files`,
    line(head),
    widths.map((w) => "-".repeat(w)).join("  "),
    ...rows.map(line),
  ];
  for (const w of report.warnings) out.push(`warning: ${w}`);
  for (const u of report.unknown) out.push(`unknown rule ID in ${u.file}: ${u.name}`);
  if (list) {
    out.push("", `rules no test names (${report.unnamed.length}):`);
    for (const r of report.unnamed) out.push(`  ${r.id} [${r.check}]`);
  } else if (report.unnamed.length) {
    out.push(`${report.unnamed.length} rules are named by no test (--list shows them)`);
  }
  return out.join("\n");
}

if (import.meta.main) {
  const args = new Set(Deno.args);
  const rootAt = Deno.args.indexOf("--root");
  const root = rootAt >= 0 && Deno.args[rootAt + 1]
    ? new URL(`file://${await Deno.realPath(Deno.args[rootAt + 1])}/`)
    : undefined;
  const report = await coverage({ root });
  console.log(formatCoverage(report, args.has("--list")));
  if (args.has("--check")) {
    let failed = false;
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
