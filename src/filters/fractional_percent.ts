/**
 * `FractionalPercent` (`{numerator, denominator: HUNDRED | TEN_THOUSAND | MILLION}`) and
 * `RuntimeFractionalPercent` (`{default_value: FractionalPercent, runtime_key}`) as a
 * {@linkcode RuntimeFraction}: its `runtime_key` is looked up in the runtime at each decision
 * (`runtimeFractionEnabled` in `config/runtime_lookup.ts`); a runtime integer is the numerator over the default's
 * denominator, as in Envoy's `featureEnabled`.
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
import {
  DENOMINATORS,
  type RuntimeFraction,
  type RuntimeLookup,
} from "../config/runtime_lookup.ts";

export { DENOMINATORS };
export type { RuntimeFraction, RuntimeLookup };

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

/** A fraction that is always `share` (no runtime key). */
export function fixedFraction(share: number): RuntimeFraction {
  return { numerator: Math.round(share * 1_000_000), denominator: 1_000_000, key: null };
}

/**
 * A `RuntimeFractionalPercent` at `at`: its `default_value` and `runtime_key`; `dflt` (a share,
 * no key) when unset; null (with an error) when bad.
 */
export function parseRuntimeFraction(
  v: Json | undefined,
  at: string,
  errors: Errors,
  dflt: number,
): RuntimeFraction | null {
  if (v === undefined || v === null) return fixedFraction(dflt);
  if (!isObject(v)) return fail(errors, at, "must be an object"), null;
  if (v.runtime_key !== undefined && typeof v.runtime_key !== "string") {
    return fail(errors, `${at}.runtime_key`, "must be a string"), null;
  }
  const d = v.default_value ?? {};
  if (parsePercent(d, `${at}.default_value`, errors, 0) === null || !isObject(d)) return null;
  const den = DENOMINATORS[(d.denominator ?? "HUNDRED") as keyof typeof DENOMINATORS];
  const key = typeof v.runtime_key === "string" && v.runtime_key !== "" ? v.runtime_key : null;
  return { numerator: (d.numerator ?? 0) as number, denominator: den, key };
}

/** True with probability `share`. */
export function sampled(share: number): boolean {
  return share >= 1 || (share > 0 && Math.random() < share);
}
