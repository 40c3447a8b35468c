import assert from "node:assert/strict";
import { effectiveCluster } from "./effective_cluster.ts";
import { clusterSupportErrors } from "./support_check.ts";
import { validateClusters } from "./validate_cluster.ts";
import type { JsonObject } from "./bootstrap_types.ts";
import { HTTP_PROTOCOL_OPTIONS } from "./upstream_http_options.ts";
import { protocolCluster as cluster } from "./protocol_test_cluster.ts";

/** Validation errors of one cluster, paths relative to it. */
const validate = (c: JsonObject) =>
  validateClusters([c], { path: "c", allowUnknown: false }).errors.map((e) => ({
    ...e,
    path: e.path.replace(/^c\[0\]\./, ""),
  }));

Deno.test("cluster.fields.typed-extension-protocol-options: HTTP/2 settings inside the typed options are honoured and range-checked at their path", () => {
  const c = cluster(1, {
    explicit_http_config: {
      http2_protocol_options: { hpack_table_size: 0, initial_stream_window_size: 70000 },
    },
  });
  assert.deepEqual(effectiveCluster(c).http2Settings, {
    hpackTableSize: 0,
    initialStreamWindowSize: 70000,
  });
  const bad = cluster(1, {
    explicit_http_config: { http2_protocol_options: { initial_connection_window_size: 10 } },
  });
  const errs = validate(bad);
  assert.deepEqual(errs.map((x) => x.path), [
    `typed_extension_protocol_options.${HTTP_PROTOCOL_OPTIONS}.explicit_http_config.http2_protocol_options.initial_connection_window_size`,
  ]);
});

Deno.test("cluster.fields.typed-extension-protocol-options: what is not honoured is refused with its path", () => {
  const at = `clusters[0].typed_extension_protocol_options`;
  const errs = (c: JsonObject) => clusterSupportErrors([c], "clusters").map((e) => e.path);
  // Keys other than the upstream HTTP protocol options.
  const tcp = "envoy.extensions.upstreams.tcp.v3.TcpProtocolOptions";
  assert.deepEqual(
    errs({
      ...cluster(1, { explicit_http_config: {} }),
      typed_extension_protocol_options: {
        [tcp]: { "@type": `type.googleapis.com/${tcp}` },
      },
    }),
    [`${at}.${tcp}`],
  );
  // ALPN selection without TLS, HTTP/3, settings of HTTP/1.1 options.
  assert.deepEqual(errs(cluster(1, { auto_config: { http2_protocol_options: {} } })), [
    `${at}.${HTTP_PROTOCOL_OPTIONS}.auto_config`,
  ]);
  assert.deepEqual(errs(cluster(1, { explicit_http_config: { http3_protocol_options: {} } })), [
    `${at}.${HTTP_PROTOCOL_OPTIONS}.explicit_http_config.http3_protocol_options`,
  ]);
  assert.deepEqual(
    errs(cluster(1, {
      explicit_http_config: { http_protocol_options: { accept_http_10: true } },
      common_http_protocol_options: {
        idle_timeout: "1s",
        max_stream_duration: "1s",
        headers_with_underscores_action: "REJECT_REQUEST",
      },
    })),
    [
      `${at}.${HTTP_PROTOCOL_OPTIONS}.explicit_http_config.http_protocol_options.accept_http_10`,
      `${at}.${HTTP_PROTOCOL_OPTIONS}.common_http_protocol_options.headers_with_underscores_action`,
    ],
  );
  // No protocol choice, or two; a wrong @type.
  assert.deepEqual(errs(cluster(1, {})), [`${at}.${HTTP_PROTOCOL_OPTIONS}`]);
  assert.deepEqual(
    errs(cluster(1, { explicit_http_config: {}, use_downstream_protocol_config: {} })),
    [`${at}.${HTTP_PROTOCOL_OPTIONS}`],
  );
  assert.deepEqual(
    errs(cluster(1, { explicit_http_config: {}, "@type": "type.googleapis.com/x.Y" })),
    [`${at}.${HTTP_PROTOCOL_OPTIONS}.@type`],
  );
  // The cluster's own protocol fields beside the typed options (Envoy ignores them).
  assert.deepEqual(
    errs(cluster(1, { explicit_http_config: {} }, {
      http2_protocol_options: {},
      protocol_selection: "USE_DOWNSTREAM_PROTOCOL",
    })),
    ["clusters[0].http2_protocol_options", "clusters[0].protocol_selection"],
  );
});

Deno.test("cluster.fields.common-http-protocol-options: common_http_protocol_options inside typed options or on the cluster set the upstream connection limits (idle 1 h by default)", () => {
  const typed = effectiveCluster(cluster(1, {
    explicit_http_config: { http_protocol_options: {} },
    common_http_protocol_options: {
      idle_timeout: "2s",
      max_connection_duration: "30s",
      max_requests_per_connection: 7,
    },
  }));
  assert.equal(typed.upstreamIdleTimeoutMs, 2000);
  assert.equal(typed.maxConnectionDurationMs, 30000);
  assert.equal(typed.maxRequestsPerConnection, 7);
  const own = effectiveCluster({
    ...cluster(1, { explicit_http_config: {} }),
    typed_extension_protocol_options: {},
    common_http_protocol_options: { idle_timeout: "0s" },
    max_requests_per_connection: 4,
  });
  assert.equal(own.upstreamIdleTimeoutMs, 0);
  assert.equal(own.maxConnectionDurationMs, 0);
  assert.equal(own.maxRequestsPerConnection, 4);
  const plain = effectiveCluster({ ...cluster(1, {}), typed_extension_protocol_options: {} });
  assert.equal(plain.upstreamIdleTimeoutMs, 3_600_000);
});
