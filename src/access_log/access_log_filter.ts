/**
 * Access log filters (`AccessLog.filter`): a compiled predicate over a {@linkcode LogRecord}
 * decides whether a logger writes a line. One compiler per kind of Envoy's `AccessLogFilter`
 * (status code, duration, not health check, traceable, runtime, and, or, header, response
 * flag, dynamic metadata, gRPC status of `grpc_status.ts`); the kinds this build cannot
 * evaluate (log type, extensions) are refused with their path.
 *
 * `runtime_key`s are looked up in the runtime the logger is given, at each decision, as Envoy
 * does: a comparison's runtime integer replaces its `default_value`; a runtime filter's runtime
 * integer is the numerator over `percent_sampled`'s denominator (`percent_sampled` is the
 * default), and the request id decides unless `use_independent_randomness` is set.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseAccessLogFilter } from "./access_log_filter.ts";
 * const errors: { path: string; rule: string; message: string }[] = [];
 * const f = parseAccessLogFilter(
 *   { status_code_filter: { comparison: { op: "GE", value: { default_value: 400, runtime_key: "k" } } } },
 *   "filter",
 *   errors,
 * );
 * assert.deepEqual(errors, []);
 * assert.equal(typeof f, "function");
 * ```
 * @module
 */
import { DENOMINATORS } from "../config/runtime_lookup.ts";
import type { Json } from "../config/bootstrap_types.ts";
import { type Errors, fail, isObject } from "../config/config_values.ts";
import {
  runtimeFractionEnabled,
  type RuntimeLookup,
  runtimeUint,
} from "../config/runtime_lookup.ts";
import { type LogRecord, RESPONSE_FLAG_NAMES } from "./access_log_format.ts";
import { parseMetadataFilter } from "./metadata_filter.ts";
import { parseGrpcStatusFilter } from "./grpc_status.ts";

/** A compiled filter: true when the line is written; `rt` answers its runtime keys. */
export type LogPredicate = (r: LogRecord, rt?: RuntimeLookup) => boolean;

/**
 * The route header matcher's compiler (`router/header_matcher.ts`), given by the layer that
 * has it, for `header_filter`.
 */
export type HeaderMatcherCompiler = (
  v: Json,
  at: string,
  errors: Errors,
) => { name: string; test: (value: string | null) => boolean; invert: boolean } | null;

/** Envoy's short response flags, the values `response_flag_filter.flags` accepts. */
export const RESPONSE_FLAGS: readonly string[] = Object.keys(RESPONSE_FLAG_NAMES);

type Compile = (
  v: Json,
  at: string,
  errors: Errors,
  hm?: HeaderMatcherCompiler,
) => LogPredicate | null;

const OPS = {
  EQ: (a: number, b: number) => a === b,
  GE: (a, b) => a >= b,
  LE: (a, b) => a <= b,
} satisfies Record<string, (a: number, b: number) => boolean>;

function comparison(
  v: Json,
  at: string,
  errors: Errors,
  of: (r: LogRecord) => number,
): LogPredicate | null {
  if (!isObject(v) || !isObject(v.comparison)) {
    return fail(errors, `${at}.comparison`, "comparison is required"), null;
  }
  const c = v.comparison;
  const op = c.op ?? "EQ";
  if (typeof op !== "string" || !(op in OPS)) {
    return fail(errors, `${at}.comparison.op`, `op must be one of ${Object.keys(OPS).join(", ")}`),
      null;
  }
  const val = c.value;
  if (!isObject(val)) return fail(errors, `${at}.comparison.value`, "value is required"), null;
  if (typeof val.runtime_key !== "string" || val.runtime_key === "") {
    return fail(errors, `${at}.comparison.value.runtime_key`, "runtime_key is required"), null;
  }
  const d = val.default_value ?? 0;
  if (typeof d !== "number" || !Number.isInteger(d) || d < 0 || d > 4294967295) {
    return fail(errors, `${at}.comparison.value.default_value`, "must be an integer 0..4294967295"),
      null;
  }
  const test = OPS[op as keyof typeof OPS];
  const key = val.runtime_key;
  return (r, rt) => test(of(r), runtimeUint(rt, key, d));
}

function emptyObject(v: Json, at: string, errors: Errors): boolean {
  if (!isObject(v)) return fail(errors, at, "must be an object"), false;
  return true;
}

