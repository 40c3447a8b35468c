/**
 * Walks the support column: for every configuration field and command-line option this build
 * does not honour, a minimal bootstrap that sets it is rejected by `--mode validate` (the
 * function `main` runs, and a few real processes) and refused by serve (`startServer`, and a few
 * real processes) with the same messages, each naming the field's path. For every field marked
 * honoured, {@linkcode HONOURED} names the test that observes its effect.
 */
import assert from "node:assert/strict";
import { CLUSTER_FIELDS } from "../../spec/cluster/fields.ts";
import { CLUSTER_OBJECTS } from "../../spec/cluster/objects.ts";
import { OPTIONS } from "../../spec/cli/options.ts";
import { SUPPORT, type SupportRow } from "../../spec/support.ts";
import type { FieldRow, OptionRow } from "../../spec/rule.ts";
import { ENUMS } from "../config/nested_schema.ts";
import { BOOTSTRAP, LISTENER, MESSAGES as SCHEMA } from "../config/bootstrap_schema.ts";
import { formatConfigError } from "../config/errors.ts";
import { ConfigLoadError } from "../config/errors.ts";
import { createLogging } from "../server/logger.ts";
import { startServer } from "../server/server.ts";
import { effectiveOptions } from "../server/configuration_check.ts";
import { parseCommandLine } from "../config/args.ts";
import { validateConfiguration } from "./validate.ts";
import { ALL_CHECK_PARTS } from "../server/full_configuration_check.ts";
import {
  HTTP_PROTOCOL_OPTIONS,
  HTTP_PROTOCOL_OPTIONS_TYPE,
} from "../config/upstream_http_options.ts";
import { HONOURED } from "./support_honoured.ts";

type Obj = Record<string, unknown>;

const ROOT = new URL("../../", import.meta.url);

function cluster(): Obj {
  return {
    name: "c",
    type: "STATIC",
    connect_timeout: "1s",
    load_assignment: {
      cluster_name: "c",
      endpoints: [{
        lb_endpoints: [{
          endpoint: { address: { socket_address: { address: "127.0.0.1", port_value: 1 } } },
        }],
      }],
    },
  };
}

function bootstrap(): Obj {
  return {
    static_resources: {
      clusters: [cluster()],
      listeners: [{
        name: "l",
        address: { socket_address: { address: "127.0.0.1", port_value: 0 } },
        filter_chains: [{
          filters: [{
            name: "envoy.filters.network.http_connection_manager",
            typed_config: {
              "@type":
                "type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager",
              stat_prefix: "h",
              route_config: {
                virtual_hosts: [{
                  name: "v",
                  domains: ["*"],
                  routes: [
                    { match: { prefix: "/r" }, redirect: { path_redirect: "/" } },
                    { match: { prefix: "/" }, route: { cluster: "c" } },
                  ],
                }],
              },
              http_filters: [
                {
                  name: "envoy.filters.http.health_check",
                  typed_config: {
                    pass_through_mode: false,
                    headers: [{ name: ":path", string_match: { exact: "/hc" } }],
                  },
                },
                { name: "envoy.filters.http.router", typed_config: {} },
              ],
            },
          }],
        }],
      }, {
        name: "t",
        address: { socket_address: { address: "127.0.0.1", port_value: 0 } },
        filter_chains: [{
          filters: [{
            name: "envoy.filters.network.tcp_proxy",
            typed_config: { stat_prefix: "t", cluster: "c" },
          }],
        }],
      }],
    },
  };
}

/** Reads or creates the object at `keys` under `o` (numbers index arrays). */
function at(o: Obj, ...keys: (string | number)[]): Obj {
  let cur: unknown = o;
  keys.forEach((k, i) => {
    const c = cur as Record<string | number, unknown>;
    c[k] ??= typeof keys[i + 1] === "number" ? [] : {};
    cur = c[k];
  });
  return cur as Obj;
}

