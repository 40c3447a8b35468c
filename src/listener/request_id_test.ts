/**
 * `x-request-id` as Envoy's connection manager sets it, over real sockets: an edge request's own
 * ID is replaced unless `preserve_external_request_id`; a request without one gets one.
 */
import assert from "node:assert/strict";
import type { JsonObject } from "../config/bootstrap_types.ts";
import { testCluster } from "../upstream/test_cluster.ts";
import { httpListener, startTestProxy } from "./test_proxy.ts";
import { parseHcm } from "./http_connection_manager.ts";

const routes = {
  virtual_hosts: [{
    name: "v",
    domains: ["*"],
    routes: [{ match: { prefix: "/" }, route: { cluster: "o" } }],
  }],
};

/** An internal address range that does not hold the loopback test client (it is external). */
const EDGE = {
  use_remote_address: true,
  internal_address_config: { cidr_ranges: [{ address_prefix: "10.0.0.0", prefix_len: 8 }] },
};

async function seenIds(hcm: JsonObject, sent: (string | null)[]): Promise<string[]> {
  const o = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (r) => new Response(r.headers.get("x-request-id") ?? "none"),
  );
  const p = await startTestProxy([httpListener(routes, hcm)], [
    testCluster("o", [["127.0.0.1", o.addr.port]]),
  ]);
  try {
    const out: string[] = [];
    for (const id of sent) {
      const headers: Record<string, string> = id === null ? {} : { "x-request-id": id };
      const r = await fetch(`http://127.0.0.1:${p.port()}/`, { headers });
      out.push(await r.text());
    }
    return out;
  } finally {
    await p.close();
    await o.shutdown();
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

Deno.test("listener http preserve_external_request_id: an edge request keeps its x-request-id; one without gets one", async () => {
  const [kept, made] = await seenIds({ ...EDGE, preserve_external_request_id: true }, [
    "given",
    null,
  ]);
  assert.equal(kept, "given");
  assert.match(made, UUID);
  const [replaced] = await seenIds(EDGE, ["given"]);
  assert.match(replaced, UUID);
  // With generate_request_id false nothing is made or replaced.
  const [asIs, none] = await seenIds({ ...EDGE, generate_request_id: false }, ["given", null]);
  assert.equal(asIs, "given");
  assert.equal(none, "none");
});

Deno.test("listener http preserve_external_request_id: a value that is not a bool is refused with its path", () => {
  const errors: { path: string; message: string; rule: string }[] = [];
  parseHcm(
    { stat_prefix: "s", route_config: routes, preserve_external_request_id: "yes" },
    "hcm",
    errors,
    new Set(["o"]),
  );
  assert.deepEqual(errors.map((e) => e.path), ["hcm.preserve_external_request_id"]);
});
