/**
 * The local rate limit filter (`envoy.filters.http.local_ratelimit`, `LocalRateLimit`): a token
 * bucket (`max_tokens`, `tokens_per_fill`, `fill_interval`; it starts full) shared by every
 * connection of the listener, or one per route when the route's `typed_per_filter_config` has
 * its own. As in Envoy, `filter_enabled` and `filter_enforced` default to 0%: a request is
 * counted only when enabled, and refused only when enforced. A refused request is answered
 * `status` (429 by default) with the body `local_rate_limited`, the `response_headers_to_add`,
 * and response flag `RL`; a limited request that is not enforced gets the
 * `request_headers_to_add_when_not_enforced` and goes on. `enable_x_ratelimit_headers:
 * DRAFT_VERSION_03` adds `x-ratelimit-limit`, `-remaining` and `-reset`. A gRPC request gets the
 * refusal as a gRPC reply (`grpc_local_reply.ts`), with RESOURCE_EXHAUSTED when
 * `rate_limited_as_resource_exhausted` is set.
 *
 * Stats `<stat_prefix>.http_local_rate_limit.enabled`, `enforced`, `rate_limited`, `ok`.
 * Descriptors, `stage` and the cluster-wide limits are refused.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { TokenBucket } from "./local_ratelimit_filter.ts";
 * const b = new TokenBucket(2, 1, 1000, 0);
 * assert.deepEqual([b.take(0), b.take(0), b.take(0), b.take(1000)], [true, true, false, true]);
 * ```
 * @module
 */
import type { Json } from "../config/bootstrap_types.ts";
import { durationMs, type Errors, fail, isObject, unwrap } from "../config/config_values.ts";
import { localReply } from "../http/local_reply.ts";
import type { Scope } from "../stats/types.ts";
import { fixedFraction, parseRuntimeFraction, type RuntimeFraction } from "./fractional_percent.ts";
import { runtimeFractionEnabled } from "../config/runtime_lookup.ts";
import { anyBody, type HttpFilterFactory, onlyFields } from "./http_filter.ts";

/** A token bucket refilled `perFill` tokens every `intervalMs`, up to `max`. */
export class TokenBucket {
  #tokens: number;
  #last: number;

  /** A full bucket; `now` is the clock reading (ms) it starts at. */
  constructor(
    readonly max: number,
    readonly perFill: number,
    readonly intervalMs: number,
    now: number,
  ) {
    this.#tokens = max;
    this.#last = now;
  }