type Place = (b: Obj) => [Obj, string];
const SR = "static_resources";
const C = `${SR}.clusters[0]`;
const c0 = (b: Obj) => at(b, SR, "clusters", 0);
const ep = (b: Obj) => at(c0(b), "load_assignment", "endpoints", 0, "lb_endpoints", 0, "endpoint");
const EP = `${C}.load_assignment.endpoints[0].lb_endpoints[0].endpoint`;
const HCM_PATH = `${SR}.listeners[0].filter_chains[0].filters[0].typed_config`;
const hcm = (b: Obj) => at(b, SR, "listeners", 0, "filter_chains", 0, "filters", 0, "typed_config");
const vh = (b: Obj) => at(hcm(b), "route_config", "virtual_hosts", 0);
const VH = `${HCM_PATH}.route_config.virtual_hosts[0]`;
const tlsCtx = (b: Obj) => {
  const c = c0(b);
  c.transport_socket = {
    name: "envoy.transport_sockets.tls",
    typed_config: {
      "@type": "type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext",
    },
  };
  return at(c, "transport_socket", "typed_config");
};
const TLS = `${C}.transport_socket.typed_config`;
const FIXTURE_TLS = new URL("../../fixtures/tls/", import.meta.url).pathname;
/** The first filter chain with a downstream TLS context presenting the test certificate. */
const downTls = (b: Obj) => {
  const fc = at(b, SR, "listeners", 0, "filter_chains", 0);
  fc.transport_socket = {
    name: "envoy.transport_sockets.tls",
    typed_config: {
      "@type": "type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.DownstreamTlsContext",
      common_tls_context: {
        tls_certificates: [{
          certificate_chain: { filename: `${FIXTURE_TLS}server.pem` },
          private_key: { filename: `${FIXTURE_TLS}server.key` },
        }],
        validation_context: { trusted_ca: { filename: `${FIXTURE_TLS}ca.pem` } },
      },
    },
  };
  return at(fc, "transport_socket", "typed_config");
};
const DOWN_TLS = `${SR}.listeners[0].filter_chains[0].transport_socket.typed_config`;

