/**
 * A route's or virtual host's `retry_policy` (`route.RetryPolicy`): the `retry_on` conditions as a
 * bit set (Envoy's names, HTTP and gRPC), `num_retries` (default 1), `per_try_timeout`,
 * `retry_back_off` (base 25 ms, max ten times the base), `retriable_status_codes`,
 * `retriable_headers`, `retriable_request_headers`, the `previous_hosts` host predicate and
 * `host_selection_retry_max_attempts`. Fields this build does not act on are refused with
 * their path.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseRetryPolicy, RETRY_ON } from "./retry_policy.ts";
 * const p = parseRetryPolicy({ retry_on: "5xx,reset", num_retries: 3 }, "r", [])!;
 * assert.equal(p.numRetries, 3);
 * assert.equal((p.retryOn & RETRY_ON["5xx"]) !== 0, true);
 * ```
 * @module
 */
import type { Json } from "../config/bootstrap_types.ts";
import { durationMs, type Errors, fail, isObject, unwrap } from "../config/config_values.ts";
import { type HeaderMatcher, parseHeaderMatchers } from "./header_matcher.ts";

/** Envoy's `x-envoy-retry-on` conditions, one bit each. */
export const RETRY_ON = {
  "5xx": 1 << 0,
  "gateway-error": 1 << 1,
  "connect-failure": 1 << 2,
  "retriable-4xx": 1 << 3,
  "refused-stream": 1 << 4,
  "retriable-status-codes": 1 << 5,
  "retriable-headers": 1 << 6,
  "reset": 1 << 7,
  "reset-before-request": 1 << 8,
  "envoy-ratelimited": 1 << 9,
  "http3-post-connect-failure": 1 << 10,
} as const;

/** Envoy's `x-envoy-retry-grpc-on` conditions (also accepted in `retry_on`) and their status. */
export const RETRY_GRPC_ON = {
  "cancelled": [1 << 16, 1],
  "deadline-exceeded": [1 << 17, 4],
  "resource-exhausted": [1 << 18, 8],
  "internal": [1 << 19, 13],
  "unavailable": [1 << 20, 14],
} as const satisfies Record<string, readonly [number, number]>;

/** The default `retry_back_off.base_interval` (Envoy's runtime `upstream.base_retry_backoff_ms`). */
export const DEFAULT_BASE_INTERVAL_MS = 25;

/** A compiled retry policy. */
export interface RetryPolicy {
  /** Bits of {@linkcode RETRY_ON} and {@linkcode RETRY_GRPC_ON}. */
  retryOn: number;
  numRetries: number;
  /** 0: no per-try timeout. */
  perTryTimeoutMs: number;
  /** `per_try_idle_timeout`; 0: none (`per_try_idle.ts`). */
  perTryIdleTimeoutMs: number;
  baseIntervalMs: number;
  maxIntervalMs: number;
  retriableStatusCodes: readonly number[];
  retriableHeaders: readonly HeaderMatcher[];
  retriableRequestHeaders: readonly HeaderMatcher[];
  /** The `previous_hosts` predicate: a retry avoids hosts already tried. */
  previousHosts: boolean;
  /** `host_selection_retry_max_attempts` (default 1). */
  hostSelectionMaxAttempts: number;
}

/**
 * Parses a comma-separated list of conditions of `kinds` (`x-envoy-retry-on` has the HTTP ones,
 * `x-envoy-retry-grpc-on` the gRPC ones, `retry_on` both); `unknown` hears the others (request
 * headers ignore them, as Envoy).
 */
export function parseRetryOn(
  v: string,
  kinds: "http" | "grpc" | "both",
  unknown?: (token: string) => void,
): number {
  let bits = 0;
  for (const raw of v.split(",")) {
    const t = raw.trim();
    if (t === "") continue;
    const http = kinds === "grpc" ? undefined : RETRY_ON[t as keyof typeof RETRY_ON];
    const grpc = kinds === "http" ? undefined : RETRY_GRPC_ON[t as keyof typeof RETRY_GRPC_ON];
    if (http !== undefined) bits |= http;
    else if (grpc !== undefined) bits |= grpc[0];
    else unknown?.(t);
  }
  return bits;
}

const KNOWN = new Set([
  "retry_on",
  "num_retries",
  "per_try_timeout",
  "per_try_idle_timeout",
  "retry_back_off",
  "retriable_status_codes",
  "retriable_headers",
  "retriable_request_headers",
  "retry_host_predicate",
  "host_selection_retry_max_attempts",
]);

const REFUSED: Record<string, string> = {
  retry_priority: "retry priority plugins (previous_priorities) are not implemented",
  retry_options_predicates: "retry options predicates are not implemented",
  rate_limited_retry_back_off: "rate-limited retry back-off (reset headers) is not implemented",
};

function count(v: Json | undefined, path: string, errors: Errors, dflt: number): number {
  if (v === undefined) return dflt;
  const n = Number(unwrap(v));
  if (!Number.isInteger(n) || n < 0 || n > 4294967295) {
    fail(errors, path, "must be an integer from 0 to 4294967295");
    return dflt;
  }
  return n;
}

