/**
 * Tests of the effective cluster: every default comes from the table rows.
 *
 * @module
 */
import assert from "node:assert/strict";
import { CLUSTER_FIELDS } from "../../spec/cluster/fields.ts";
import { valueOf, withDefaults } from "./defaults.ts";
import { effectiveCluster } from "./effective_cluster.ts";
import { fieldRow } from "./nested_schema.ts";
import { ConfigLoadError } from "./errors.ts";
import { validateClusters } from "./validate_cluster.ts";
import { checkDynamicClusters } from "./dynamic_clusters.ts";
import { DynamicFieldPolicy } from "./dynamic_fields.ts";
import { Store } from "../stats/store.ts";
import { parseDuration, parsePercent } from "./values.ts";

const ms = (v: unknown) => {
  const p = parseDuration(v);
  if (!p.ok) throw new Error(p.error);
  return p.value;
};
const def = (message: string, field: string) => fieldRow(message, field).default;

Deno.test("cluster.fields: effectiveCluster of a minimal cluster equals the table defaults", () => {
  const c = effectiveCluster({ name: "svc:a" });
  assert.equal(c.name, "svc:a");
  assert.equal(c.statName, "svc_a");
  assert.equal(c.type, def("Cluster", "type"));
  assert.equal(c.lbPolicy, def("Cluster", "lb_policy"));
  assert.equal(c.connectTimeoutMs, ms(def("Cluster", "connect_timeout")));
  assert.equal(
    c.perConnectionBufferLimitBytes,
    def("Cluster", "per_connection_buffer_limit_bytes"),
  );
  assert.equal(c.maxRequestsPerConnection, def("Cluster", "max_requests_per_connection"));
  assert.equal(c.protocolSelection, def("Cluster", "protocol_selection"));
  assert.equal(c.dnsRefreshRateMs, ms(def("Cluster", "dns_refresh_rate")));
  assert.equal(c.respectDnsTtl, def("Cluster", "respect_dns_ttl"));
  assert.equal(c.dnsLookupFamily, def("Cluster", "dns_lookup_family"));
  assert.equal(c.cleanupIntervalMs, ms(def("Cluster", "cleanup_interval")));
  const panic = parsePercent(def("Cluster.CommonLbConfig", "healthy_panic_threshold"));
  assert.ok(panic.ok);
  assert.equal(c.healthyPanicThreshold, panic.value);
  assert.equal(c.updateMergeWindowMs, ms(def("Cluster.CommonLbConfig", "update_merge_window")));
  assert.deepEqual(c.ringHash, {
    minimumRingSize: def("Cluster.RingHashLbConfig", "minimum_ring_size"),
    maximumRingSize: def("Cluster.RingHashLbConfig", "maximum_ring_size"),
    hashFunction: def("Cluster.RingHashLbConfig", "hash_function"),
  });
  assert.equal(c.leastRequest.choiceCount, def("Cluster.LeastRequestLbConfig", "choice_count"));
  assert.equal(c.useHttpHeader, def("Cluster.OriginalDstLbConfig", "use_http_header"));
  assert.equal(
    c.closeConnectionsOnHostHealthFailure,
    def("Cluster", "close_connections_on_host_health_failure"),
  );
  assert.equal(
    c.drainConnectionsOnHostRemoval,
    def("Cluster", "drain_connections_on_host_removal"),
  );
  const T = "cluster.CircuitBreakers.Thresholds";
  for (const [i, priority] of (["DEFAULT", "HIGH"] as const).entries()) {
    assert.deepEqual(c.thresholds[i], {
      priority,
      max_connections: def(T, "max_connections"),
      max_pending_requests: def(T, "max_pending_requests"),
      max_requests: def(T, "max_requests"),
      max_retries: def(T, "max_retries"),
    });
  }
  assert.deepEqual(
    [c.hosts, c.http2, c.tls, c.upstreamBind, c.tcpKeepalive, c.healthChecks, c.outlierDetection],
    [[], false, null, null, null, [], null],
  );
});

Deno.test("cluster.fields: every Cluster row default is what valueOf returns for an unset field", () => {
  for (const r of CLUSTER_FIELDS) {
    const d = (r as { default?: unknown }).default;
    if (d === undefined) continue;
    const v = valueOf("Cluster", {}, r.field);
    assert.equal(v, r.kind === "duration" ? ms(d) : d, r.id);
  }
});