/** Where an object of each message goes in the minimal bootstrap, and its path. */
const PLACES: Record<string, Place> = {
  "Cluster": (b) => [c0(b), C],
  "Cluster.CustomClusterType": (b) => {
    delete c0(b).type;
    c0(b).cluster_type = { name: "envoy.cluster.static" };
    return [at(c0(b), "cluster_type"), `${C}.cluster_type`];
  },
  "Cluster.LbSubsetConfig": (b) => [at(c0(b), "lb_subset_config"), `${C}.lb_subset_config`],
  "Cluster.LbSubsetConfig.LbSubsetSelector": (b) => {
    c0(b).lb_subset_config = { subset_selectors: [{ keys: ["a"] }] };
    return [at(c0(b), "lb_subset_config", "subset_selectors", 0), `${C}.lb_subset_config`];
  },
  "Cluster.RingHashLbConfig": (b) => {
    c0(b).lb_policy = "RING_HASH";
    return [at(c0(b), "ring_hash_lb_config"), `${C}.ring_hash_lb_config`];
  },
  "Cluster.OriginalDstLbConfig": (b) => {
    Object.assign(c0(b), { type: "ORIGINAL_DST", lb_policy: "CLUSTER_PROVIDED" });
    delete c0(b).load_assignment;
    return [at(c0(b), "original_dst_lb_config"), `${C}.original_dst_lb_config`];
  },
  "Cluster.CommonLbConfig": (b) => [at(c0(b), "common_lb_config"), `${C}.common_lb_config`],
  "Cluster.CommonLbConfig.ZoneAwareLbConfig": (b) => [
    at(c0(b), "common_lb_config", "zone_aware_lb_config"),
    `${C}.common_lb_config.zone_aware_lb_config`,
  ],
  "UpstreamBindConfig": (b) => {
    c0(b).upstream_bind_config = {
      source_address: { socket_address: { address: "127.0.0.1", port_value: 0 } },
    };
    return [at(c0(b), "upstream_bind_config"), `${C}.upstream_bind_config`];
  },
  "core.Address": (b) => [at(ep(b), "address"), `${EP}.address`],
  "core.SocketAddress": (b) => [
    at(ep(b), "address", "socket_address"),
    `${EP}.address.socket_address`,
  ],
  "core.Pipe": (b) => {
    ep(b).address = { pipe: { path: "/tmp/p" } };
    return [at(ep(b), "address", "pipe"), `${EP}.address.pipe`];
  },
  "core.ConfigSource": (b) => {
    const c = c0(b);
    Object.assign(c, { type: "EDS", eds_cluster_config: { eds_config: { path: "/tmp/e.yaml" } } });
    delete c.load_assignment;
    return [at(c, "eds_cluster_config", "eds_config"), `${C}.eds_cluster_config.eds_config`];
  },
  "core.PathConfigSource": (b) => {
    const [src, p] = PLACES["core.ConfigSource"](b);
    delete src.path;
    src.path_config_source = { path: "/tmp/e.yaml" };
    return [at(src, "path_config_source"), `${p}.path_config_source`];
  },
  "cluster.CircuitBreakers.Thresholds": (b) => [
    at(c0(b), "circuit_breakers", "thresholds", 0),
    `${C}.circuit_breakers.thresholds[0]`,
  ],
  "core.HealthCheck": (b) => {
    c0(b).health_checks = [{
      timeout: "1s",
      interval: "1s",
      unhealthy_threshold: 1,
      healthy_threshold: 1,
      tcp_health_check: {},
    }];
    return [at(c0(b), "health_checks", 0), `${C}.health_checks[0]`];
  },
  "core.HealthCheck.HttpHealthCheck": (b) => {
    c0(b).health_checks = [{
      timeout: "1s",
      interval: "1s",
      unhealthy_threshold: 1,
      healthy_threshold: 1,
      http_health_check: { path: "/healthz" },
    }];
    return [
      at(c0(b), "health_checks", 0, "http_health_check"),
      `${C}.health_checks[0].http_health_check`,
    ];
  },
  "core.HealthCheck.CustomHealthCheck": (b) => {
    c0(b).health_checks = [{
      timeout: "1s",
      interval: "1s",
      unhealthy_threshold: 1,
      healthy_threshold: 1,
      custom_health_check: { name: "x" },
    }];
    return [
      at(c0(b), "health_checks", 0, "custom_health_check"),
      `${C}.health_checks[0].custom_health_check`,
    ];
  },
  "core.HealthCheck.Payload": (b) => {
    c0(b).health_checks = [{
      timeout: "1s",
      interval: "1s",
      unhealthy_threshold: 1,
      healthy_threshold: 1,
      tcp_health_check: { send: { text: "00" } },
    }];
    return [
      at(c0(b), "health_checks", 0, "tcp_health_check", "send"),
      `${C}.health_checks[0].tcp_health_check.send`,
    ];
  },
  "cluster.OutlierDetection": (b) => [at(c0(b), "outlier_detection"), `${C}.outlier_detection`],
  "ClusterLoadAssignment": (b) => [at(c0(b), "load_assignment"), `${C}.load_assignment`],
  "endpoint.LocalityLbEndpoints": (b) => [
    at(c0(b), "load_assignment", "endpoints", 0),
    `${C}.load_assignment.endpoints[0]`,
  ],
  "endpoint.LbEndpoint": (b) => [
    at(c0(b), "load_assignment", "endpoints", 0, "lb_endpoints", 0),
    `${C}.load_assignment.endpoints[0].lb_endpoints[0]`,
  ],
  "endpoint.Endpoint": (b) => [ep(b), EP],
  "endpoint.Endpoint.HealthCheckConfig": (b) => [
    at(ep(b), "health_check_config"),
    `${EP}.health_check_config`,
  ],
  // The support table's messages.
  "Bootstrap": (b) => [b, ""],
  "Admin": (b) => [at(b, "admin"), "admin"],
  "DynamicResources": (b) => [at(b, "dynamic_resources"), "dynamic_resources"],
  "ClusterManager": (b) => [at(b, "cluster_manager"), "cluster_manager"],
  "ClusterManager.OutlierDetection": (b) => [
    at(b, "cluster_manager", "outlier_detection"),
    "cluster_manager.outlier_detection",
  ],
  "StatsSink": (b) => {
    b.stats_sinks = [{ name: "envoy.stat_sinks.hystrix" }];
    return [at(b, "stats_sinks", 0), "stats_sinks[0]"];
  },
  "Listener": (b) => [at(b, SR, "listeners", 0), `${SR}.listeners[0]`],
  "FilterChain": (b) => [
    at(b, SR, "listeners", 0, "filter_chains", 0),
    `${SR}.listeners[0].filter_chains[0]`,
  ],
  "HttpConnectionManager": (b) => [hcm(b), HCM_PATH],
  "OverloadManager": (b) => [at(b, "overload_manager"), "overload_manager"],
  "InternalAddressConfig": (b) => [
    at(hcm(b), "internal_address_config"),
    `${HCM_PATH}.internal_address_config`,
  ],
  "DownstreamHttpProtocolOptions": (b) => [
    at(hcm(b), "common_http_protocol_options"),
    `${HCM_PATH}.common_http_protocol_options`,
  ],
  "RouteConfiguration": (b) => [at(hcm(b), "route_config"), `${HCM_PATH}.route_config`],
  "VirtualHost": (b) => [vh(b), VH],
  "Route": (b) => [at(vh(b), "routes", 1), `${VH}.routes[1]`],
  "RouteAction": (b) => [at(vh(b), "routes", 1, "route"), `${VH}.routes[1].route`],
  "WeightedCluster": (b) => {
    at(vh(b), "routes", 1).route = { weighted_clusters: { clusters: [{ name: "c", weight: 1 }] } };
    return [
      at(vh(b), "routes", 1, "route", "weighted_clusters"),
      `${VH}.routes[1].route.weighted_clusters`,
    ];
  },
  "ClusterWeight": (b) => {
    const [w, p] = PLACES.WeightedCluster(b);
    return [at(w, "clusters", 0), `${p}.clusters[0]`];
  },
  "RedirectAction": (b) => [at(vh(b), "routes", 0, "redirect"), `${VH}.routes[0].redirect`],
  "Router": (b) => [
    at(hcm(b), "http_filters", 1, "typed_config"),
    `${HCM_PATH}.http_filters[1].typed_config`,
  ],
  "HealthCheckFilter": (b) => [
    at(hcm(b), "http_filters", 0, "typed_config"),
    `${HCM_PATH}.http_filters[0].typed_config`,
  ],
  "TcpProxy": (b) => [
    at(b, SR, "listeners", 1, "filter_chains", 0, "filters", 0, "typed_config"),
    `${SR}.listeners[1].filter_chains[0].filters[0].typed_config`,
  ],
  "auth.UpstreamTlsContext": (b) => [tlsCtx(b), TLS],
  "CommonTlsContext": (b) => [at(tlsCtx(b), "common_tls_context"), `${TLS}.common_tls_context`],
  "TlsCertificate": (b) => [
    at(tlsCtx(b), "common_tls_context", "tls_certificates", 0),
    `${TLS}.common_tls_context.tls_certificates[0]`,
  ],
  "CertificateValidationContext": (b) => [
    at(tlsCtx(b), "common_tls_context", "validation_context"),
    `${TLS}.common_tls_context.validation_context`,
  ],
  "FilterChainMatch": (b) => [
    at(b, SR, "listeners", 0, "filter_chains", 0, "filter_chain_match"),
    `${SR}.listeners[0].filter_chains[0].filter_chain_match`,
  ],
  "auth.DownstreamTlsContext": (b) => [downTls(b), DOWN_TLS],
  "SdsConfigSource": (b) => [
    at(downTls(b), "common_tls_context", "validation_context_sds_secret_config", "sds_config"),
    `${DOWN_TLS}.common_tls_context.validation_context_sds_secret_config.sds_config`,
  ],
  "DownstreamCommonTlsContext": (b) => [
    at(downTls(b), "common_tls_context"),
    `${DOWN_TLS}.common_tls_context`,
  ],
  "DownstreamTlsParams": (b) => [
    at(downTls(b), "common_tls_context", "tls_params"),
    `${DOWN_TLS}.common_tls_context.tls_params`,
  ],
  "DownstreamValidationContext": (b) => [
    at(downTls(b), "common_tls_context", "validation_context"),
    `${DOWN_TLS}.common_tls_context.validation_context`,
  ],
  "core.Http2ProtocolOptions": (b) => [
    at(c0(b), "http2_protocol_options"),
    `${C}.http2_protocol_options`,
  ],
  "upstreams.HttpProtocolOptions": (b) => {
    const o = at(c0(b), "typed_extension_protocol_options", HTTP_PROTOCOL_OPTIONS);
    Object.assign(o, { "@type": HTTP_PROTOCOL_OPTIONS_TYPE, explicit_http_config: {} });
    return [o, `${C}.typed_extension_protocol_options.${HTTP_PROTOCOL_OPTIONS}`];
  },
  "upstreams.HttpConfig": (b) => {
    const [o, p] = PLACES["upstreams.HttpProtocolOptions"](b);
    return [at(o, "explicit_http_config"), `${p}.explicit_http_config`];
  },
  "core.HttpProtocolOptions": (b) => [
    at(c0(b), "common_http_protocol_options"),
    `${C}.common_http_protocol_options`,
  ],
  "core.Http1ProtocolOptions": (b) => {
    const [o, p] = PLACES["upstreams.HttpConfig"](b);
    return [at(o, "http_protocol_options"), `${p}.http_protocol_options`];
  },
};

