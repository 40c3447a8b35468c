/**
 * Expectations files (`conformance/expectations/<impl>.yaml`): a YAML list of
 * `{rule, status, reason, source}` (`source`, optional, says where the claim comes from: a
 * reference file and section, or a file of the implementation's own tests). A rule that is not listed is expected to PASS; NOT_APPLICABLE and
 * NOT_RUN are accepted for it too, except under `--strict` (internal rules, which no outside suite
 * can check, are accepted even then). The older names SKIP and PRECONDITION_FAILED are read as
 * NOT_RUN and NOT_APPLICABLE. A listed rule must end exactly as listed, so an
 * expected failure that now passes fails the run and the file stays true. `rule` may be a glob
 * (`admin.endpoints.cpuprofiler*`); an exact ID wins over a glob, and globs apply in file order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseExpectations, expectationFor } from "./expectations.ts";
 * const list = parseExpectations("- {rule: a.b, status: FAIL, reason: known}", "x.yaml");
 * assert.equal(expectationFor(list, "a.b")?.status, "FAIL");
 * ```
 * @module
 */
// @ts-types="@types/js-yaml"
import yaml from "js-yaml";
import { globToRegExp } from "./glob.ts";
import { isChecked, STATUS_ALIASES, STATUS_ORDER } from "./types.ts";
import type { RuleResult, Status } from "./types.ts";

/** One entry of an expectations file. */
export interface Expectation {
  rule: string;
  status: Status;
  reason: string;
  /** Where the claim comes from (a document and section, a test file, or a run). */
  source?: string;
}

/**
 * Parses and checks an expectations file.
 *
 * @param text the YAML text
 * @param where the file name, for messages
 * @returns the entries
 * @throws {Error} naming the file and entry index on any malformed entry
 */
export function parseExpectations(text: string, where: string): Expectation[] {
  let doc: unknown;
  try {
    doc = yaml.load(text);
  } catch (e) {
    throw new Error(`${where}: not valid YAML: ${(e as Error).message}`);
  }
  if (doc === null || doc === undefined) return [];
  if (!Array.isArray(doc)) throw new Error(`${where}: expected a list of {rule, status, reason}`);
  return doc.map((e, i) => {
    const at = `${where}: entry ${i}`;
    if (typeof e !== "object" || e === null || Array.isArray(e)) {
      throw new Error(`${at}: expected a mapping with rule, status and reason`);
    }
    const o = e as Record<string, unknown>;
    for (const k of Object.keys(o)) {
      if (!["rule", "status", "reason", "source"].includes(k)) {
        throw new Error(`${at}: unknown key "${k}"`);
      }
    }
    if (typeof o.rule !== "string" || o.rule === "") {
      throw new Error(`${at}: "rule" must be a string`);
    }
    const status = typeof o.status === "string" ? STATUS_ALIASES[o.status] ?? o.status : "";
    if (!STATUS_ORDER.includes(status as Status)) {
      throw new Error(`${at} (${o.rule}): "status" must be one of ${STATUS_ORDER.join(", ")}`);
    }
    if (o.reason !== undefined && typeof o.reason !== "string") {
      throw new Error(`${at} (${o.rule}): "reason" must be a string`);
    }
    if (o.source !== undefined && typeof o.source !== "string") {
      throw new Error(`${at} (${o.rule}): "source" must be a string`);
    }
    const entry: Expectation = {
      rule: o.rule,
      status: status as Status,
      reason: (o.reason as string) ?? "",
    };
    if (o.source !== undefined) entry.source = o.source as string;
    return entry;
  });
}

/**
 * Reads an expectations file; a missing file is an error, an empty one has no entries.
 *
 * @param path the file
 * @returns the entries
 * @example
 * ```ts
 * import { loadExpectations } from "./expectations.ts";
 * const list = await loadExpectations("conformance/expectations/envoy.yaml");
 * ```
 */
export async function loadExpectations(path: string): Promise<Expectation[]> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (e) {
    throw new Error(`cannot read the expectations file ${path}: ${(e as Error).message}`);
  }
  return parseExpectations(text, path);
}

