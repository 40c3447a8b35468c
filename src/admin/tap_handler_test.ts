import assert from "node:assert/strict";
import type { JsonObject } from "../config/bootstrap_types.ts";
import { detectFeatures } from "../server/lifecycle_features.ts";
import { call, testContext } from "./testing_context.ts";
import {
  DEFAULT_MAX_BUFFERED_BYTES,
  MAX_TAP_BODY,
  tapConfigIds,
  tapOutput,
} from "./tap_handler.ts";
import { createAdminRouter } from "./router.ts";
import { ADMIN_HANDLERS } from "./handlers.ts";

function withTap(name: string): JsonObject {
  return {
    static_resources: {
      listeners: [{
        name: "l",
        filter_chains: [{
          filters: [{
            name: "envoy.filters.network.http_connection_manager",
            typed_config: {
              http_filters: [
                { name, typed_config: { common_config: { admin_config: { config_id: "x" } } } },
                { name: "envoy.filters.http.router" },
              ],
            },
          }],
        }],
      }],
    },
  };
}

Deno.test("admin.endpoints.tap: the tap feature is found in the envoy. and proxy. spellings", () => {
  for (const name of ["envoy.filters.http.tap", "proxy.filters.http.tap"]) {
    assert.ok(detectFeatures({ enable_mutex_tracing: false }, withTap(name)).has("tap"), name);
  }
  const none = withTap("envoy.filters.http.health_check");
  assert.ok(!detectFeatures({ enable_mutex_tracing: false }, none).has("tap"));
});

Deno.test("admin.endpoints.tap: without a tap filter /tap is not registered", async () => {
  const ctx = testContext({ features: [] });
  const res = await call(ctx, "POST", "/tap", { body: "{}" });
  assert.equal(res.status, 404);
  await res.body?.cancel();
  assert.equal(tapConfigIds(ctx).size, 0);
});

Deno.test("admin.endpoints.tap: output_config buffer sizes default to 1024 and are checked", () => {
  assert.deepEqual(tapOutput({}), {
    maxRx: DEFAULT_MAX_BUFFERED_BYTES,
    maxTx: DEFAULT_MAX_BUFFERED_BYTES,
    asString: false,
  });
  assert.deepEqual(tapOutput({ max_buffered_rx_bytes: { value: 5 }, max_buffered_tx_bytes: "7" }), {
    maxRx: 5,
    maxTx: 7,
    asString: false,
  });
  assert.match(tapOutput({ max_buffered_rx_bytes: -1 }) as string, /max_buffered_rx_bytes/);
  assert.match(tapOutput({ format: "PROTO_BINARY" }) as string, /format/);
  const sinkFormat = tapOutput({ sinks: [{ format: "JSON_BODY_AS_STRING", streaming_admin: {} }] });
  assert.equal((sinkFormat as { asString: boolean }).asString, true);
});

Deno.test("admin.endpoints.tap: the 1 MiB body limit is checked while streaming; a 200 MB body is not read", async () => {
  const ctx = testContext({ features: ["tap"] });
  const route = createAdminRouter(ctx, { handlers: ADMIN_HANDLERS });
  let pulled = 0;
  const chunk = new Uint8Array(64 * 1024).fill(0x20);
  const body = new ReadableStream<Uint8Array>({
    pull(c) {
      if (pulled >= 200 * 1024 * 1024) return c.close();
      pulled += chunk.byteLength;
      c.enqueue(chunk);
    },
  });
  const res = await route(new Request("http://127.0.0.1/tap", { method: "POST", body }));
  assert.equal(res.status, 413);
  await res.body?.cancel();
  assert.ok(pulled <= MAX_TAP_BODY + 4 * chunk.byteLength, `read ${pulled} bytes`);
});

Deno.test("admin.endpoints.tap: a form content type or a URL fragment is a 4xx, not a 500", async () => {
  const ctx = testContext({ features: ["tap"] });
  const form = await call(ctx, "POST", "/tap", {
    body: "config_id: x",
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  assert.equal(form.status, 400);
  assert.match(await form.text(), /^TapRequest\./);
  const frag = await call(ctx, "POST", "/tap#frag", { body: "{}" });
  assert.equal(frag.status, 400);
  await frag.body?.cancel();
});
