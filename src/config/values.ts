/**
 * Proto3 JSON value kinds of configuration fields, parsed the way Envoy's JSON parser reads
 * them: Duration strings (`0.25s`, `5s`), unsigned integers and their wrappers (a number, or a
 * string of digits), `type.Percent` objects (`{ value: 50 }`), booleans, doubles, and enums by
 * name (case-insensitively) or by defined number. Every parser returns a result, never throws.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseDuration, parseEnum } from "./values.ts";
 * assert.deepEqual(parseDuration("0.25s"), { ok: true, value: 250 });
 * assert.deepEqual(
 *   parseEnum("round_robin", ["ROUND_ROBIN", "RANDOM"], [0, 3]),
 *   { ok: true, value: "ROUND_ROBIN" },
 * );
 * ```
 * @module
 */
import type { JsonObject } from "./bootstrap_types.ts";

/** The outcome of parsing one value: the value in its canonical unit, or why it is invalid. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const fail = <T>(error: string): Parsed<T> => ({ ok: false, error });

/** Shows a value in an error message: strings quoted, long values cut. */
export function show(v: unknown): string {
  let s: string;
  try {
    s = typeof v === "string" ? JSON.stringify(v) : JSON.stringify(v) ?? String(v);
  } catch {
    s = String(v);
  }
  return s.length > 60 ? s.slice(0, 57) + "..." : s;
}

const DURATION = /^(-)?(\d+)(?:\.(\d{1,9}))?s$/;
/** Largest Duration magnitude protobuf allows, in seconds (10,000 years). */
const MAX_DURATION_S = 315576000000;

/**
 * Parses a proto3 JSON Duration (`"5s"`, `"0.250s"`, `"-1.5s"`) into milliseconds.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseDuration } from "./values.ts";
 * assert.deepEqual(parseDuration("1.5s"), { ok: true, value: 1500 });
 * assert.equal(parseDuration(5).ok, false);
 * ```
 */
export function parseDuration(v: unknown): Parsed<number> {
  if (typeof v !== "string") {
    return fail(`expected a duration string such as "5s" or "0.25s", got ${show(v)}`);
  }
  const known = DURATIONS.get(v);
  if (known !== undefined) return ok(known);
  const m = DURATION.exec(v);
  if (!m) {
    return fail(
      `illegal duration format ${
        show(v)
      }: a duration is a number of seconds ending with 's', such as "5s" or "0.25s"`,
    );
  }
  const seconds = Number(m[2]);
  if (seconds > MAX_DURATION_S) return fail(`duration ${show(v)} is out of range`);
  const nanos = m[3] ? Number(m[3].padEnd(9, "0")) : 0;
  const ms = seconds * 1000 + nanos / 1e6;
  if (DURATIONS.size >= 1024) DURATIONS.clear(); // bounded: the texts are the input's
  DURATIONS.set(v, m[1] ? -ms : ms);
  return ok(m[1] ? -ms : ms);
}

/** Valid Duration texts met, in milliseconds: a configuration repeats a few ("0.25s", "5s"). */
const DURATIONS = new Map<string, number>();

/**
 * Formats milliseconds as a proto3 JSON Duration string (`1500` -> `"1.500s"`, `5000` -> `"5s"`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatDuration } from "./values.ts";
 * assert.equal(formatDuration(250), "0.250s");
 * ```
 */
export function formatDuration(ms: number): string {
  const neg = ms < 0;
  const totalNanos = Math.round(Math.abs(ms) * 1e6);
  const s = Math.floor(totalNanos / 1e9);
  const n = totalNanos % 1e9;
  let frac = "";
  if (n !== 0) {
    frac = n % 1e6 === 0
      ? "." + String(n / 1e6).padStart(3, "0")
      : n % 1e3 === 0
      ? "." + String(n / 1e3).padStart(6, "0")
      : "." + String(n).padStart(9, "0");
  }
  return `${neg ? "-" : ""}${s}${frac}s`;
}

function parseUnsigned(v: unknown, bits: 32 | 64): Parsed<number> {
  const type = bits === 32 ? "TYPE_UINT32" : "TYPE_UINT64";
  // The common case, a non-negative safe integer within the type, needs no BigInt.
  if (
    typeof v === "number" && Number.isSafeInteger(v) && v >= 0 && (bits === 64 || v <= 4294967295)
  ) return ok(v + 0); // -0 is 0, as Number(BigInt(-0)) is
  const max = bits === 32 ? 4294967295n : 18446744073709551615n;
  let big: bigint;
  if (typeof v === "number") {
    if (!Number.isInteger(v)) {
      return fail(`invalid value ${show(v)} for type ${type}: not an integer`);
    }
    big = BigInt(v);
  } else if (typeof v === "string" && /^\d+$/.test(v)) {
    big = BigInt(v);
  } else {
    return fail(`invalid value ${show(v)} for type ${type}: expected an unsigned integer`);
  }
  if (big < 0n || big > max) {
    return fail(`invalid value ${show(v)} for type ${type}: out of range 0..${max}`);
  }
  return ok(Number(big));
}

