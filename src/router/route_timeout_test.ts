import assert from "node:assert/strict";
import { HeaderMap } from "../http/header_map.ts";
import { finalTimeout } from "./route_timeout.ts";

const route = { timeoutMs: 15000, maxGrpcTimeoutMs: null, grpcTimeoutOffsetMs: null };

/** The same fields as a proxy HeaderMap and as Fetch Headers. */
function both(fields: [string, string][]): [HeaderMap, Headers] {
  return [new HeaderMap(fields), new Headers(fields)];
}

Deno.test("router timeout headers: a HeaderMap and Fetch Headers with the same fields give the same timeouts and keep the same fields", () => {
  const cases: [string, string][][] = [
    [["accept", "*/*"]],
    [["x-forwarded-proto", "http"], ["x-request-id", "1"]],
    [["x-envoy-upstream-rq-timeout-ms", "3000"], ["x-proxy-upstream-rq-per-try-timeout-ms", "500"]],
    [["x-proxy-upstream-rq-timeout-alt-response", ""], ["accept", "*/*"]],
    [["x-envoy-expected-rq-timeout-ms", "700"], ["x-envoy-upstream-rq-timeout-ms", "9"]],
    [["x-proxy-upstream-rq-per-try-timeout-ms", "20000"]],
  ];
  for (const fields of cases) {
    for (const expected of [false, true]) {
      const [map, fetch] = both(fields);
      const a = finalTimeout(route, 2000, map, expected);
      const b = finalTimeout(route, 2000, fetch, expected);
      assert.deepEqual(a, b, JSON.stringify(fields));
      assert.deepEqual([...map.keys()].sort(), [...fetch.keys()].sort(), JSON.stringify(fields));
    }
  }
  // Without any control header the route's own timeouts stand.
  const [plain] = both([["accept", "*/*"]]);
  assert.deepEqual(finalTimeout(route, 2000, plain, true), {
    globalMs: 15000,
    perTryMs: 2000,
    grpcTimeout: false,
    timeoutStatus: 504,
  });
  // A per-try timeout not shorter than the global one is dropped on either path.
  const [long] = both([["accept", "*/*"]]);
  assert.equal(finalTimeout(route, 20000, long, false).perTryMs, 0);
});
