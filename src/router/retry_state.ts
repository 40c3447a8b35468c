/**
 * The retry state of one request, as Envoy's `RetryStateImpl`: the route's policy merged with the
 * request's `x-envoy-retry-on`, `x-envoy-retry-grpc-on`, `x-envoy-max-retries`,
 * `x-envoy-retriable-status-codes` and `x-envoy-retriable-header-names` headers (also spelled
 * `x-proxy-`), the decision to retry after an answer or a reset, the cluster's `max_retries`
 * circuit breaker, fully jittered exponential back-off, and the `upstream_rq_retry*` counters.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { NO_RETRY_POLICY } from "./retry_policy.ts";
 * import { RetryState } from "./retry_state.ts";
 * const headers = new Headers({ "x-envoy-retry-on": "5xx" });
 * const req = { path: "/", method: "GET", authority: "a", scheme: "http", headers };
 * const s = RetryState.create(NO_RETRY_POLICY, req, { canCreate: () => true, inc() {}, dec() {} },
 *   () => ({ inc() {} }))!;
 * assert.equal(s.wouldRetryFromHeaders(503, new Headers()), true);
 * ```
 * @module
 */
import { type HeaderMatcher, matchHeaders } from "./header_matcher.ts";
import type { MatchInput } from "../http/downstream_request.ts";
import { parseRetryOn, RETRY_GRPC_ON, RETRY_ON, type RetryPolicy } from "./retry_policy.ts";

/** The `max_retries` circuit breaker of the request's priority. */
export interface RetryBreaker {
  canCreate(): boolean;
  inc(): void;
  dec(): void;
}

/** A counter of the cluster (`upstream_rq_retry`, ...). */
export interface RetryCounter {
  inc(): void;
}

/** Why an attempt ended without an answer. */
export type ResetKind = "connect" | "reset" | "overflow";

/** The result of {@linkcode RetryState.shouldRetry}. */
export type RetryStatus = "yes" | "no" | "limit" | "overflow";

/** Reads a request header in the `x-envoy-` or the `x-proxy-` spelling. */
export function proxyHeader(h: Headers, suffix: string): string | null {
  return h.get(`x-envoy-${suffix}`) ?? h.get(`x-proxy-${suffix}`);
}

/** The request headers a retry state consumes; they are not forwarded. */
export const CONSUMED_HEADERS: ReadonlySet<string> = new Set(
  ["retry-on", "retry-grpc-on", "max-retries", "upstream-rq-per-try-timeout-ms"].flatMap((s) => [
    `x-envoy-${s}`,
    `x-proxy-${s}`,
  ]),
);

const GATEWAY = new Set([502, 503, 504]);

/** One request's retries. */
export class RetryState {
  #retryOn: number;
  #remaining: number;
  readonly #codes: number[];
  readonly #headers: HeaderMatcher[];
  #nextInterval: number;
  #armed = false;

  private constructor(
    readonly policy: RetryPolicy,
    retryOn: number,
    remaining: number,
    codes: number[],
    headers: HeaderMatcher[],
    readonly breaker: RetryBreaker,
    readonly counter: (name: string) => RetryCounter,
    readonly random: () => number,
  ) {
    this.#retryOn = retryOn;
    this.#remaining = remaining;
    this.#codes = codes;
    this.#headers = headers;
    this.#nextInterval = policy.baseIntervalMs;
  }

  /**
   * The state for request `req` under `policy`, or null when nothing asks for retries.
   */
  static create(
    policy: RetryPolicy,
    req: MatchInput,
    breaker: RetryBreaker,
    counter: (name: string) => RetryCounter,
    random: () => number = Math.random,
  ): RetryState | null {
    const h = req.headers;
    let on = policy.retryOn;
    const ro = proxyHeader(h, "retry-on");
    if (ro !== null) on |= parseRetryOn(ro, "http");
    const go = proxyHeader(h, "retry-grpc-on");
    if (go !== null) on |= parseRetryOn(go, "grpc");
    if (policy.retriableRequestHeaders.length > 0) {
      if (!policy.retriableRequestHeaders.some((m) => matchHeaders([m], req))) on = 0;
    }
    if (on === 0) return null;
    let remaining = policy.numRetries;
    const mr = proxyHeader(h, "max-retries");
    if (mr !== null && /^\d+$/.test(mr.trim())) remaining = Number(mr.trim());
    const codes = [...policy.retriableStatusCodes];
    const sc = proxyHeader(h, "retriable-status-codes");
    if (sc !== null) {
      for (const c of sc.split(",")) if (/^\d+$/.test(c.trim())) codes.push(Number(c.trim()));
    }
    const headers = [...policy.retriableHeaders];
    const hn = proxyHeader(h, "retriable-header-names");
    if (hn !== null) {
      for (const n of hn.split(",")) {
        const name = n.trim().toLowerCase();
        if (name !== "") headers.push({ name, test: (v) => v !== null, invert: false });
      }
    }
    return new RetryState(policy, on, remaining, codes, headers, breaker, counter, random);
  }