function runtimeFilter(v: Json, at: string, errors: Errors): LogPredicate | null {
  if (!isObject(v)) return fail(errors, at, "must be an object"), null;
  if (typeof v.runtime_key !== "string" || v.runtime_key === "") {
    return fail(errors, `${at}.runtime_key`, "runtime_key is required"), null;
  }
  const p = v.percent_sampled ?? { numerator: 0 };
  if (!isObject(p)) return fail(errors, `${at}.percent_sampled`, "must be an object"), null;
  const num = p.numerator ?? 0;
  const den = p.denominator ?? "HUNDRED";
  if (typeof num !== "number" || !Number.isInteger(num) || num < 0) {
    return fail(errors, `${at}.percent_sampled.numerator`, "must be a non-negative integer"), null;
  }
  if (typeof den !== "string" || !(den in DENOMINATORS)) {
    return fail(
      errors,
      `${at}.percent_sampled.denominator`,
      `must be one of ${Object.keys(DENOMINATORS).join(", ")}`,
    ),
      null;
  }
  const mod = DENOMINATORS[den as keyof typeof DENOMINATORS];
  const independent = v.use_independent_randomness === true;
  const fraction = { numerator: num, denominator: mod, key: v.runtime_key };
  return (r, rt) => {
    // As Envoy: the request id decides (so every logger samples the same requests), unless asked
    // for independent randomness or the request has no usable id.
    const id = independent ? null : r.req?.("x-request-id") ?? null;
    const fromId = id !== null && /^[0-9a-fA-F]{8}/.test(id) ? parseInt(id.slice(0, 8), 16) : NaN;
    return runtimeFractionEnabled(fraction, rt, Number.isNaN(fromId) ? undefined : fromId % mod);
  };
}

function several(kind: "and" | "or"): Compile {
  return (v, at, errors, hm) => {
    if (!isObject(v) || !Array.isArray(v.filters) || v.filters.length < 2) {
      return fail(errors, `${at}.filters`, "needs at least two filters"), null;
    }
    const fs = v.filters.map((f, i) => parseAccessLogFilter(f, `${at}.filters[${i}]`, errors, hm));
    if (fs.some((f) => f === null)) return null;
    const ps = fs as LogPredicate[];
    return kind === "and"
      ? (r, rt) => ps.every((p) => p(r, rt))
      : (r, rt) => ps.some((p) => p(r, rt));
  };
}

function refuse(what: string): Compile {
  return (_v, at, errors) => (fail(errors, at, `${what} is not supported by this build`), null);
}

/** One compiler per kind of `AccessLogFilter`. */
const KINDS = {
  status_code_filter: (v, at, e) => comparison(v, at, e, (r) => r.status),
  duration_filter: (v, at, e) => comparison(v, at, e, (r) => Math.floor(r.durationMs)),
  not_health_check_filter: (v, at, e) =>
    emptyObject(v, at, e) ? (r) => r.healthCheck !== true : null,
  // Tracing is not implemented, so no request is traceable (as in Envoy without a tracer).
  traceable_filter: (v, at, e) => emptyObject(v, at, e) ? () => false : null,
  runtime_filter: runtimeFilter,
  and_filter: several("and"),
  or_filter: several("or"),
  header_filter: (v, at, e, hm) => {
    if (!isObject(v)) return fail(e, at, "must be an object"), null;
    if (hm === undefined) return fail(e, at, "header_filter is not supported here"), null;
    const m = hm(v.header, `${at}.header`, e);
    if (m === null) return null;
    return (r) => m.test(r.req === null ? null : r.req(m.name)) !== m.invert;
  },
  response_flag_filter: (v, at, e) => {
    if (!isObject(v)) return fail(e, at, "must be an object"), null;
    const flags = v.flags ?? [];
    if (!Array.isArray(flags)) return fail(e, `${at}.flags`, "must be a list"), null;
    const known = new Set<string>(RESPONSE_FLAGS);
    for (const [i, f] of flags.entries()) {
      if (typeof f !== "string" || !known.has(f)) {
        return fail(e, `${at}.flags[${i}]`, `unknown response flag ${JSON.stringify(f)}`), null;
      }
    }
    const want = new Set(flags as string[]);
    return want.size === 0 ? (r) => r.flags.length > 0 : (r) => r.flags.some((f) => want.has(f));
  },
  grpc_status_filter: (v, at, e) => parseGrpcStatusFilter(v, at, e),
  metadata_filter: (v, at, e) => parseMetadataFilter(v, at, e),
  log_type_filter: refuse("log_type_filter"),
  extension_filter: refuse("extension_filter"),
} satisfies Record<string, Compile>;

/** The kinds of filter, as `AccessLogFilter` names them. */
export type AccessLogFilterKind = keyof typeof KINDS;

/** Compiles one `AccessLogFilter` found at `at`; errors name the field path. */
export function parseAccessLogFilter(
  v: Json,
  at: string,
  errors: Errors,
  headerMatcher?: HeaderMatcherCompiler,
): LogPredicate | null {
  if (!isObject(v)) return fail(errors, at, "filter must be an object"), null;
  const keys = Object.keys(v);
  if (keys.length !== 1) {
    return fail(errors, at, `exactly one of ${Object.keys(KINDS).join(", ")} must be set`), null;
  }
  const k = keys[0];
  const c = (KINDS as Record<string, Compile>)[k];
  if (c === undefined) {
    return fail(
      errors,
      `${at}.${k}`,
      `unknown access log filter ${k} (known: ${Object.keys(KINDS).join(", ")})`,
    ),
      null;
  }
  return c(v[k], `${at}.${k}`, errors, headerMatcher);
}
