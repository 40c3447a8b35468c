/**
 * Number formatting as real Envoy prints stats: `{}` (shortest round-trip, used for quantile
 * values), `{:g}` (six significant digits, used for bucket bounds and quantile labels) and the
 * Prometheus sample values.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatG, formatShortest } from "./format_number.ts";
 * assert.equal(formatG(1800000), "1.8e+06");
 * assert.equal(formatShortest(202.5), "202.5");
 * ```
 * @module
 */

function expForm(mantissa: string, exp: number): string {
  const sign = exp < 0 ? "-" : "+";
  const digits = String(Math.abs(exp)).padStart(2, "0");
  return `${mantissa}e${sign}${digits}`;
}

function trimZeros(s: string): string {
  if (!s.includes(".")) return s;
  return s.replace(/0+$/, "").replace(/\.$/, "");
}

/**
 * Formats like C++ `fmt::format("{}", double)`: the shortest string that reads back as the same
 * number, in exponent form below 1e-4 and from 1e16 on; `nan` and `inf` for non-finite values.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatShortest } from "./format_number.ts";
 * assert.equal(formatShortest(Number.NaN), "nan");
 * ```
 */
export function formatShortest(v: number): string {
  if (Number.isNaN(v)) return "nan";
  if (!Number.isFinite(v)) return v > 0 ? "inf" : "-inf";
  if (Object.is(v, -0)) return "-0";
  const a = Math.abs(v);
  if (a !== 0 && (a < 1e-4 || a >= 1e16)) {
    const [m, e] = v.toExponential().split("e");
    return expForm(m, Number(e));
  }
  if (a >= 1e21) return BigInt(v).toString();
  return String(v);
}

/**
 * Formats like C++ `fmt::format("{:g}", double)`: six significant digits, trailing zeros
 * removed, exponent form when the exponent is below -4 or at least 6.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatG } from "./format_number.ts";
 * assert.equal(formatG(3600000), "3.6e+06");
 * assert.equal(formatG(99.9), "99.9");
 * ```
 */
export function formatG(v: number): string {
  if (Number.isNaN(v)) return "nan";
  if (!Number.isFinite(v)) return v > 0 ? "inf" : "-inf";
  if (v === 0) return "0";
  const [m, e] = v.toExponential(5).split("e");
  const exp = Number(e);
  if (exp < -4 || exp >= 6) return expForm(trimZeros(m), exp);
  return trimZeros(v.toFixed(5 - exp));
}

/**
 * Formats a Prometheus sample value or bound: integers in plain digits, other numbers in the
 * shortest round-trip form; `NaN` and `+Inf` as the exposition format spells them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatPrometheus } from "./format_number.ts";
 * assert.equal(formatPrometheus(1800000), "1800000");
 * ```
 */
export function formatPrometheus(v: number): string {
  if (Number.isNaN(v)) return "NaN";
  if (!Number.isFinite(v)) return v > 0 ? "+Inf" : "-Inf";
  if (Number.isInteger(v) && Math.abs(v) >= 1e21) return BigInt(v).toString();
  return String(v);
}