/** A value of a cluster row's kind that the validator accepts. */
function sample(r: FieldRow): unknown {
  const one = (): unknown => {
    switch (r.kind) {
      case "string":
        return "x";
      case "bool":
        return true;
      case "duration":
        return "1s";
      case "double":
        return 1;
      case "Percent":
        return { value: 1 };
      case "enum": {
        const e = ENUMS.get(r.enum ?? "")!;
        return e.values.map((v) => v.name).find((n) => n !== r.default) ?? e.values[0].name;
      }
      case "struct":
        return {};
      case "any":
        return { "@type": "type.googleapis.com/google.protobuf.Empty" };
      case "message":
        return MESSAGE_SAMPLES[r.type ?? ""] ?? {};
      default:
        return 1;
    }
  };
  if (r.support === "default-only") {
    if (typeof r.default === "boolean") return !r.default;
    if (r.kind === "duration") return "7s";
    if (r.kind === "enum") return one();
  } else if ("default" in r) return r.default;
  if (r.cardinality === "repeated") return [one()];
  if (r.cardinality === "map") return { k: one() };
  return one();
}

const MESSAGE_SAMPLES: Record<string, unknown> = {
  "core.Address": { socket_address: { address: "127.0.0.1", port_value: 1 } },
  "core.HealthCheck": {
    timeout: "1s",
    interval: "1s",
    unhealthy_threshold: 1,
    healthy_threshold: 1,
    tcp_health_check: {},
  },
  "endpoint.Endpoint": { address: { socket_address: { address: "127.0.0.1", port_value: 1 } } },
  "Cluster.LbSubsetConfig.LbSubsetSelector": { keys: ["a"] },
  "core.Pipe": { path: "/tmp/p" },
  "core.HealthCheck.Payload": { text: "00" },
  "core.HealthCheck.CustomHealthCheck": { name: "x" },
};