  /** True when the condition bit `bit` is on. */
  #on(bit: number): boolean {
    return (this.#retryOn & bit) !== 0;
  }

  /** Whether an answer with `status` and `headers` would be retried (Envoy's order). */
  wouldRetryFromHeaders(status: number, headers: Headers): boolean {
    if (headers.has("x-envoy-ratelimited") || headers.has("x-proxy-ratelimited")) {
      return this.#on(RETRY_ON["envoy-ratelimited"]);
    }
    if (this.#on(RETRY_ON["5xx"]) && status >= 500 && status <= 599) return true;
    if (this.#on(RETRY_ON["gateway-error"]) && GATEWAY.has(status)) return true;
    if (this.#on(RETRY_ON["retriable-4xx"]) && status === 409) return true;
    if (this.#on(RETRY_ON["retriable-status-codes"]) && this.#codes.includes(status)) return true;
    if (this.#on(RETRY_ON["retriable-headers"])) {
      const input = { path: "", method: "", authority: "", scheme: "", headers };
      for (const m of this.#headers) {
        const hit = m.name === ":status"
          ? m.test(String(status)) !== m.invert
          : matchHeaders([m], input);
        if (hit) return true;
      }
    }
    const grpc = headers.get("grpc-status");
    if (grpc !== null && /^\d+$/.test(grpc)) {
      const code = Number(grpc);
      for (const [bit, st] of Object.values(RETRY_GRPC_ON)) {
        if (st === code && this.#on(bit)) return true;
      }
    }
    return false;
  }

  /**
   * Whether an attempt that ended with `kind` would be retried; `started` is false when the
   * request never reached the upstream (`reset-before-request`).
   */
  wouldRetryFromReset(kind: ResetKind, started: boolean): boolean {
    if (kind === "overflow") return false;
    if (this.#on(RETRY_ON.reset)) return true;
    if (this.#on(RETRY_ON["reset-before-request"]) && !started) return true;
    if (this.#on(RETRY_ON["5xx"] | RETRY_ON["gateway-error"])) return true;
    return kind === "connect" && this.#on(RETRY_ON["connect-failure"]);
  }

  /**
   * Decides after an attempt (`would`: its answer or reset asks for a retry): counts a success
   * after retries, the limit, the breaker's overflow, and takes a retry from the breaker.
   */
  shouldRetry(would: boolean): RetryStatus {
    if (this.#armed && !would) this.counter("upstream_rq_retry_success").inc();
    this.#release();
    if (!would) return "no";
    if (this.#remaining === 0) {
      this.counter("upstream_rq_retry_limit_exceeded").inc();
      return "limit";
    }
    this.#remaining--;
    if (!this.breaker.canCreate()) {
      this.counter("upstream_rq_retry_overflow").inc();
      return "overflow";
    }
    this.#armed = true;
    this.breaker.inc();
    this.counter("upstream_rq_retry").inc();
    this.counter("upstream_rq_retry_backoff_exponential").inc();
    return "yes";
  }

  /** The next back-off: a uniform draw below the current interval, which then doubles to the max. */
  nextBackOffMs(): number {
    const b = this.#nextInterval;
    const max = this.policy.maxIntervalMs;
    this.#nextInterval = b < max / 2 ? b * 2 : max;
    return Math.min(Math.floor(this.random() * b), max);
  }

  #release(): void {
    if (this.#armed) {
      this.breaker.dec();
      this.#armed = false;
    }
  }

  /** Ends the request: a retry still in flight gives its unit back. */
  finish(): void {
    this.#release();
  }
}
