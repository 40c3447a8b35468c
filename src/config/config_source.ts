/**
 * What a `core.ConfigSource` asks for, read once so the managers do not each re-parse it: a file
 * (`path`, v3 `path_config_source.path`), the aggregated stream (`ads: {}`, over the bootstrap's
 * `dynamic_resources.ads_config`) or a stream of its own (`api_config_source` with `api_type`
 * `GRPC` or `DELTA_GRPC` and one `grpc_services[]` entry: `envoy_grpc.cluster_name` or
 * `google_grpc` with `target_uri`, `stat_prefix` and `channel_credentials`), or polling over REST
 * (`api_type: REST`, one `cluster_names` entry, `refresh_delay`, `request_timeout` default 1 s).
 * Everything else a control plane could be reached by (`self`, call credentials, rate limits,
 * validators, per-service timeouts and metadata) is refused with its path, never ignored.
 * `initial_fetch_timeout` (default 15 s, 0 waits forever) bounds how long start-up waits for the
 * first update; `set_node_on_first_message_only` sends the node on a stream's first request only.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { configSourceOf } from "./config_source.ts";
 * const s = configSourceOf({
 *   api_config_source: {
 *     api_type: "GRPC",
 *     grpc_services: [{ envoy_grpc: { cluster_name: "xds" } }],
 *   },
 * }, "dynamic_resources.cds_config");
 * assert.deepEqual(s, {
 *   ok: true,
 *   spec: {
 *     kind: "grpc",
 *     delta: false,
 *     service: { kind: "envoy_grpc", clusterName: "xds" },
 *     initialFetchTimeoutMs: 15000,
 *     nodeFirstOnly: false,
 *   },
 * });
 * ```
 * @module
 */
import { jsonName } from "./bootstrap_schema.ts";
import { camelToSnake } from "./nested_schema.ts";
import { isObject, parseDuration } from "./values.ts";

/** gRPC channel credentials of a `google_grpc` service (PEM text read from the DataSources). */
export type GrpcCredentials =
  | { kind: "insecure" }
  | { kind: "local" }
  | { kind: "ssl"; rootCerts?: string; privateKey?: string; certChain?: string };

/** The gRPC service a stream goes to. */
export type GrpcTarget =
  | { kind: "envoy_grpc"; clusterName: string }
  | {
    kind: "google_grpc";
    targetUri: string;
    statPrefix: string;
    credentials: GrpcCredentials;
  };

/** An `ApiConfigSource`, read. */
export type ApiSource =
  | {
    type: "GRPC" | "DELTA_GRPC";
    service: GrpcTarget;
    /** `set_node_on_first_message_only`: the node goes on a stream's first request only. */
    nodeFirstOnly: boolean;
  }
  | { type: "REST"; clusterName: string; refreshDelayMs: number; requestTimeoutMs: number };

/** Where a subscription's updates come from. */
export type SourceSpec =
  | { kind: "path"; path: string }
  | { kind: "ads"; initialFetchTimeoutMs: number }
  | {
    kind: "grpc";
    delta: boolean;
    service: GrpcTarget;
    nodeFirstOnly: boolean;
    initialFetchTimeoutMs: number;
  }
  | {
    kind: "rest";
    clusterName: string;
    refreshDelayMs: number;
    requestTimeoutMs: number;
    initialFetchTimeoutMs: number;
  };

/** A source, or why it cannot be used (`at` is the field path). */
export type SourceResult =
  | { ok: true; spec: SourceSpec }
  | { ok: false; at: string; message: string };

/** An `ApiConfigSource` (an `api_config_source` or the bootstrap's `ads_config`). */
export type ApiSourceResult =
  | { ok: true; api: ApiSource }
  | { ok: false; at: string; message: string };

type Obj = Record<string, unknown>;
type Fail = { ok: false; at: string; message: string };
const obj = (v: unknown): Obj | undefined => isObject(v) ? v : undefined;
const get = (o: Obj | undefined, snake: string): unknown => o?.[snake] ?? o?.[jsonName(snake)];
const has = (o: Obj | undefined, snake: string) => get(o, snake) !== undefined;

/** The first field of `o` not in `known`, refused at `at`, or null. */
function unknownField(o: Obj | undefined, known: readonly string[], at: string, note: string) {
  for (const k of Object.keys(o ?? {})) {
    const snake = camelToSnake(k);
    if (!known.includes(snake)) {
      return {
        ok: false as const,
        at: `${at}.${k}`,
        message: `${snake} is not supported by this build (${note})`,
      };
    }
  }
  return null;
}

/** Reads a `core.DataSource` holding PEM text. */
function pemOf(v: unknown, at: string): { ok: true; text: string } | Fail {
  const s = obj(v);
  const file = get(s, "filename");
  if (typeof file === "string") {
    try {
      return { ok: true, text: Deno.readTextFileSync(file) };
    } catch (e) {
      return {
        ok: false,
        at: `${at}.filename`,
        message: `cannot read ${file}: ${(e as Error).message}`,
      };
    }
  }
  const inline = get(s, "inline_string");
  if (typeof inline === "string") return { ok: true, text: inline };
  const bytes = get(s, "inline_bytes");
  if (typeof bytes === "string") {
    try {
      return {
        ok: true,
        text: new TextDecoder().decode(Uint8Array.from(atob(bytes), (c) => c.charCodeAt(0))),
      };
    } catch {
      return { ok: false, at: `${at}.inline_bytes`, message: "inline_bytes is not valid base64" };
    }
  }
  return { ok: false, at, message: "a DataSource needs filename, inline_string or inline_bytes" };
}