/** What else a field needs set before the validator accepts it (cross-field rules). */
const SETUP: Record<string, (cluster: Obj) => void> = {
  "Cluster.ring_hash_lb_config": (c) => c.lb_policy = "RING_HASH",
  "Cluster.original_dst_lb_config": (c) => {
    Object.assign(c, { type: "ORIGINAL_DST", lb_policy: "CLUSTER_PROVIDED" });
    delete c.load_assignment;
  },
  "core.HealthCheck.grpc_health_check": (c) => c.http2_protocol_options = {},
};

/** A value other than a `default-only` row's default (enum values, a scheme). */
const OTHER_VALUE: Record<string, string> = {
  DEFAULT: "MODIFY_ONLY",
  AUTO: "HTTP1",
  OVERWRITE: "APPEND_IF_ABSENT",
  SANITIZE: "FORWARD_ONLY",
  NONE: "ALL",
  SERVICE_UNAVAILABLE: "NOT_FOUND",
  https: "http",
};

/** A value of a `support` row: one it does not accept. */
function supportSample(message: string, field: string, r: SupportRow): unknown {
  if (r.support === "default-only") {
    const d = r.accepts?.[0];
    if (typeof d === "boolean") return !d;
    if (typeof d === "number") return d + 1;
    if (typeof d === "string") return /^\d/.test(d) ? "7s" : OTHER_VALUE[d] ?? "/tmp/x";
  }
  const full = { Bootstrap: BOOTSTRAP, Listener: LISTENER }[message] ??
    Object.keys(SCHEMA).find((k) => k.endsWith(`.${message}`));
  const desc = full ? SCHEMA[full]?.fields.find((f) => f.name === field) : undefined;
  if (!desc) return {};
  const k = desc.kind;
  let v: unknown = {};
  if ("scalar" in k) v = k.scalar === "string" ? "x" : k.scalar === "bool" ? true : 1;
  else if ("enum" in k) v = k.enum[k.enum.length - 1];
  else if (k.message.endsWith("Duration")) v = "1s";
  else if (k.message.endsWith("UInt32Value")) v = 1;
  else if (k.message.endsWith("BoolValue")) v = true;
  else if (k.message.endsWith("ConfigSource")) v = { path: "/tmp/x.yaml" };
  return desc.repeated ? [v] : v;
}