  #refill(now: number) {
    const fills = Math.floor((now - this.#last) / this.intervalMs);
    if (fills > 0) {
      this.#tokens = Math.min(this.max, this.#tokens + fills * this.perFill);
      this.#last += fills * this.intervalMs;
    }
  }

  /** Takes one token at time `now`; false when none is left. */
  take(now: number): boolean {
    this.#refill(now);
    if (this.#tokens < 1) return false;
    this.#tokens--;
    return true;
  }

  /** Tokens left at `now`. */
  remaining(now: number): number {
    this.#refill(now);
    return this.#tokens;
  }

  /** Milliseconds from `now` to the next fill. */
  untilFill(now: number): number {
    this.#refill(now);
    return this.intervalMs - (now - this.#last);
  }
}

type HeaderList = [string, string, boolean][];

/** A compiled `LocalRateLimit`. */
export interface LocalRateLimitConfig {
  statPrefix: string;
  status: number;
  bucket: TokenBucket | null;
  /** `filter_enabled` (its runtime key read per request). */
  enabled: RuntimeFraction;
  /** `filter_enforced`. */
  enforced: RuntimeFraction;
  responseHeaders: HeaderList;
  requestHeadersWhenNotEnforced: HeaderList;
  xRateLimitHeaders: boolean;
  /**
   * `rate_limited_as_resource_exhausted`: a gRPC request is told RESOURCE_EXHAUSTED (8) rather
   * than the status mapped from the HTTP one (429: UNAVAILABLE).
   */
  resourceExhausted?: boolean;
}

const FIELDS = [
  "stat_prefix",
  "status",
  "token_bucket",
  "filter_enabled",
  "filter_enforced",
  "request_headers_to_add_when_not_enforced",
  "response_headers_to_add",
  "local_rate_limit_per_downstream_connection",
  "enable_x_ratelimit_headers",
  "rate_limited_as_resource_exhausted",
];

function headerOptions(v: Json | undefined, at: string, errors: Errors): HeaderList {
  if (v === undefined) return [];
  if (!Array.isArray(v)) return fail(errors, at, "must be a list"), [];
  const out: HeaderList = [];
  v.forEach((o, i) => {
    const h = isObject(o) ? o.header : undefined;
    if (!isObject(h) || typeof h.key !== "string" || h.key === "") {
      return fail(errors, `${at}[${i}].header.key`, "a header key is required");
    }
    const value = h.value ?? "";
    if (typeof value !== "string") {
      return fail(errors, `${at}[${i}].header.value`, "must be a string");
    }
    const append = isObject(o) ? unwrap(o.append) : undefined;
    const action = isObject(o) ? o.append_action : undefined;
    out.push([
      h.key.toLowerCase(),
      value,
      append !== false && action !== "OVERWRITE_IF_EXISTS_OR_ADD",
    ]);
  });
  return out;
}

function uint(v: Json | undefined, at: string, errors: Errors, dflt: number, min = 0): number {
  const x = unwrap(v);
  if (x === undefined) return dflt;
  if (typeof x !== "number" || !Number.isInteger(x) || x < min) {
    return fail(errors, at, `must be an integer >= ${min}`), dflt;
  }
  return x;
}

/** Compiles a `LocalRateLimit` found at `at`. */
export function parseLocalRateLimit(
  v: Json,
  at: string,
  errors: Errors,
): LocalRateLimitConfig | null {
  const c = anyBody(v);
  if (c === null) return fail(errors, at, "must be an object"), null;
  const n = errors.length;
  onlyFields(c, FIELDS, at, errors);
  if (typeof c.stat_prefix !== "string" || c.stat_prefix === "") {
    fail(errors, `${at}.stat_prefix`, "stat_prefix is required");
  }
  let status = 429;
  if (c.status !== undefined) {
    const code = isObject(c.status) ? c.status.code : undefined;
    if (typeof code !== "number" || !Number.isInteger(code) || code < 100 || code > 599) {
      fail(errors, `${at}.status.code`, "must be an HTTP status code");
    } else status = code;
  }
  let bucket: TokenBucket | null = null;
  if (c.token_bucket !== undefined) {
    const tb = c.token_bucket;
    const tAt = `${at}.token_bucket`;
    if (!isObject(tb)) fail(errors, tAt, "must be an object");
    else {
      onlyFields(tb, ["max_tokens", "tokens_per_fill", "fill_interval"], tAt, errors);
      const max = uint(tb.max_tokens, `${tAt}.max_tokens`, errors, 0, 1);
      if (tb.max_tokens === undefined) fail(errors, `${tAt}.max_tokens`, "max_tokens is required");
      const per = uint(tb.tokens_per_fill, `${tAt}.tokens_per_fill`, errors, 1, 1);
      const iv = tb.fill_interval === undefined
        ? (fail(errors, `${tAt}.fill_interval`, "fill_interval is required"), null)
        : durationMs(tb.fill_interval, `${tAt}.fill_interval`, errors);
      if (iv !== null && iv < 50) {
        fail(errors, `${tAt}.fill_interval`, "fill_interval must be at least 50ms");
      } else if (iv !== null) bucket = new TokenBucket(max, per, iv, performance.now());
    }
  }
  const perConn = unwrap(c.local_rate_limit_per_downstream_connection);
  if (perConn === true) {
    fail(
      errors,
      `${at}.local_rate_limit_per_downstream_connection`,
      "local_rate_limit_per_downstream_connection is not supported by this build (one bucket per listener)",
    );
  }
  const x = c.enable_x_ratelimit_headers ?? "OFF";
  if (x !== "OFF" && x !== "DRAFT_VERSION_03") {
    fail(errors, `${at}.enable_x_ratelimit_headers`, "must be OFF or DRAFT_VERSION_03");
  }
  const enabled = parseRuntimeFraction(c.filter_enabled, `${at}.filter_enabled`, errors, 0);
  const enforced = parseRuntimeFraction(c.filter_enforced, `${at}.filter_enforced`, errors, 0);
  const responseHeaders = headerOptions(
    c.response_headers_to_add,
    `${at}.response_headers_to_add`,
    errors,
  );
  const requestHeaders = headerOptions(
    c.request_headers_to_add_when_not_enforced,
    `${at}.request_headers_to_add_when_not_enforced`,
    errors,
  );
  const exhausted = unwrap(c.rate_limited_as_resource_exhausted);
  if (exhausted !== undefined && typeof exhausted !== "boolean") {
    fail(errors, `${at}.rate_limited_as_resource_exhausted`, "must be a bool");
  }
  if (errors.length > n) return null;
  return {
    resourceExhausted: exhausted === true,
    statPrefix: c.stat_prefix as string,
    status,
    bucket,
    enabled: enabled ?? fixedFraction(0),
    enforced: enforced ?? fixedFraction(0),
    responseHeaders,
    requestHeadersWhenNotEnforced: requestHeaders,
    xRateLimitHeaders: x === "DRAFT_VERSION_03",
  };
}

interface Counters {
  enabled: { inc(): void };
  enforced: { inc(): void };
  rateLimited: { inc(): void };
  ok: { inc(): void };
}

function counters(root: Scope, c: LocalRateLimitConfig): Counters {
  const s = root.scope(c.statPrefix).scope("http_local_rate_limit");
  return {
    enabled: s.counter("enabled"),
    enforced: s.counter("enforced"),
    rateLimited: s.counter("rate_limited"),
    ok: s.counter("ok"),
  };
}

function apply(h: Headers, list: HeaderList) {
  for (const [k, v, append] of list) append ? h.append(k, v) : h.set(k, v);
}

const NAME = "proxy.filters.http.local_ratelimit";

/** The local rate limit filter. */
export const LOCAL_RATELIMIT: HttpFilterFactory<LocalRateLimitConfig> = {
  kind: "local_ratelimit",
  types: ["LocalRateLimit"],
  parse: parseLocalRateLimit,
  parsePerRoute: parseLocalRateLimit,
  create(base, deps) {
    const stats = new Map<LocalRateLimitConfig, Counters>();
    const statsOf = (c: LocalRateLimitConfig) => {
      let s = stats.get(c);
      if (s === undefined) stats.set(c, s = counters(deps.root, c));
      return s;
    };
    statsOf(base);
    return (ctx, next) => {
      const c = ctx.perRoute<LocalRateLimitConfig>(NAME) ?? base;
      const b = c.bucket;
      if (b === null || !runtimeFractionEnabled(c.enabled, deps.runtime)) return next();
      const s = statsOf(c);
      s.enabled.inc();
      const now = performance.now();
      const withHeaders = async (p: Promise<import("../http/proxy_response.ts").ProxyResponse>) => {
        const res = await p;
        if (c.xRateLimitHeaders) {
          res.headers.set("x-ratelimit-limit", String(b.max));
          res.headers.set("x-ratelimit-remaining", String(b.remaining(now)));
          res.headers.set("x-ratelimit-reset", String(Math.ceil(b.untilFill(now) / 1000)));
        }
        return res;
      };
      if (b.take(now)) {
        s.ok.inc();
        return withHeaders(next());
      }
      s.rateLimited.inc();
      if (!runtimeFractionEnabled(c.enforced, deps.runtime)) {
        apply(ctx.req.headers, c.requestHeadersWhenNotEnforced);
        return withHeaders(next());
      }
      s.enforced.inc();
      if (ctx.lg !== null) ctx.lg.details = "local_rate_limited";
      ctx.req.body?.cancel().catch(() => {});
      const res = localReply(c.status, "local_rate_limited", undefined, "RL");
      if (c.resourceExhausted) res.grpcStatus = 8;
      apply(res.headers, c.responseHeaders);
      return withHeaders(Promise.resolve(res));
    };
  },
};
