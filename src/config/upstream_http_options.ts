/**
 * The upstream HTTP protocol a cluster asks for, read from one of two places: the typed
 * protocol options Envoy's v3 API prefers
 * (`typed_extension_protocol_options["envoy.extensions.upstreams.http.v3.HttpProtocolOptions"]`,
 * with `explicit_http_config`, `use_downstream_protocol_config` or `auto_config`), or the cluster's own
 * `http2_protocol_options` and `protocol_selection`. Envoy reads the typed options when they are
 * there and then ignores the cluster's own fields; this build refuses the mix instead
 * ({@linkcode mixedProtocolFields}), so no setting is silently dropped.
 *
 * With `use_downstream_protocol_config`, HTTP/2 downstream requests go upstream over HTTP/2 only
 * when its `http2_protocol_options` is set (else HTTP/1.1), as in Envoy. With `auto_config`
 * (TLS clusters only), each host speaks what its TLS handshake chooses by ALPN: HTTP/2 for `h2`,
 * else HTTP/1.1.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { upstreamHttpOf } from "./upstream_http_options.ts";
 * const typed = upstreamHttpOf({
 *   typed_extension_protocol_options: {
 *     "envoy.extensions.upstreams.http.v3.HttpProtocolOptions": {
 *       "@type": "type.googleapis.com/envoy.extensions.upstreams.http.v3.HttpProtocolOptions",
 *       explicit_http_config: { http2_protocol_options: { hpack_table_size: 0 } },
 *     },
 *   },
 * });
 * assert.deepEqual(typed, {
 *   http2: { hpack_table_size: 0 },
 *   http2Path:
 *     "typed_extension_protocol_options.envoy.extensions.upstreams.http.v3.HttpProtocolOptions.explicit_http_config.http2_protocol_options",
 *   useDownstream: false,
 * });
 * assert.deepEqual(upstreamHttpOf({ http2_protocol_options: {} }), {
 *   http2: {},
 *   http2Path: "http2_protocol_options",
 *   useDownstream: false,
 * });
 * ```
 * @module
 */
import { isJsonObject as isObject, parseDuration } from "./values.ts";

/** The key (and the message) of the upstream HTTP protocol options. */
export const HTTP_PROTOCOL_OPTIONS = "envoy.extensions.upstreams.http.v3.HttpProtocolOptions";

/** The `@type` of its value. */
export const HTTP_PROTOCOL_OPTIONS_TYPE = `type.googleapis.com/${HTTP_PROTOCOL_OPTIONS}`;

/** Keys that name the upstream HTTP protocol options: the message, or the extension's name. */
export const HTTP_PROTOCOL_OPTIONS_KEYS: readonly string[] = [
  HTTP_PROTOCOL_OPTIONS,
  "envoy.upstreams.http.http_protocol_options",
];

/** The protocol choices of `HttpProtocolOptions`: exactly one is set. */
export const PROTOCOL_CHOICES = [
  "explicit_http_config",
  "use_downstream_protocol_config",
  "auto_config",
] as const;

type Obj = Record<string, unknown>;

/** What a cluster's upstream HTTP connections speak. */
export interface UpstreamHttp {
  /** The `core.Http2ProtocolOptions` in effect, when requests may go over HTTP/2. */
  http2?: Obj;
  /** Where that object is, relative to the cluster (for error paths). */
  http2Path?: string;
  /** HTTP/2 only when the downstream request came over HTTP/2. */
  useDownstream: boolean;
  /** `auto_config`: HTTP/2 with hosts whose TLS handshake chooses `h2` by ALPN, else HTTP/1.1. */
  auto?: boolean;
}

/** The typed HTTP protocol options of a cluster and their key, when it has them. */
export function typedHttpOptions(c: Obj): { key: string; value: Obj } | undefined {
  const m = c.typed_extension_protocol_options ?? c.typedExtensionProtocolOptions;
  if (!isObject(m)) return undefined;
  for (const key of HTTP_PROTOCOL_OPTIONS_KEYS) {
    const v = m[key];
    if (isObject(v)) return { key, value: v };
  }
  return undefined;
}

const set = (v: unknown) => v !== undefined && v !== null;

/** JSON (camelCase) names of the proto names {@linkcode field} looked up, computed once each. */
const CAMEL = new Map<string, string>();

/** A field of `o` by its proto name or its JSON (camelCase) name. */
function field(o: Obj, name: string): unknown {
  if (name in o) return o[name];
  let camel = CAMEL.get(name);
  if (camel === undefined) {
    camel = name.replace(/_([a-z])/g, (_, ch: string) => ch.toUpperCase());
    CAMEL.set(name, camel);
  }
  return o[camel];
}