interface Case {
  what: string;
  bootstrap: Obj;
  /** The path the refusal names (or a prefix of it: a refused parent stops the walk). */
  path: string;
}

function clusterCases(): Case[] {
  const out: Case[] = [];
  for (const r of [...CLUSTER_FIELDS, ...CLUSTER_OBJECTS] as readonly FieldRow[]) {
    if (r.support === "honoured") continue;
    const place = PLACES[r.message];
    assert.ok(place, `no place in the walking test for message ${r.message} (row ${r.id})`);
    const b = bootstrap();
    const [obj, p] = place(b);
    if (r.group) {
      for (const o of [...CLUSTER_FIELDS, ...CLUSTER_OBJECTS] as readonly FieldRow[]) {
        if (o.message === r.message && o.group === r.group) delete obj[o.field];
      }
    }
    SETUP[`${r.message}.${r.field}`]?.(c0(b));
    obj[r.field] = sample(r);
    out.push({ what: r.id, bootstrap: b, path: p ? `${p}.${r.field}` : r.field });
  }
  return out;
}

/** For a `<message>.*` row, a field of the message that no row lists, where the default is listed. */
const UNLISTED: Record<string, string> = {
  "core.Http2ProtocolOptions": "max_outbound_frames",
  "core.HttpProtocolOptions": "max_response_headers_kb",
};

function supportCases(): Case[] {
  const out: Case[] = [];
  for (const r of SUPPORT as readonly SupportRow[]) {
    if (r.support === "honoured") continue;
    const dot = r.path.lastIndexOf(".");
    const message = r.path.slice(0, dot);
    const field = r.path.slice(dot + 1) === "*"
      ? UNLISTED[message] ?? "max_concurrent_streams"
      : r.path.slice(dot + 1);
    const place = PLACES[message];
    assert.ok(place, `no place in the walking test for message ${message} (${r.path})`);
    const b = bootstrap();
    const [obj, p] = place(b);
    obj[field] = supportSample(message, field, r);
    out.push({ what: r.path, bootstrap: b, path: p ? `${p}.${field}` : field });
  }
  return out;
}

const quiet = () => createLogging(parseCommandLine(["-l", "off"]).options);

/** What `--mode validate` reports for `b` (the function `main` runs in that mode). */
function validate(b: Obj, argv: string[] = []): string[] {
  const { options, given } = parseCommandLine([
    "--mode",
    "validate",
    "--config-yaml",
    JSON.stringify(b),
    ...argv,
  ]);
  const logging = quiet();
  try {
    return validateConfiguration(options, logging, false, given, ALL_CHECK_PARTS).errors.map(
      formatConfigError,
    );
  } finally {
    logging.close();
  }
}

