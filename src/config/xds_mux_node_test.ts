import assert from "node:assert/strict";
import { type OpenStream, XdsMux } from "./xds_mux.ts";
import { decodeRequest, responseJsonToBinary, TYPE_URLS } from "./xds_wire.ts";
import { Store } from "../stats/store.ts";

/** The requests a mux writes on one stream, decoded; two subscriptions make two requests. */
async function requests(nodeFirstOnly?: boolean) {
  const written: Uint8Array[] = [];
  const open: OpenStream = () => ({ write: (b) => written.push(b), cancel() {} });
  const mux = new XdsMux(open, {
    node: { id: "n" },
    nodeFirstOnly,
    method: "/envoy.service.discovery.v3.AggregatedDiscoveryService/StreamAggregatedResources",
    delta: false,
  });
  const callbacks = { onConfigUpdate() {}, onConfigUpdateFailed() {} };
  for (const t of [TYPE_URLS.cds, TYPE_URLS.lds]) {
    mux.subscribe(t, null, new Store(), callbacks, { initialFetchTimeoutMs: 0 }).start()
      .catch(() => {});
  }
  await new Promise((r) => setTimeout(r, 0));
  await mux.close();
  return written.map(decodeRequest);
}

Deno.test("core.ConfigSource.api_config_source: the node goes on every request by default, and on a stream's first only with set_node_on_first_message_only", async () => {
  const every = await requests();
  assert.ok(every.length >= 2, `${every.length} requests`);
  assert.ok(every.every((r) => r.node?.id === "n"));
  const first = await requests(true);
  assert.ok(first.length >= 2, `${first.length} requests`);
  assert.equal(first[0].node?.id, "n");
  assert.ok(first.slice(1).every((r) => r.node === undefined));
});

Deno.test("core.ConfigSource.api_config_source: transport_api_version other than V3 is refused with its path; set_node_on_first_message_only is read", async () => {
  const { apiSourceOf } = await import("./config_source.ts");
  const grpc = { api_type: "GRPC", grpc_services: [{ envoy_grpc: { cluster_name: "cp" } }] };
  const v2 = apiSourceOf({ ...grpc, transport_api_version: "V2" }, "x");
  assert.ok(!v2.ok && v2.at === "x.transport_api_version", JSON.stringify(v2));
  const v3 = apiSourceOf({ ...grpc, transport_api_version: "V3" }, "x");
  assert.ok(v3.ok && v3.api.type === "GRPC" && v3.api.nodeFirstOnly === false);
  const once = apiSourceOf({ ...grpc, set_node_on_first_message_only: true }, "x");
  assert.ok(once.ok && once.api.type === "GRPC" && once.api.nodeFirstOnly === true);
});

/** A SotW mux on a fake stream; `respond` hands it a DiscoveryResponse given as proto3 JSON. */
function fakeMux() {
  let handlers: Parameters<OpenStream>[1] | null = null;
  const open: OpenStream = (_m, h) => {
    handlers = h;
    return { write() {}, cancel() {} };
  };
  const mux = new XdsMux(open, {
    node: { id: "n" },
    method: "/envoy.service.discovery.v3.AggregatedDiscoveryService/StreamAggregatedResources",
    delta: false,
  });
  let nonce = 0;
  const respond = (typeUrl: string, version: string, resources: Record<string, unknown>[]) =>
    handlers!.onMessage(responseJsonToBinary({
      version_info: version,
      type_url: typeUrl,
      nonce: String(++nonce),
      resources: resources.map((r) => ({ "@type": typeUrl, ...r })),
    }));
  return { mux, respond };
}

const cluster = (name: string) => ({ name, connect_timeout: "1s" });

Deno.test("core.ConfigSource.ads: a resource a wildcard SotW response no longer carries is forgotten, so a later subscriber to its name does not get it", async () => {
  const { mux, respond } = fakeMux();
  const got: string[][] = [];
  const callbacks = (into: string[][]) => ({
    onConfigUpdate(r: { resources: { name?: unknown }[] }) {
      into.push(r.resources.map((x) => String(x.name)));
    },
    onConfigUpdateFailed() {},
  });
  const opts = { initialFetchTimeoutMs: 0 };
  mux.subscribe(TYPE_URLS.cds, null, new Store(), callbacks(got), opts).start().catch(() => {});
  await new Promise((r) => setTimeout(r, 0));
  respond(TYPE_URLS.cds, "1", [cluster("a"), cluster("b")]);
  respond(TYPE_URLS.cds, "2", [cluster("a")]);
  assert.deepEqual(got, [["a", "b"], ["a"]]);
  const late: string[][] = [];
  mux.subscribe(TYPE_URLS.cds, "b", new Store(), callbacks(late), opts).start().catch(() => {});
  mux.subscribe(TYPE_URLS.cds, "a", new Store(), callbacks(late), opts).start().catch(() => {});
  await new Promise((r) => setTimeout(r, 0));
  assert.deepEqual(late, [["a"]], "b was removed by version 2: only a is delivered at once");
  await mux.close();
});
