import assert from "node:assert/strict";
import { NO_RETRY_POLICY, parseRetryPolicy, type RetryPolicy } from "./retry_policy.ts";
import { RetryState } from "./retry_state.ts";

function state(
  p: Partial<RetryPolicy>,
  h: HeadersInit = {},
  random = () => 0.999,
  method = "POST",
) {
  const counts: Record<string, number> = {};
  let open = 0;
  const breaker = { canCreate: () => open < 3, inc: () => open++, dec: () => open-- };
  const s = RetryState.create(
    { ...NO_RETRY_POLICY, ...p },
    { path: "/", method, authority: "a", scheme: "http", headers: new Headers(h) },
    breaker,
    (n) => ({ inc: () => counts[n] = (counts[n] ?? 0) + 1 }),
    random,
  );
  return { s, counts, open: () => open };
}

Deno.test("route retry_policy retry_back_off: full jitter below an interval that doubles up to max_interval", () => {
  const { s } = state({ retryOn: 1, baseIntervalMs: 25, maxIntervalMs: 250 });
  assert.deepEqual([1, 2, 3, 4, 5, 6].map(() => s!.nextBackOffMs()), [24, 49, 99, 199, 249, 249]);
  const low = state({ retryOn: 1 }, {}, () => 0).s!;
  assert.deepEqual([low.nextBackOffMs(), low.nextBackOffMs()], [0, 0]);
  assert.deepEqual(parseRetryPolicy({}, "r", [])!.maxIntervalMs, 250);
});

Deno.test("route retry_policy resets: overflow never, connect-failure only for connect, reset and 5xx for any, reset-before-request before the request", () => {
  const on = (v: string) => state({}, { "x-envoy-retry-on": v }).s!;
  assert.equal(on("5xx").wouldRetryFromReset("overflow", false), false);
  assert.equal(on("connect-failure").wouldRetryFromReset("connect", false), true);
  assert.equal(on("connect-failure").wouldRetryFromReset("reset", true), false);
  assert.equal(on("reset").wouldRetryFromReset("reset", true), true);
  assert.equal(on("gateway-error").wouldRetryFromReset("reset", true), true);
  assert.equal(on("reset-before-request").wouldRetryFromReset("connect", false), true);
  assert.equal(on("reset-before-request").wouldRetryFromReset("reset", true), false);
  assert.equal(on("refused-stream").wouldRetryFromReset("reset", true), false);
});

Deno.test("route retry_policy answers: envoy-ratelimited, gRPC status conditions and x-envoy-retry-grpc-on", () => {
  const rl = new Headers({ "x-envoy-ratelimited": "true" });
  assert.equal(state({}, { "x-envoy-retry-on": "5xx" }).s!.wouldRetryFromHeaders(503, rl), false);
  assert.equal(
    state({}, { "x-envoy-retry-on": "envoy-ratelimited" }).s!.wouldRetryFromHeaders(429, rl),
    true,
  );
  const grpc = new Headers({ "grpc-status": "14" });
  assert.equal(
    state({}, { "x-envoy-retry-grpc-on": "unavailable" }).s!.wouldRetryFromHeaders(200, grpc),
    true,
  );
  assert.equal(
    state({}, { "x-envoy-retry-grpc-on": "cancelled" }).s!.wouldRetryFromHeaders(200, grpc),
    false,
  );
  // A policy's retry_on may list gRPC conditions; the HTTP header may not.
  assert.equal(
    state(parseRetryPolicy({ retry_on: "unavailable" }, "r", [])!).s!.wouldRetryFromHeaders(
      200,
      grpc,
    ),
    true,
  );
  assert.equal(state({}, { "x-envoy-retry-on": "bogus" }).s, null);
});

Deno.test("route retry_policy retriable_request_headers: a request that matches none gets no retries", () => {
  const p = parseRetryPolicy(
    { retry_on: "5xx", retriable_request_headers: [{ name: ":method", exact_match: "GET" }] },
    "r",
    [],
  )!;
  assert.equal(state(p, { "x-a": "1" }).s, null);
  assert.notEqual(state(p, {}, undefined, "GET").s, null);
  assert.equal(state({}, { "x-envoy-retry-on": "unavailable" }).s, null);
});

Deno.test("route retry_policy shouldRetry: counts, the limit and the breaker's unit", () => {
  const { s, counts, open } = state({ retryOn: 1, numRetries: 1 });
  assert.equal(s!.shouldRetry(true), "yes");
  assert.equal(open(), 1);
  assert.equal(s!.shouldRetry(true), "limit");
  assert.equal(open(), 0);
  assert.deepEqual(counts, {
    upstream_rq_retry: 1,
    upstream_rq_retry_backoff_exponential: 1,
    upstream_rq_retry_limit_exceeded: 1,
  });
});

Deno.test("route retry_policy errors name their path: unknown condition, refused fields, bad durations and back-off, unknown predicate", () => {
  const errors: { path: string; message: string; rule: string }[] = [];
  parseRetryPolicy(
    {
      retry_on: "5xx,sometimes",
      retry_priority: { name: "envoy.retry_priorities.previous_priorities" },
      per_try_idle_timeout: "soon",
      retry_back_off: { base_interval: "1s", max_interval: "0.5s" },
      retry_host_predicate: [{ name: "envoy.retry_host_predicates.omit_canary_hosts" }],
      retriable_status_codes: [42],
    },
    "r",
    errors,
  );
  const paths = errors.map((e) => e.path).sort();
  assert.deepEqual(paths, [
    "r.per_try_idle_timeout",
    "r.retriable_status_codes[0]",
    "r.retry_back_off.max_interval",
    "r.retry_host_predicate[0].name",
    "r.retry_on",
    "r.retry_priority",
  ]);
  assert.match(
    errors.find((e) => e.path === "r.retry_on")!.message,
    /unknown retry condition "sometimes"/,
  );
  assert.match(
    errors.find((e) => e.path === "r.retry_priority")!.message,
    /not supported by this build/,
  );
});