/** What serve refuses `b` with (in-process); fails when it starts. */
async function serve(b: Obj, argv: string[] = []): Promise<string[]> {
  const { options, given } = parseCommandLine(["--config-yaml", JSON.stringify(b), ...argv]);
  const logging = quiet();
  const load = validateConfiguration(options, logging, true, given);
  assert.deepEqual(load.errors, []);
  try {
    const s = await startServer(options, load.bootstrap, { logging, signals: false, given });
    await s.shutdown();
    assert.fail("serve started");
  } catch (e) {
    if (!(e instanceof ConfigLoadError)) throw e;
    return e.errors.map(formatConfigError);
  } finally {
    logging.close();
  }
}

function assertRefused(c: Case, lines: string[]) {
  const hit = lines.find((l) => {
    const colon = l.indexOf(": ");
    const path = l.slice(0, colon);
    return (c.path === path || c.path.startsWith(`${path}.`) || c.path.startsWith(`${path}[`)) &&
      l.includes("is not supported by this build");
  });
  assert.ok(hit, `${c.what}: no refusal naming ${c.path}; got:\n${lines.join("\n")}`);
}

Deno.test("support: the walking test's minimal bootstrap itself is valid and served as written", () => {
  assert.deepEqual(validate(bootstrap()), []);
});

/** Checks every case; reports all that fail at once. */
async function checkAll(cases: Case[]) {
  const failed: string[] = [];
  for (const c of cases) {
    try {
      const v = validate(c.bootstrap);
      assertRefused(c, v);
      assert.deepEqual(await serve(c.bootstrap), v, c.what);
    } catch (e) {
      failed.push(e instanceof Error ? e.message : String(e));
    }
  }
  assert.deepEqual(failed, []);
}

Deno.test("support: every refused cluster field is an error in --mode validate and refused by serve with the same messages", async () => {
  const cases = clusterCases();
  // One case per refused row: fewer as features land, but the walk must find some.
  assert.ok(cases.length > 20, `only ${cases.length} refused cluster rows were walked`);
  await checkAll(cases);
});

Deno.test("support: every refused field of the support table is an error in --mode validate and refused by serve with the same messages", async () => {
  const cases = supportCases();
  assert.ok(cases.length > 50);
  await checkAll(cases);
});

Deno.test("support: a field a closed message does not list is refused like a refused row", async () => {
  const b = bootstrap();
  hcm(b).bogus_setting = true;
  const c = { what: "unlisted", bootstrap: b, path: `${HCM_PATH}.bogus_setting` };
  const v = validate(b);
  assertRefused(c, v);
  assert.deepEqual(await serve(b), v);
});

Deno.test("support: command-line options marked default-only are refused above their default in both modes", async () => {
  const cases: [string[], string][] = [];
  for (const row of OPTIONS as readonly OptionRow[]) {
    if (row.support === "refused" || row.support === "default-only") {
      assert.ok(cases.some(([, p]) => p === row.long), `no case for ${row.long}`);
    }
  }
  for (const [argv, path] of cases) {
    const c = { what: path, bootstrap: bootstrap(), path };
    const v = validate(c.bootstrap, argv);
    assertRefused(c, v);
    assert.deepEqual(await serve(c.bootstrap, argv), v);
  }
});

Deno.test("cli.options.concurrency: unset, the hardware thread count of workers runs on the command line whatever the bootstrap holds; an embedded server runs one worker and a log line says why", async () => {
  const { options, given } = parseCommandLine(["--config-yaml", "{}", "-l", "info"]);
  assert.ok(!given.has("--concurrency"));
  options.concurrency = 2; // what the parser computes on a machine with two hardware threads
  assert.equal(effectiveOptions(options, given).options.concurrency, 2);
  assert.equal(effectiveOptions(options, given).why, null);
  const lines: string[] = [];
  const logging = createLogging(options, {
    sink: { write: (l) => lines.push(l), reopen: () => Promise.resolve(), close() {} },
  });
  const s = await startServer(options, {}, { logging, signals: false });
  try {
    // Embedded (no command line given): one worker, said in the log.
    assert.equal(s.context.options.concurrency, 1);
    assert.equal(s.context.stats.gauge("server.concurrency").value(), 1);
    assert.ok(lines.some((l) => l.includes("concurrency is 1, not 2")), lines.join("\n"));
  } finally {
    await s.shutdown();
    logging.close();
  }
});