/** Reads `google_grpc` at `at`. */
function googleGrpcOf(g: Obj | undefined, at: string): { ok: true; service: GrpcTarget } | Fail {
  const bad = unknownField(
    g,
    ["target_uri", "channel_credentials", "stat_prefix"],
    at,
    "google_grpc reads target_uri, channel_credentials and stat_prefix",
  );
  if (bad) return bad;
  const targetUri = get(g, "target_uri");
  if (typeof targetUri !== "string" || targetUri === "") {
    return { ok: false, at: `${at}.target_uri`, message: "target_uri must be a non-empty string" };
  }
  const statPrefix = get(g, "stat_prefix");
  if (typeof statPrefix !== "string" || statPrefix === "") {
    return {
      ok: false,
      at: `${at}.stat_prefix`,
      message: "stat_prefix must be a non-empty string",
    };
  }
  const cc = obj(get(g, "channel_credentials"));
  const ccAt = `${at}.channel_credentials`;
  let credentials: GrpcCredentials = { kind: "insecure" };
  if (cc) {
    const bad = unknownField(
      cc,
      ["ssl_credentials", "local_credentials"],
      ccAt,
      "ssl_credentials and local_credentials are",
    );
    if (bad) return bad;
    if (has(cc, "local_credentials")) credentials = { kind: "local" };
    const ssl = get(cc, "ssl_credentials");
    if (ssl !== undefined) {
      const sAt = `${ccAt}.ssl_credentials`;
      const s = obj(ssl);
      const bad = unknownField(
        s,
        ["root_certs", "private_key", "cert_chain"],
        sAt,
        "root_certs, private_key and cert_chain are",
      );
      if (bad) return bad;
      const out: { kind: "ssl"; rootCerts?: string; privateKey?: string; certChain?: string } = {
        kind: "ssl",
      };
      for (
        const [snake, key] of [["root_certs", "rootCerts"], ["private_key", "privateKey"], [
          "cert_chain",
          "certChain",
        ]] as const
      ) {
        const v = get(s, snake);
        if (v === undefined) continue;
        const pem = pemOf(v, `${sAt}.${snake}`);
        if (!pem.ok) return pem;
        out[key] = pem.text;
      }
      if ((out.privateKey === undefined) !== (out.certChain === undefined)) {
        return { ok: false, at: sAt, message: "private_key and cert_chain go together" };
      }
      credentials = out;
    }
  }
  if (credentials.kind === "local" && !/^(localhost|127\.|\[::1\]|unix:)/.test(targetUri)) {
    return {
      ok: false,
      at: `${at}.target_uri`,
      message: "local_credentials need a loopback or unix target",
    };
  }
  return { ok: true, service: { kind: "google_grpc", targetUri, statPrefix, credentials } };
}

/** Reads the one `grpc_services` entry at `at`. */
function grpcServiceOf(svc: Obj | undefined, at: string): { ok: true; service: GrpcTarget } | Fail {
  const bad = unknownField(
    svc,
    ["envoy_grpc", "google_grpc"],
    at,
    "envoy_grpc and google_grpc are",
  );
  if (bad) return bad;
  if (has(svc, "google_grpc")) {
    if (has(svc, "envoy_grpc")) {
      return { ok: false, at, message: "only one of envoy_grpc and google_grpc may be set" };
    }
    return googleGrpcOf(obj(get(svc, "google_grpc")), `${at}.google_grpc`);
  }
  const g = obj(get(svc, "envoy_grpc"));
  const name = get(g, "cluster_name");
  if (typeof name !== "string" || name === "") {
    return {
      ok: false,
      at: `${at}.envoy_grpc.cluster_name`,
      message: "a gRPC service needs envoy_grpc.cluster_name, the name of a static cluster",
    };
  }
  const bad2 = unknownField(
    g,
    ["cluster_name"],
    `${at}.envoy_grpc`,
    "envoy_grpc reads cluster_name",
  );
  if (bad2) return bad2;
  return { ok: true, service: { kind: "envoy_grpc", clusterName: name } };
}

/** Reads a duration field in ms, `dflt` when unset. */
function msOf(src: Obj, snake: string, at: string, dflt: number | undefined) {
  const v = get(src, snake);
  if (v === undefined) {
    return dflt === undefined
      ? {
        ok: false as const,
        at: `${at}.${snake}`,
        message: `${snake} is required for REST API configuration sources`,
      }
      : { ok: true as const, ms: dflt };
  }
  const d = parseDuration(v);
  if (!d.ok) return { ok: false as const, at: `${at}.${snake}`, message: d.error };
  if (d.value <= 0) {
    return { ok: false as const, at: `${at}.${snake}`, message: `${snake} must be greater than 0` };
  }
  return { ok: true as const, ms: d.value };
}