/**
 * Parses a uint32 or UInt32Value: a non-negative integer below 2^32, as a number or a string.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseUInt32 } from "./values.ts";
 * assert.deepEqual(parseUInt32("1024"), { ok: true, value: 1024 });
 * ```
 */
export function parseUInt32(v: unknown): Parsed<number> {
  return parseUnsigned(v, 32);
}

/**
 * Parses a uint64 or UInt64Value (number or string). Values above 2^53 lose precision.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseUInt64 } from "./values.ts";
 * assert.deepEqual(parseUInt64("8388608"), { ok: true, value: 8388608 });
 * ```
 */
export function parseUInt64(v: unknown): Parsed<number> {
  return parseUnsigned(v, 64);
}

/**
 * Parses a double: a finite number, or a numeric string.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseDouble } from "./values.ts";
 * assert.deepEqual(parseDouble("2.5"), { ok: true, value: 2.5 });
 * ```
 */
export function parseDouble(v: unknown): Parsed<number> {
  if (typeof v === "number" && Number.isFinite(v)) return ok(v);
  if (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))) return ok(Number(v));
  return fail(`invalid value ${show(v)} for type TYPE_DOUBLE: expected a number`);
}

/**
 * A proto3 JSON int64: an integer, or a string of digits with an optional minus sign.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseInt64 } from "./values.ts";
 * assert.deepEqual(parseInt64("-5"), { ok: true, value: -5 });
 * ```
 */
export function parseInt64(v: unknown): Parsed<number> {
  const n = typeof v === "string" && /^-?\d+$/.test(v.trim()) ? Number(v.trim()) : v;
  if (typeof n === "number" && Number.isSafeInteger(n)) return ok(n);
  return fail(`invalid value ${show(v)} for type TYPE_INT64: expected an integer`);
}

/**
 * Parses a `type.Percent` object `{ value: <double> }` into its value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePercent } from "./values.ts";
 * assert.deepEqual(parsePercent({ value: 50 }), { ok: true, value: 50 });
 * ```
 */
export function parsePercent(v: unknown): Parsed<number> {
  if (!isObject(v)) return fail(`expected a Percent object such as { value: 50 }, got ${show(v)}`);
  const extra = Object.keys(v).filter((k) => k !== "value");
  if (extra.length) {
    return fail(`unknown field "${extra[0]}" in a Percent (only "value" is allowed)`);
  }
  if (v.value === undefined || v.value === null) return ok(0);
  const d = parseDouble(v.value);
  return d.ok ? d : fail(`invalid Percent value: ${d.error}`);
}

/**
 * Parses a bool: JSON `true` or `false` only.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseBool } from "./values.ts";
 * assert.deepEqual(parseBool(true), { ok: true, value: true });
 * ```
 */
export function parseBool(v: unknown): Parsed<boolean> {
  return typeof v === "boolean" ? ok(v) : fail(`expected true or false, got ${show(v)}`);
}

/**
 * Parses an enum value by name (case-insensitively, as Envoy does) or by defined number, and
 * returns the canonical name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseEnum } from "./values.ts";
 * assert.deepEqual(
 *   parseEnum(2, ["AUTO", "V4_ONLY", "V6_ONLY"], [0, 1, 2]),
 *   { ok: true, value: "V6_ONLY" },
 * );
 * ```
 */
export function parseEnum(
  v: unknown,
  names: readonly string[],
  numbers: readonly number[],
): Parsed<string> {
  if (typeof v === "string") {
    if (canonicalNames(names).has(v)) return ok(v); // no case to fold
    const upper = v.toUpperCase();
    const hit = names.find((n) => n === upper);
    if (hit) return ok(hit);
  } else if (typeof v === "number") {
    const i = numbers.indexOf(v);
    if (i >= 0) return ok(names[i]);
  }
  return fail(`unknown value ${show(v)}; expected one of ${names.join(", ")}`);
}

/**
 * The names of a list that are their own upper case (not empty): a value spelled so is that
 * name, as the case-folding search would find (made once per list).
 */
function canonicalNames(names: readonly string[]): ReadonlySet<string> {
  let set = CANONICAL.get(names);
  if (!set) {
    set = new Set(names.filter((n) => n !== "" && n === n.toUpperCase()));
    CANONICAL.set(names, set);
  }
  return set;
}

const CANONICAL = new WeakMap<readonly string[], ReadonlySet<string>>();

/** True for a plain JSON object (not null, not an array). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * {@linkcode isObject} for parsed configuration: narrows to a {@linkcode JsonObject}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isJsonObject } from "./values.ts";
 * assert.equal(isJsonObject({ a: 1 }), true);
 * assert.equal(isJsonObject([1]), false);
 * ```
 */
export function isJsonObject(v: unknown): v is JsonObject {
  return isObject(v);
}