/**
 * Finds the expectation that applies to a rule: an exact entry first, else the first glob.
 *
 * @param list the entries
 * @param rule a rule ID
 * @returns the entry, or undefined
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { expectationFor } from "./expectations.ts";
 * assert.equal(
 *   expectationFor([{ rule: "a.*", status: "FAIL", reason: "" }], "a.b")?.status,
 *   "FAIL",
 * );
 * ```
 */
export function expectationFor(
  list: readonly Expectation[],
  rule: string,
): Expectation | undefined {
  const exact = list.find((e) => e.rule === rule);
  if (exact) return exact;
  return list.find((e) => /[*?]/.test(e.rule) && globToRegExp(e.rule).test(rule));
}

/**
 * Tells whether a status meets an expectation. A listed rule must end exactly as listed; an
 * unlisted one must PASS or, unless `strict`, not be checked at all (NOT_APPLICABLE, NOT_RUN).
 * An internal rule that did not run always meets: no suite can check it from outside.
 *
 * @param status what happened
 * @param exp the expectation, if listed
 * @param opts `strict` (`--strict`) and whether the rule is internal
 * @returns true when it matches
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { meets } from "./expectations.ts";
 * assert.equal(meets("PASS", { rule: "a", status: "FAIL", reason: "" }), false); // unexpected pass
 * assert.equal(meets("NOT_RUN", undefined, { strict: true }), false); // not checked, not listed
 * ```
 */
export function meets(
  status: Status,
  exp: Expectation | undefined,
  opts: { strict?: boolean; internal?: boolean } = {},
): boolean {
  if (exp) return status === exp.status;
  if (status === "PASS") return true;
  if (isChecked(status)) return false;
  return !opts.strict || (opts.internal === true && status === "NOT_RUN");
}

/**
 * Rewrites the entries from a run: every rule that did not PASS is listed with its status
 * (keeping an existing reason), not-checked ones too so that `--strict` runs match, except
 * internal rules; entries of rules this run did not reach are kept.
 *
 * @param list the current entries
 * @param results this run's results
 * @returns the new entries, in rule order
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { updateExpectations } from "./expectations.ts";
 * assert.deepEqual(updateExpectations([], []), []);
 * ```
 */
export function updateExpectations(
  list: readonly Expectation[],
  results: readonly RuleResult[],
): Expectation[] {
  const reached = new Set(results.map((r) => r.rule));
  const kept = list.filter((e) => /[*?]/.test(e.rule) ? false : !reached.has(e.rule));
  const fresh: Expectation[] = [];
  for (const r of results) {
    if (r.status === "PASS") continue;
    if (r.status === "NOT_RUN" && r.check === "internal") continue;
    const old = expectationFor(list, r.rule);
    const reason = old && old.status === r.status && old.reason
      ? old.reason
      : (r.message.split("\n")[0] || r.status).slice(0, 300);
    const source = old && old.status === r.status ? old.source : undefined;
    fresh.push({ rule: r.rule, status: r.status, reason, ...(source ? { source } : {}) });
  }
  return [...kept, ...fresh].sort((a, b) => a.rule.localeCompare(b.rule));
}

/**
 * Renders entries as the YAML of an expectations file.
 *
 * @param list the entries
 * @param header a comment placed at the top
 * @returns the file text
 * @example
 * ```ts
 * import { renderExpectations } from "./expectations.ts";
 * renderExpectations([{ rule: "a.b", status: "FAIL", reason: "known" }], "header");
 * ```
 */
export function renderExpectations(list: readonly Expectation[], header = ""): string {
  const head = header ? header.split("\n").map((l) => `# ${l}`.trimEnd()).join("\n") + "\n" : "";
  if (list.length === 0) return head + "[]\n";
  const rows = list.map((e) => ({
    rule: e.rule,
    status: e.status,
    reason: e.reason,
    ...(e.source ? { source: e.source } : {}),
  }));
  return head + yaml.dump(rows, {
    lineWidth: 100,
    noRefs: true,
  });
}
