/**
 * `FractionalPercent` (`{numerator, denominator: HUNDRED | TEN_THOUSAND | MILLION}`) and
 * `RuntimeFractionalPercent` (`{default_value: FractionalPercent, runtime_key}`), as a share
 * 0..1. Runtime keys are not looked up: the default value decides, as in Envoy when no runtime
 * layer sets the key.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePercent } from "./fractional_percent.ts";
 * assert.equal(parsePercent({ numerator: 25 }, "p", [], 0), 0.25);
 * assert.equal(parsePercent({ numerator: 5, denominator: "TEN_THOUSAND" }, "p", [], 0), 0.0005);
 * ```
 * @module
 */
import type { Json } from "../config/bootstrap_types.ts";
import { type Errors, fail, isObject } from "../config/config_values.ts";

/** Each denominator Envoy has, by name. */
export const DENOMINATORS = {
  HUNDRED: 100,
  TEN_THOUSAND: 10_000,
  MILLION: 1_000_000,
} satisfies Record<string, number>;

/** A `FractionalPercent` at `at` as a share; `dflt` when unset; null (with an error) when bad. */
export function parsePercent(
  v: Json | undefined,
  at: string,
  errors: Errors,
  dflt: number,
): number | null {
  if (v === undefined || v === null) return dflt;
  if (!isObject(v)) return fail(errors, at, "must be an object"), null;
  const num = v.numerator ?? 0;
  const den = v.denominator ?? "HUNDRED";
  if (typeof num !== "number" || !Number.isInteger(num) || num < 0) {
    return fail(errors, `${at}.numerator`, "must be a non-negative integer"), null;
  }
  if (typeof den !== "string" || !(den in DENOMINATORS)) {
    return fail(
      errors,
      `${at}.denominator`,
      `must be one of ${Object.keys(DENOMINATORS).join(", ")}`,
    ),
      null;
  }
  return Math.min(1, num / DENOMINATORS[den as keyof typeof DENOMINATORS]);
}

/** A `RuntimeFractionalPercent` at `at` as a share (its `default_value`); `dflt` when unset. */
export function parseRuntimePercent(
  v: Json | undefined,
  at: string,
  errors: Errors,
  dflt: number,
): number | null {
  if (v === undefined || v === null) return dflt;
  if (!isObject(v)) return fail(errors, at, "must be an object"), null;
  if (v.runtime_key !== undefined && typeof v.runtime_key !== "string") {
    return fail(errors, `${at}.runtime_key`, "must be a string"), null;
  }
  return parsePercent(v.default_value, `${at}.default_value`, errors, 0);
}

/** True with probability `share`. */
export function sampled(share: number): boolean {
  return share >= 1 || (share > 0 && Math.random() < share);
}