function backOff(v: Json | undefined, path: string, errors: Errors): [number, number] {
  if (v === undefined) return [DEFAULT_BASE_INTERVAL_MS, DEFAULT_BASE_INTERVAL_MS * 10];
  if (!isObject(v)) {
    fail(errors, path, "retry_back_off must be an object");
    return [DEFAULT_BASE_INTERVAL_MS, DEFAULT_BASE_INTERVAL_MS * 10];
  }
  for (const k of Object.keys(v)) {
    if (k !== "base_interval" && k !== "max_interval") {
      fail(errors, `${path}.${k}`, `unknown field ${k} of RetryBackOff`);
    }
  }
  let base = DEFAULT_BASE_INTERVAL_MS;
  if (v.base_interval === undefined) {
    fail(errors, `${path}.base_interval`, "base_interval is required");
  } else {
    const b = durationMs(v.base_interval, `${path}.base_interval`, errors);
    if (b !== null && b < 1) fail(errors, `${path}.base_interval`, "must be at least 1ms");
    else if (b !== null) base = Math.floor(b);
  }
  let max = base * 10;
  if (v.max_interval !== undefined) {
    const m = durationMs(v.max_interval, `${path}.max_interval`, errors);
    if (m !== null && m < 1) fail(errors, `${path}.max_interval`, "must be at least 1ms");
    else if (m !== null && m < base) {
      fail(
        errors,
        `${path}.max_interval`,
        "max_interval must be greater than or equal to the base_interval",
      );
    } else if (m !== null) max = Math.floor(m);
  }
  return [base, max];
}

function hostPredicates(v: Json | undefined, path: string, errors: Errors): boolean {
  if (v === undefined) return false;
  if (!Array.isArray(v)) {
    fail(errors, path, "retry_host_predicate must be a list");
    return false;
  }
  let prev = false;
  v.forEach((p, i) => {
    const name = isObject(p) ? p.name : undefined;
    if (
      name === "envoy.retry_host_predicates.previous_hosts" ||
      name === "proxy.retry_host_predicates.previous_hosts"
    ) prev = true;
    else {
      fail(
        errors,
        `${path}[${i}].name`,
        `retry host predicate ${
          JSON.stringify(name)
        } is not supported (supported: envoy.retry_host_predicates.previous_hosts)`,
      );
    }
  });
  return prev;
}

/** Parses `retry_policy` at `path`; null when it is not an object. */
export function parseRetryPolicy(
  v: Json | undefined,
  path: string,
  errors: Errors,
): RetryPolicy | null {
  if (!isObject(v)) {
    fail(errors, path, "retry_policy must be an object");
    return null;
  }
  for (const k of Object.keys(v)) {
    if (REFUSED[k] !== undefined) {
      fail(errors, `${path}.${k}`, `${k} is not supported by this build (${REFUSED[k]})`);
    } else if (!KNOWN.has(k)) fail(errors, `${path}.${k}`, `unknown field ${k} of RetryPolicy`);
  }
  let retryOn = 0;
  if (v.retry_on !== undefined) {
    if (typeof v.retry_on !== "string") {
      fail(errors, `${path}.retry_on`, "retry_on must be a string");
    } else {
      retryOn = parseRetryOn(v.retry_on, "both", (t) =>
        fail(
          errors,
          `${path}.retry_on`,
          `unknown retry condition "${t}" (known: ${
            [...Object.keys(RETRY_ON), ...Object.keys(RETRY_GRPC_ON)].join(", ")
          })`,
        ));
    }
  }
  const codes: number[] = [];
  if (v.retriable_status_codes !== undefined) {
    if (!Array.isArray(v.retriable_status_codes)) {
      fail(errors, `${path}.retriable_status_codes`, "must be a list of status codes");
    } else {
      v.retriable_status_codes.forEach((c, i) => {
        const n = Number(c);
        if (!Number.isInteger(n) || n < 100 || n > 599) {
          fail(
            errors,
            `${path}.retriable_status_codes[${i}]`,
            "must be a status code from 100 to 599",
          );
        } else codes.push(n);
      });
    }
  }
  let perTry = 0;
  if (v.per_try_timeout !== undefined) {
    perTry = durationMs(v.per_try_timeout, `${path}.per_try_timeout`, errors) ?? 0;
  }
  let perTryIdle = 0;
  if (v.per_try_idle_timeout !== undefined) {
    perTryIdle = durationMs(v.per_try_idle_timeout, `${path}.per_try_idle_timeout`, errors) ?? 0;
  }
  const [base, max] = backOff(v.retry_back_off, `${path}.retry_back_off`, errors);
  const attempts = count(
    v.host_selection_retry_max_attempts,
    `${path}.host_selection_retry_max_attempts`,
    errors,
    1,
  );
  return {
    retryOn,
    numRetries: count(v.num_retries, `${path}.num_retries`, errors, 1),
    perTryTimeoutMs: perTry,
    perTryIdleTimeoutMs: perTryIdle,
    baseIntervalMs: base,
    maxIntervalMs: max,
    retriableStatusCodes: codes,
    retriableHeaders: parseHeaderMatchers(v.retriable_headers, `${path}.retriable_headers`, errors),
    retriableRequestHeaders: parseHeaderMatchers(
      v.retriable_request_headers,
      `${path}.retriable_request_headers`,
      errors,
    ),
    previousHosts: hostPredicates(v.retry_host_predicate, `${path}.retry_host_predicate`, errors),
    hostSelectionMaxAttempts: attempts === 0 ? 1 : attempts,
  };
}

/** The policy a request without a configured one uses (its headers may still ask for retries). */
export const NO_RETRY_POLICY: RetryPolicy = {
  retryOn: 0,
  numRetries: 1,
  perTryTimeoutMs: 0,
  perTryIdleTimeoutMs: 0,
  baseIntervalMs: DEFAULT_BASE_INTERVAL_MS,
  maxIntervalMs: DEFAULT_BASE_INTERVAL_MS * 10,
  retriableStatusCodes: [],
  retriableHeaders: [],
  retriableRequestHeaders: [],
  previousHosts: false,
  hostSelectionMaxAttempts: 1,
};