/** Runs the real binary; returns its exit code and both streams. */
async function run(args: string[]): Promise<{ code: number; text: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("mod.ts", ROOT).pathname, ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const d = new TextDecoder();
  return { code: out.code, text: d.decode(out.stdout) + d.decode(out.stderr) };
}

Deno.test("support: real processes: validate exits 1 and serve refuses, naming the path, for a few refused settings", async () => {
  const hc = clusterCases().find((c) => c.what === "cluster.objects.core.health-check.alt-port")!;
  const lrc = supportCases().find((c) => c.what === "HttpConnectionManager.tracing")!;
  const wd = supportCases().find((c) => c.what === "Bootstrap.watchdog")!;
  const refusals = [hc, lrc, wd].flatMap((c) =>
    ["validate", "serve"].map((mode) => ({ c, mode, yaml: JSON.stringify(c.bootstrap) }))
  );
  // LDS runs with workers: the main thread holds it (src/server/worker_listeners.ts).
  const lds = JSON.stringify({ dynamic_resources: { lds_config: { path: "/nonexistent.yaml" } } });
  // Independent processes: they run side by side.
  const [r, ok, ...refused] = await Promise.all([
    run(["--mode", "validate", "--config-yaml", lds, "--concurrency", "3"]),
    run(["--mode", "validate", "--config-yaml", "{}", "--concurrency", "3"]),
    ...refusals.map(({ mode, yaml }) =>
      run(["--mode", mode, "--config-yaml", yaml, "-l", "error"])
    ),
  ]);
  for (const [i, { c, mode }] of refusals.entries()) {
    const expected = validate(c.bootstrap);
    assert.equal(refused[i].code, 1, `${c.what} --mode ${mode}: ${refused[i].text}`);
    for (const line of expected) {
      assert.ok(refused[i].text.includes(line), `${mode}: ${line}\n${refused[i].text}`);
    }
  }
  assert.equal(r.code, 0, r.text);
  assert.equal(ok.code, 0, ok.text);
});

Deno.test("support: every honoured field names the test that observes its effect", async () => {
  const honoured = [
    ...([...CLUSTER_FIELDS, ...CLUSTER_OBJECTS] as readonly FieldRow[])
      .filter((r) => r.support === "honoured").map((r) => `${r.message}.${r.field}`),
    ...(SUPPORT as readonly SupportRow[]).filter((r) => r.support === "honoured").map((r) =>
      r.path
    ),
  ];
  const missing = honoured.filter((f) => !HONOURED[f]);
  assert.deepEqual(missing, [], "honoured fields without a test that observes their effect");
  const files = new Map<string, string>();
  for (const [field, [file, name]] of Object.entries(HONOURED)) {
    assert.ok(honoured.includes(field), `${field} is not an honoured field`);
    if (!files.has(file)) files.set(file, await Deno.readTextFile(new URL(file, ROOT)));
    assert.ok(files.get(file)!.includes(name), `${field}: no test "${name}" in ${file}`);
  }
});

Deno.test("support: observed effects: stats_server_version_override is server.version; cluster_type selects the behaviour of its discovery type", async () => {
  const b = bootstrap();
  b.stats_server_version_override = 4242;
  const c = c0(b);
  delete c.type;
  c.cluster_type = { name: "envoy.cluster.static" };
  const { options, given } = parseCommandLine(["--config-yaml", "{}", "-l", "off"]);
  const logging = quiet();
  const s = await startServer(options, b, { logging, signals: false, given });
  try {
    s.context.stats.flush();
    assert.equal(s.context.stats.gauge("server.version").value(), 4242);
    const cl = s.context.clusters.clusters().find((x) => x.name === "c")!;
    assert.equal(cl.hosts().length, 1);
    assert.equal(cl.hosts()[0].port, 1);
  } finally {
    await s.shutdown();
    logging.close();
  }
});
