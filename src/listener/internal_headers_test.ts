import assert from "node:assert/strict";
import type { JsonObject } from "../config/bootstrap_types.ts";
import { testCluster } from "../upstream/test_cluster.ts";
import { httpListener, startTestProxy, type TestProxy } from "./test_proxy.ts";

const routes = {
  virtual_hosts: [{
    name: "v",
    domains: ["*"],
    routes: [{ match: { prefix: "/" }, route: { cluster: "o" } }],
  }],
};

/** Runs `fn` with a proxy whose origin answers the request headers it saw as JSON. */
async function withProxy(hcm: JsonObject, fn: (get: Get) => Promise<void>) {
  const o = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (r) => Response.json(Object.fromEntries(r.headers)),
  );
  const p: TestProxy = await startTestProxy([httpListener(routes, hcm)], [
    testCluster("o", [["127.0.0.1", o.addr.port]]),
  ]);
  try {
    await fn(async (headers) => {
      const r = await fetch(`http://127.0.0.1:${p.port()}/`, { headers });
      return await r.json();
    });
  } finally {
    await p.close();
    await o.shutdown();
  }
}
type Get = (headers: Record<string, string>) => Promise<Record<string, string>>;

const CONTROL = {
  "x-envoy-internal": "true",
  "x-proxy-internal": "true",
  "x-envoy-upstream-rq-timeout-ms": "60000",
  "x-proxy-upstream-rq-timeout-ms": "60000",
  "x-envoy-retry-on": "5xx",
  "x-envoy-max-retries": "9",
  "x-envoy-expected-rq-timeout-ms": "1",
  "x-envoy-force-trace": "1",
  "x-envoy-downstream-service-cluster": "spoofed",
  "x-proxy-original-dst-host": "192.0.2.1:80",
  "x-request-id": "given",
};

/** An internal address range that does not hold the loopback test client. */
const ELSEWHERE = { cidr_ranges: [{ address_prefix: "10.0.0.0", prefix_len: 8 }] };

Deno.test("internal headers: an external client's x-envoy-/x-proxy- internal and control headers never reach the upstream (use_remote_address)", async () => {
  await withProxy({ use_remote_address: true, internal_address_config: ELSEWHERE }, async (get) => {
    const h = await get(CONTROL);
    for (const k of Object.keys(CONTROL)) {
      if (k === "x-proxy-original-dst-host" || k === "x-request-id") continue;
      assert.equal(h[k], undefined, k);
    }
    assert.equal(h["x-proxy-external-address"], "127.0.0.1");
    // An edge request gets a request ID of the proxy's making.
    assert.notEqual(h["x-request-id"], "given");
    // The specification: the original destination header is not sanitized.
    assert.equal(h["x-proxy-original-dst-host"], "192.0.2.1:80");
    assert.match(h["x-forwarded-for"], /^\d+\.\d+\.\d+\.\d+$/);
  });
});

Deno.test("internal headers: an internal client (loopback, Envoy's default internal ranges) keeps control headers and is marked x-proxy-internal", async () => {
  await withProxy({ use_remote_address: true }, async (get) => {
    const h = await get(CONTROL);
    assert.equal(h["x-proxy-internal"], "true");
    assert.equal(h["x-envoy-internal"], undefined);
    // The router consumes the timeout headers (as Envoy's finalTimeout) and tells the upstream
    // the time it has instead; retry headers are consumed too; one it does not read is kept.
    assert.equal(h["x-envoy-upstream-rq-timeout-ms"], undefined);
    assert.equal(h["x-proxy-upstream-rq-timeout-ms"], undefined);
    assert.equal(h["x-envoy-expected-rq-timeout-ms"], undefined);
    assert.equal(h["x-proxy-expected-rq-timeout-ms"], "60000");
    assert.equal(h["x-envoy-force-trace"], "1");
    assert.equal(h["x-request-id"], "given");
    assert.equal(h["x-proxy-external-address"], undefined);
  });
});

Deno.test("internal headers: skip_xff_append leaves x-forwarded-for alone; xff_num_trusted_hops trusts the previous hop's x-forwarded-proto", async () => {
  await withProxy({ use_remote_address: true, skip_xff_append: true }, async (get) => {
    const h = await get({ "x-forwarded-proto": "https" });
    assert.equal(h["x-forwarded-for"], undefined);
    assert.equal(h["x-forwarded-proto"], "http");
  });
  await withProxy({ use_remote_address: true, xff_num_trusted_hops: 1 }, async (get) => {
    const h = await get({ "x-forwarded-proto": "https", "x-forwarded-for": "10.0.0.5" });
    assert.equal(h["x-forwarded-proto"], "https");
    assert.match(h["x-forwarded-for"], /^10\.0\.0\.5, /);
  });
});

Deno.test("internal headers: without use_remote_address the x-forwarded-for entry xff_num_trusted_hops from the end decides", async () => {
  await withProxy({ xff_num_trusted_hops: 0 }, async (get) => {
    const inside = await get({ "x-forwarded-for": "10.0.0.5", "x-envoy-force-trace": "1" });
    assert.equal(inside["x-proxy-internal"], "true");
    assert.equal(inside["x-envoy-force-trace"], "1");
    const outside = await get({ "x-forwarded-for": "203.0.113.7", "x-envoy-force-trace": "1" });
    assert.equal(outside["x-proxy-internal"], undefined);
    assert.equal(outside["x-envoy-force-trace"], undefined);
    // No x-forwarded-for at all: external, even from an internal peer.
    const none = await get({ "x-envoy-force-trace": "1" });
    assert.equal(none["x-envoy-force-trace"], undefined);
  });
  await withProxy({ xff_num_trusted_hops: 1 }, async (get) => {
    // Two entries: never a single address, so external.
    const two = await get({ "x-forwarded-for": "10.0.0.5, 10.0.0.6", "x-envoy-force-trace": "1" });
    assert.equal(two["x-envoy-force-trace"], undefined);
  });
});

Deno.test("internal headers: bad internal_address_config and xff_num_trusted_hops are errors with their paths", async () => {
  const { parseForwarding } = await import("./forwarding_config.ts");
  const errors: { path: string; rule: string; message: string }[] = [];
  parseForwarding(
    {
      xff_num_trusted_hops: -1,
      internal_address_config: { cidr_ranges: [{ address_prefix: "10.0.0.0", prefix_len: 40 }] },
    },
    "h",
    errors,
  );
  assert.deepEqual(errors.map((e) => e.path), [
    "h.xff_num_trusted_hops",
    "h.internal_address_config.cidr_ranges[0]",
  ]);
});