/** Reads an `ApiConfigSource` at `at`. */
export function apiSourceOf(source: unknown, at: string): ApiSourceResult {
  const src = obj(source);
  if (!src) return { ok: false, at, message: "must be an ApiConfigSource object" };
  const bad = unknownField(
    src,
    [
      "api_type",
      "transport_api_version",
      "grpc_services",
      "cluster_names",
      "refresh_delay",
      "request_timeout",
      "set_node_on_first_message_only",
    ],
    at,
    "control planes are reached by api_type, transport_api_version, grpc_services, " +
      "cluster_names, refresh_delay and request_timeout",
  );
  if (bad) return bad;
  const version = get(src, "transport_api_version");
  if (version !== undefined && version !== "V3" && version !== 2) {
    return {
      ok: false,
      at: `${at}.transport_api_version`,
      message: `transport_api_version ${JSON.stringify(version)} is not supported (V3 is)`,
    };
  }
  const firstOnly = get(src, "set_node_on_first_message_only");
  if (firstOnly !== undefined && typeof firstOnly !== "boolean") {
    return { ok: false, at: `${at}.set_node_on_first_message_only`, message: "must be a bool" };
  }
  const type = get(src, "api_type");
  if (type === "REST") {
    if (has(src, "grpc_services")) {
      return {
        ok: false,
        at: `${at}.grpc_services`,
        message: "grpc_services should not be specified for REST",
      };
    }
    const names = get(src, "cluster_names");
    if (
      !Array.isArray(names) || names.length !== 1 || typeof names[0] !== "string" || names[0] === ""
    ) {
      return {
        ok: false,
        at: `${at}.cluster_names`,
        message: "a REST source needs exactly one cluster name",
      };
    }
    const refresh = msOf(src, "refresh_delay", at, undefined);
    if (!refresh.ok) return refresh;
    const timeout = msOf(src, "request_timeout", at, 1000);
    if (!timeout.ok) return timeout;
    return {
      ok: true,
      api: {
        type: "REST",
        clusterName: names[0],
        refreshDelayMs: refresh.ms,
        requestTimeoutMs: timeout.ms,
      },
    };
  }
  if (type !== "GRPC" && type !== "DELTA_GRPC") {
    return {
      ok: false,
      at: `${at}.api_type`,
      message: `api_type ${
        JSON.stringify(type ?? "LEGACY_REST")
      } is not supported by this build (GRPC, DELTA_GRPC and REST are)`,
    };
  }
  for (const f of ["cluster_names", "refresh_delay", "request_timeout"]) {
    if (has(src, f)) {
      return { ok: false, at: `${at}.${f}`, message: `${f} should not be specified for gRPC` };
    }
  }
  const services = get(src, "grpc_services");
  if (!Array.isArray(services) || services.length !== 1) {
    return { ok: false, at: `${at}.grpc_services`, message: "exactly one gRPC service is needed" };
  }
  const svc = grpcServiceOf(obj(services[0]), `${at}.grpc_services[0]`);
  if (!svc.ok) return svc;
  return { ok: true, api: { type, service: svc.service, nodeFirstOnly: firstOnly === true } };
}

/** Reads a `ConfigSource` at `at`. */
export function configSourceOf(source: unknown, at: string): SourceResult {
  const src = obj(source);
  if (!src) return { ok: false, at, message: `${at} must be a ConfigSource object` };
  const path = get(src, "path") ?? get(obj(get(src, "path_config_source")), "path");
  if (typeof path === "string" && path !== "") return { ok: true, spec: { kind: "path", path } };
  let initialFetchTimeoutMs = 15000;
  const t = get(src, "initial_fetch_timeout");
  if (t !== undefined) {
    const d = parseDuration(t);
    if (!d.ok) return { ok: false, at: `${at}.initial_fetch_timeout`, message: d.error };
    initialFetchTimeoutMs = d.value;
  }
  if (has(src, "ads")) return { ok: true, spec: { kind: "ads", initialFetchTimeoutMs } };
  if (has(src, "api_config_source")) {
    const a = apiSourceOf(get(src, "api_config_source"), `${at}.api_config_source`);
    if (!a.ok) return a;
    const api = a.api;
    if (api.type === "REST") {
      const { clusterName, refreshDelayMs, requestTimeoutMs } = api;
      return {
        ok: true,
        spec: {
          kind: "rest",
          clusterName,
          refreshDelayMs,
          requestTimeoutMs,
          initialFetchTimeoutMs,
        },
      };
    }
    return {
      ok: true,
      spec: {
        kind: "grpc",
        delta: api.type === "DELTA_GRPC",
        service: api.service,
        nodeFirstOnly: api.nodeFirstOnly,
        initialFetchTimeoutMs,
      },
    };
  }
  if (has(src, "self")) {
    return {
      ok: false,
      at: `${at}.self`,
      message: "a self config source is not supported by this build (use ads or " +
        "api_config_source)",
    };
  }
  return {
    ok: false,
    at,
    message: "no config source set; set path, ads or api_config_source",
  };
}
