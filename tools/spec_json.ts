/**
 * `deno task spec:json`: writes every row of every table to `spec/rules.json`, one array in
 * table order, each row tagged with its table. Keys come in a fixed order (`id`, `table`,
 * `level`, `statement`, `cite`, `check`, `envoy`, `unimplemented`, then the table's own
 * columns as the row declares them), so the file only changes when a row does.
 *
 * Usage: `deno run -A tools/spec_json.ts [--check]`; `--check` exits 1 when the file is stale.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toRulesJson } from "./spec_json.ts";
 * const rows = JSON.parse(toRulesJson());
 * assert.equal(rows[0].table, "admin.endpoints");
 * ```
 * @module
 */
import { allRules, type TaggedRule } from "../spec/mod.ts";

/** Where the file is written. */
export const RULES_JSON_URL = new URL("../spec/rules.json", import.meta.url);

/** The columns every row shares (a {@linkcode TaggedRule}'s), in the order they are written. */
export const FIRST_KEYS = [
  "id",
  "table",
  "level",
  "statement",
  "cite",
  "check",
  "envoy",
  "unimplemented",
] as const;

/** A row with its keys in the stable order. */
function ordered(r: TaggedRule): Record<string, unknown> {
  const row = r as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of FIRST_KEYS) if (row[k] !== undefined) out[k] = row[k];
  for (const [k, v] of Object.entries(row)) if (!(k in out) && v !== undefined) out[k] = v;
  return out;
}

/**
 * Serializes rules as `spec/rules.json` holds them: a pretty-printed array, two-space indent,
 * ending with a newline.
 *
 * @param rules the rules (default: every table)
 * @example
 * ```ts
 * import { toRulesJson } from "./spec_json.ts";
 * const rows = JSON.parse(toRulesJson()) as { id: string; table: string }[];
 * ```
 */
export function toRulesJson(rules: readonly TaggedRule[] = allRules()): string {
  return JSON.stringify(rules.map(ordered), null, 2) + "\n";
}

/**
 * Compares the committed file with what the tables give.
 *
 * @param url the file to compare (default `spec/rules.json`)
 * @returns `undefined` when fresh, else a message that says what to run
 * @example
 * ```ts
 * import { checkRulesJson } from "./spec_json.ts";
 * const problem = checkRulesJson();
 * if (problem) console.error(problem);
 * ```
 */
export function checkRulesJson(url: URL = RULES_JSON_URL): string | undefined {
  let old: string;
  try {
    old = Deno.readTextFileSync(url);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) {
      return "spec/rules.json is missing: run `deno task spec:json` and commit it";
    }
    throw e;
  }
  if (old === toRulesJson()) return undefined;
  let detail = "";
  try {
    const before = new Set((JSON.parse(old) as { id: string }[]).map((r) => r.id));
    const after = allRules().map((r) => r.id);
    const added = after.filter((id) => !before.has(id));
    const removed = [...before].filter((id) => !after.includes(id));
    detail = ` (${added.length} rule(s) added, ${removed.length} removed, others changed)`;
    if (added.length) detail += `\n  added: ${added.slice(0, 10).join(", ")}`;
    if (removed.length) detail += `\n  removed: ${removed.slice(0, 10).join(", ")}`;
  } catch {
    detail = " (the file is not valid JSON)";
  }
  return `spec/rules.json is stale${detail}\nrun \`deno task spec:json\` and commit the result`;
}

if (import.meta.main) {
  if (Deno.args.includes("--check")) {
    const problem = checkRulesJson();
    if (problem) {
      console.error(problem);
      Deno.exit(1);
    }
    console.log("spec/rules.json is up to date");
  } else {
    Deno.writeTextFileSync(RULES_JSON_URL, toRulesJson());
    console.log(`wrote spec/rules.json (${allRules().length} rules)`);
  }
}
