import assert from "node:assert/strict";
import { effectiveCluster } from "../config/effective_cluster.ts";
import type { JsonObject } from "../config/bootstrap_types.ts";
import { clusterSupportErrors } from "../config/support_check.ts";
import { validateClusters } from "../config/validate_cluster.ts";
import { protocolCluster as cluster } from "../config/protocol_test_cluster.ts";
import { httpListener, startTestProxy } from "./test_proxy.ts";
import { routeAllTo, scriptedOrigin } from "./test_origins.ts";

/**
 * An origin on a raw socket that records what each connection sends and answers an HTTP/1.1
 * request with 200 `h1`; an HTTP/2 connection (its preface) is closed after recording.
 */
const lineOrigin = () =>
  scriptedOrigin((text) =>
    text.startsWith("PRI ")
      ? null
      : "HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nh1"
  );

async function firstLineThrough(c: JsonObject, origin: ReturnType<typeof lineOrigin>) {
  const p = await startTestProxy([httpListener(routeAllTo("o"))], [effectiveCluster(c)]);
  try {
    const r = await fetch(`http://127.0.0.1:${p.port()}/x`);
    await r.body?.cancel();
    return origin.seen.at(-1)?.split("\r\n")[0];
  } finally {
    await p.close();
  }
}

Deno.test("cluster.fields.typed-extension-protocol-options: explicit_http_config with http2_protocol_options speaks HTTP/2 upstream, with http_protocol_options HTTP/1.1", async () => {
  const o = lineOrigin();
  try {
    const h2 = cluster(o.port, { explicit_http_config: { http2_protocol_options: {} } });
    assert.deepEqual(validateClusters([h2], { path: "c", allowUnknown: false }).errors, []);
    assert.deepEqual(clusterSupportErrors([h2], "clusters"), []);
    assert.equal(await firstLineThrough(h2, o), "PRI * HTTP/2.0");
    const h1 = cluster(o.port, { explicit_http_config: { http_protocol_options: {} } });
    assert.deepEqual(clusterSupportErrors([h1], "clusters"), []);
    assert.equal(await firstLineThrough(h1, o), "GET /x HTTP/1.1");
  } finally {
    await o.close();
  }
});

Deno.test("cluster.fields.typed-extension-protocol-options: use_downstream_protocol_config follows the downstream protocol only where http2_protocol_options is set", async () => {
  const o = lineOrigin();
  try {
    const both = cluster(o.port, {
      use_downstream_protocol_config: { http_protocol_options: {}, http2_protocol_options: {} },
    });
    const e = effectiveCluster(both);
    assert.equal(e.protocolSelection, "USE_DOWNSTREAM_PROTOCOL");
    assert.equal(e.http2, true);
    // An HTTP/1.1 downstream request goes upstream over HTTP/1.1.
    assert.equal(await firstLineThrough(both, o), "GET /x HTTP/1.1");
    const h1only = effectiveCluster(
      cluster(o.port, { use_downstream_protocol_config: { http_protocol_options: {} } }),
    );
    assert.equal(h1only.http2, false);
    assert.equal(h1only.protocolSelection, "USE_CONFIGURED_PROTOCOL");
  } finally {
    await o.close();
  }
});