/** The upstream HTTP protocol of cluster `c` (proto3 JSON). */
export function upstreamHttpOf(c: Obj): UpstreamHttp {
  const typed = typedHttpOptions(c);
  if (typed !== undefined) {
    const base = `typed_extension_protocol_options.${typed.key}`;
    for (const choice of PROTOCOL_CHOICES) {
      const cfg = field(typed.value, choice);
      if (!isObject(cfg)) continue;
      const auto = choice === "auto_config";
      const h2 = field(cfg, "http2_protocol_options");
      if (!isObject(h2)) {
        return auto ? { http2: {}, useDownstream: false, auto } : { useDownstream: false };
      }
      return {
        http2: h2,
        http2Path: `${base}.${choice}.http2_protocol_options`,
        useDownstream: choice === "use_downstream_protocol_config",
        ...(auto ? { auto } : {}),
      };
    }
    return { useDownstream: false };
  }
  const h2 = c.http2_protocol_options ?? c.http2ProtocolOptions;
  const sel = c.protocol_selection ?? c.protocolSelection;
  const useDownstream = sel === "USE_DOWNSTREAM_PROTOCOL" || sel === 1;
  if (!set(h2)) return { useDownstream };
  return { http2: isObject(h2) ? h2 : {}, http2Path: "http2_protocol_options", useDownstream };
}

/**
 * `enable_trailers` of the cluster's HTTP/1.1 options (`core.Http1ProtocolOptions` in the typed
 * HTTP protocol options, else the cluster's own `http_protocol_options`): as in Envoy, the
 * HTTP/1 codec reads response trailers and writes request trailers only when it is set.
 */
export function http1TrailersOf(c: Obj): boolean {
  const typed = typedHttpOptions(c);
  let h1: unknown;
  if (typed !== undefined) {
    for (const choice of PROTOCOL_CHOICES) {
      const cfg = field(typed.value, choice);
      if (isObject(cfg)) h1 = field(cfg, "http_protocol_options");
    }
  } else h1 = field(c, "http_protocol_options");
  if (!isObject(h1)) return false;
  const v = field(h1, "enable_trailers");
  return v === true || (isObject(v) && v.value === true);
}

/** A duration in ms, undefined when unset or not a duration (the validator reports those). */
function durationMs(v: unknown): number | undefined {
  const d = parseDuration(v);
  return d.ok ? d.value : undefined;
}

/** Envoy's default `max_headers_count` (of responses here). */
export const MAX_HEADERS_COUNT = 100;

/** Envoy's default idle timeout of upstream HTTP connections (`common_http_protocol_options`). */
export const UPSTREAM_IDLE_TIMEOUT_MS = 3_600_000;

/** The connection limits of a cluster's upstream HTTP connections (`core.HttpProtocolOptions`). */
export interface UpstreamConnectionLimits {
  /** Idle connections close after this long; 0 never. */
  idleTimeoutMs: number;
  /** Connections stop taking requests after this long; 0 never. */
  maxConnectionDurationMs: number;
  /** Requests per connection from the common options; undefined when they do not set it. */
  maxRequestsPerConnection?: number;
  /** `max_stream_duration`: each request (stream) is reset after this long; 0 never. */
  maxStreamDurationMs: number;
  /** `max_headers_count` of responses (Envoy's default 100). */
  maxHeadersCount: number;
  /** The common options as configured, and where they are relative to the cluster. */
  options?: Obj;
  path?: string;
}

/**
 * The `common_http_protocol_options` of a cluster (inside its typed HTTP protocol options, else
 * its own), with Envoy's defaults: idle connections close after an hour.
 */
export function connectionLimitsOf(c: Obj): UpstreamConnectionLimits {
  const typed = typedHttpOptions(c);
  const path = typed
    ? `typed_extension_protocol_options.${typed.key}.common_http_protocol_options`
    : "common_http_protocol_options";
  const o = field(typed ? typed.value : c, "common_http_protocol_options");
  if (!isObject(o)) {
    return {
      idleTimeoutMs: UPSTREAM_IDLE_TIMEOUT_MS,
      maxConnectionDurationMs: 0,
      maxStreamDurationMs: 0,
      maxHeadersCount: MAX_HEADERS_COUNT,
    };
  }
  const raw = field(o, "max_requests_per_connection");
  const max = Number(isObject(raw) ? raw.value : raw);
  const rawHeaders = field(o, "max_headers_count");
  const headers = Number(isObject(rawHeaders) ? rawHeaders.value : rawHeaders);
  return {
    idleTimeoutMs: durationMs(field(o, "idle_timeout")) ?? UPSTREAM_IDLE_TIMEOUT_MS,
    maxConnectionDurationMs: durationMs(field(o, "max_connection_duration")) ?? 0,
    maxStreamDurationMs: durationMs(field(o, "max_stream_duration")) ?? 0,
    maxHeadersCount: set(rawHeaders) && Number.isInteger(headers) && headers >= 1
      ? headers
      : MAX_HEADERS_COUNT,
    ...(set(raw) && Number.isInteger(max) ? { maxRequestsPerConnection: max } : {}),
    options: o,
    path,
  };
}

/** The cluster's own protocol fields that the typed options replace. */
const CLUSTER_PROTOCOL_FIELDS = [
  "http_protocol_options",
  "http2_protocol_options",
  "common_http_protocol_options",
  "upstream_http_protocol_options",
  "protocol_selection",
] as const;

/**
 * The cluster's own protocol fields set beside typed HTTP protocol options (Envoy would ignore
 * them); `protocol_selection` at its default is not counted.
 */
export function mixedProtocolFields(c: Obj): string[] {
  if (typedHttpOptions(c) === undefined) return [];
  return CLUSTER_PROTOCOL_FIELDS.filter((f) => {
    const v = field(c, f);
    if (!set(v)) return false;
    return !(f === "protocol_selection" && (v === "USE_CONFIGURED_PROTOCOL" || v === 0));
  });
}
