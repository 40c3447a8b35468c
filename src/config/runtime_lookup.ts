/**
 * Reading runtime values at decision time, as Envoy's runtime snapshot does for settings that
 * name a `runtime_key`: the layered runtime (static, disk and admin layers; what `/runtime`
 * shows, `/runtime_modify` included) is asked each time, so a change applies to the next
 * request.
 *
 * - {@linkcode runtimeUint}: `getInteger(key, default)`: a non-negative integer value wins,
 *   anything else leaves the default.
 * - {@linkcode runtimeFractionEnabled}: `featureEnabled(key, FractionalPercent default)`: a
 *   runtime integer is the numerator over the configured denominator; a `FractionalPercent`
 *   written in a YAML layer (`key.numerator`, `key.denominator`) replaces both.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runtimeFractionEnabled, runtimeUint } from "./runtime_lookup.ts";
 * const values = new Map([["a", "7"], ["p", "0"]]);
 * const rt = { get: (k: string) => values.get(k) };
 * assert.equal(runtimeUint(rt, "a", 3), 7);
 * assert.equal(runtimeUint(rt, "b", 3), 3);
 * const full = { numerator: 100, denominator: 100, key: "p" };
 * assert.equal(runtimeFractionEnabled(full, rt), false);
 * assert.equal(runtimeFractionEnabled({ ...full, key: null }, rt), true);
 * ```
 * @module
 */

/** A view of the runtime: the final value of a key, or undefined when no layer sets it. */
export interface RuntimeLookup {
  get(key: string): string | undefined;
}

/** A `RuntimeFractionalPercent`: the default numerator over its denominator, and its key. */
export interface RuntimeFraction {
  numerator: number;
  /** 100, 10,000 or 1,000,000. */
  denominator: number;
  /** `runtime_key` (null: none, the default decides). */
  key: string | null;
}

/** The denominators of a `FractionalPercent`, by name. */
export const DENOMINATORS = {
  HUNDRED: 100,
  TEN_THOUSAND: 10_000,
  MILLION: 1_000_000,
} as const satisfies Record<string, number>;

function uintOf(v: string | undefined): number | null {
  if (v === undefined || !/^\s*\d+\s*$/.test(v)) return null;
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : null;
}

/** The runtime's unsigned integer at `key`, or `dflt` when unset or not such an integer. */
export function runtimeUint(
  rt: RuntimeLookup | null | undefined,
  key: string,
  dflt: number,
): number {
  return uintOf(rt?.get(key)) ?? dflt;
}

/** The numerator and denominator in effect for `f` now. */
export function runtimeFraction(
  f: RuntimeFraction,
  rt: RuntimeLookup | null | undefined,
): { numerator: number; denominator: number } {
  if (f.key === null || !rt) return f;
  const plain = uintOf(rt.get(f.key));
  if (plain !== null) return { numerator: plain, denominator: f.denominator };
  const num = uintOf(rt.get(`${f.key}.numerator`));
  if (num === null) return f;
  const den = (DENOMINATORS as Record<string, number>)[rt.get(`${f.key}.denominator`) ?? "HUNDRED"];
  return { numerator: num, denominator: den ?? f.denominator };
}

/**
 * True when `f` (its runtime value in effect) samples this decision: `random` (a
 * non-negative integer, e.g. from the request id) modulo the denominator is below the
 * numerator. Without `random`, a fresh random draw decides.
 */
export function runtimeFractionEnabled(
  f: RuntimeFraction,
  rt: RuntimeLookup | null | undefined,
  random?: number,
): boolean {
  const { numerator, denominator } = runtimeFraction(f, rt);
  if (numerator >= denominator) return true;
  if (numerator === 0) return false;
  const x = random === undefined ? Math.floor(Math.random() * denominator) : random % denominator;
  return x < numerator;
}