Deno.test("cluster.fields.connect-timeout: set values override defaults, in the contract's units", () => {
  const c = effectiveCluster({
    name: "x",
    type: "strict_dns",
    connect_timeout: "0.25s",
    lb_policy: "least_request",
    least_request_lb_config: { choice_count: "5" },
    common_lb_config: { healthy_panic_threshold: { value: 33.9 } },
    http2_protocol_options: {},
    upstream_bind_config: {
      source_address: { socket_address: { address: "127.0.0.1", port_value: 0 } },
    },
    upstream_connection_options: { tcp_keepalive: { keepalive_time: 30 } },
    hosts: [{ socket_address: { address: "db.local", port_value: 5432 } }],
  });
  assert.equal(c.connectTimeoutMs, 250);
  assert.equal(c.lbPolicy, "LEAST_REQUEST");
  assert.equal(c.leastRequest.choiceCount, 5);
  assert.equal(c.healthyPanicThreshold, 33);
  assert.equal(c.http2, true);
  assert.deepEqual(c.upstreamBind, { address: "127.0.0.1", port: 0 });
  assert.deepEqual(c.tcpKeepalive, { time: 30 });
  assert.equal(c.hosts[0].hostname, "db.local");
  assert.equal(c.hosts[0].weight, def("endpoint.LbEndpoint", "load_balancing_weight"));
});

Deno.test("cluster.objects.endpoint.lb-endpoint.load-balancing-weight: hosts come from load_assignment", () => {
  const c = effectiveCluster({
    name: "x",
    hosts: [{ socket_address: { address: "10.9.9.9", port_value: 1 } }],
    load_assignment: {
      cluster_name: "x",
      endpoints: [{
        locality: { region: "r", zone: "z" },
        priority: 1,
        lb_endpoints: [{
          endpoint: { address: { socket_address: { address: "10.0.0.1", port_value: 80 } } },
          load_balancing_weight: 7,
          health_status: "draining",
          metadata: { filter_metadata: { "envoy.lb": { a: 1 }, "proxy.lb": { b: 2 } } },
        }],
      }],
    },
  });
  assert.deepEqual(c.hosts, [{
    address: "10.0.0.1",
    port: 80,
    hostname: "",
    weight: 7,
    priority: 1,
    region: "r",
    zone: "z",
    sub_zone: "",
    metadata: { a: 1, b: 2 },
    health_status: "DRAINING",
  }]);
});

Deno.test("cluster.objects.cluster.outlier-detection.consecutive-5xx: nested defaults fill health checks and outlier detection", () => {
  const c = effectiveCluster({
    name: "x",
    outlier_detection: { consecutive_5xx: 9 },
    health_checks: [{
      timeout: "1s",
      interval: "2s",
      unhealthy_threshold: 1,
      healthy_threshold: 1,
    }],
  });
  assert.equal(c.outlierDetection?.consecutive_5xx, 9);
  assert.equal(c.outlierDetection?.interval, def("cluster.OutlierDetection", "interval"));
  assert.equal(c.healthChecks[0].reuse_connection, def("core.HealthCheck", "reuse_connection"));
  assert.equal(withDefaults("cluster.OutlierDetection", {}).max_ejection_percent, 10);
});

Deno.test("cluster.rules.tls-files-readable: TLS files are read, and unreadable ones are errors", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const ca = `${dir}/ca.pem`;
    Deno.writeTextFileSync(ca, "-----BEGIN CERTIFICATE-----\nAA==\n-----END CERTIFICATE-----\n");
    const tls = {
      "@type": "type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext",
      sni: "api.example",
      common_tls_context: {
        validation_context: { trusted_ca: { filename: ca } },
        tls_certificates: [{
          certificate_chain: { inline_string: "CHAIN" },
          private_key: { inline_bytes: btoa("KEY") },
        }],
        alpn_protocols: ["h2", "http/1.1"],
      },
    };
    const c = effectiveCluster({
      name: "t",
      transport_socket: { name: "proxy.transport_sockets.tls", typed_config: tls },
    });
    assert.deepEqual(c.tls, {
      sni: "api.example",
      trustedCa: [Deno.readTextFileSync(ca)],
      certChain: "CHAIN",
      privateKey: "KEY",
      alpn: ["h2", "http/1.1"],
    });
    const missing = {
      name: "t",
      tls_context: {
        common_tls_context: { validation_context: { trusted_ca: { filename: `${dir}/no.pem` } } },
      },
    };
    assert.throws(() => effectiveCluster(missing), ConfigLoadError);
    const seen: string[] = [];
    effectiveCluster(missing, (p, _m, rule) => seen.push(`${p} ${rule}`));
    assert.deepEqual(seen, [
      "tls_context.common_tls_context.validation_context.trusted_ca.filename cluster.rules.tls-files-readable",
    ]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("cluster.fields.upstream-bind-config: the bootstrap's cluster_manager.upstream_bind_config is the default; a cluster's own wins", () => {
  // The bootstrap form is Envoy's (a SocketAddress); the cluster form is the specification's
  // (a core.Address). Both are read either way.
  const bootstrap = { source_address: { address: "127.0.0.3", port_value: 0 } };
  const own = {
    upstream_bind_config: {
      source_address: { socket_address: { address: "127.0.0.2", port_value: "4000" } },
    },
  };
  assert.deepEqual(effectiveCluster({ name: "a" }, undefined, bootstrap).upstreamBind, {
    address: "127.0.0.3",
    port: 0,
  });
  assert.deepEqual(effectiveCluster({ name: "b", ...own }, undefined, bootstrap).upstreamBind, {
    address: "127.0.0.2",
    port: 4000,
  });
  assert.deepEqual(effectiveCluster({ name: "c", ...own }).upstreamBind, {
    address: "127.0.0.2",
    port: 4000,
  });
  // Neither, or an empty address and port of the cluster's own (no bind, also over a default).
  assert.equal(effectiveCluster({ name: "d" }).upstreamBind, null);
  const none = { upstream_bind_config: { source_address: { address: "", port_value: 0 } } };
  assert.equal(effectiveCluster({ name: "e", ...none }, undefined, bootstrap).upstreamBind, null);
  // A bootstrap value that is not a BindConfig gives no bind rather than a crash.
  for (const bad of [null, 7, "x", [], { source_address: "127.0.0.1" }]) {
    assert.equal(effectiveCluster({ name: "f" }, undefined, bad).upstreamBind, null);
  }
});

Deno.test("cluster.fields.upstream-bind-config cluster.objects.upstream-bind-config.freebind: validateClusters applies the bootstrap bind to clusters without one; freebind is accepted", () => {
  const cluster = (name: string, extra: Record<string, unknown> = {}) => ({
    name,
    connect_timeout: "1s",
    load_assignment: {
      cluster_name: name,
      endpoints: [{
        lb_endpoints: [{
          endpoint: { address: { socket_address: { address: "127.0.0.1", port_value: 1 } } },
        }],
      }],
    },
    ...extra,
  });
  const { errors, clusters } = validateClusters([
    cluster("inherits"),
    cluster("own", {
      upstream_bind_config: {
        source_address: { socket_address: { address: "127.0.0.2", port_value: 0 } },
        freebind: true,
      },
    }),
  ], {
    path: "static_resources.clusters",
    allowUnknown: false,
    bindConfig: { source_address: { address: "127.0.0.3", port_value: 0 } },
  });
  assert.deepEqual(errors, []);
  assert.deepEqual(clusters.map((c) => c.upstreamBind), [
    { address: "127.0.0.3", port: 0 },
    { address: "127.0.0.2", port: 0 },
  ]);
});

Deno.test("cluster.fields.upstream-bind-config: CDS clusters without their own bind get the bootstrap's", () => {
  const policy = new DynamicFieldPolicy("warn", new Store(), () => {});
  const [c] = checkDynamicClusters(
    [{
      "@type": "type.googleapis.com/envoy.config.cluster.v3.Cluster",
      name: "cds",
      connect_timeout: "1s",
      type: "EDS",
      eds_cluster_config: { eds_config: { path: "eds.yaml" } },
    }],
    policy,
    { source_address: { address: "127.0.0.3", port_value: 0 } },
  );
  assert.deepEqual(c.upstreamBind, { address: "127.0.0.3", port: 0 });
});
