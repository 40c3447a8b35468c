/**
 * The support check: every configuration field that is set and that this build does not honour
 * is an error naming its path, "`<field>` is not supported by this build" and the row's note.
 * It reads one place, the `support` column: on the cluster field and object rows
 * (`spec/cluster/`) and in the `support` table (`spec/support.ts`) for the rest of the bootstrap.
 * A message with rows in the `support` table is closed: a field it does not list is refused.
 * `default-only` fields are accepted when their value is one the row accepts (a harmless explicit
 * default).
 *
 * `--mode validate` and serve both run it (through `src/server/configuration_check.ts`), so
 * they agree on every message.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { supportErrors } from "./support_check.ts";
 * const errors = supportErrors({ watchdog: { miss_timeout: "1s" } });
 * assert.equal(errors[0].path, "watchdog");
 * ```
 * @module
 */
import { camelToSnake as snakeName } from "./nested_schema.ts";
import type { FieldRow, Support } from "../../spec/rule.ts";
import { SUPPORT, type SupportRow } from "../../spec/support.ts";
import type { ConfigError } from "./errors.ts";
import { MESSAGES } from "./nested_schema.ts";
import { isAggregate } from "./aggregate_cluster.ts";
import { isJsonObject as isObject, parseDuration } from "./values.ts";
import {
  HTTP_PROTOCOL_OPTIONS,
  HTTP_PROTOCOL_OPTIONS_KEYS,
  HTTP_PROTOCOL_OPTIONS_TYPE,
  mixedProtocolFields,
  PROTOCOL_CHOICES,
} from "./upstream_http_options.ts";

/** The `support` table indexed by message, then field. */
export const SUPPORT_MESSAGES: ReadonlyMap<string, ReadonlyMap<string, SupportRow>> = (() => {
  const m = new Map<string, Map<string, SupportRow>>();
  for (const r of SUPPORT as readonly SupportRow[]) {
    const dot = r.path.lastIndexOf(".");
    const msg = r.path.slice(0, dot);
    const fields = m.get(msg) ?? new Map<string, SupportRow>();
    fields.set(r.path.slice(dot + 1), r);
    m.set(msg, fields);
  }
  return m;
})();

/** The refusal message of a field. */
export function refusal(field: string, note?: string): string {
  return `${field} is not supported by this build${note ? ` (${note})` : ""}`;
}

/** What the check needs of one field: its support, note, accepted values and value type. */
interface FieldSupport {
  id: string;
  support: Support;
  note?: string;
  accepts: readonly unknown[];
  type?: string;
  repeated: boolean;
  map: boolean;
  kind?: string;
}

/** `camelCase` to `snake_case`, remembered per key (a configuration repeats few distinct keys). */
function camelToSnake(k: string): string {
  let s = SNAKE.get(k);
  if (s === undefined) {
    if (SNAKE.size >= 4096) SNAKE.clear(); // bounded: xDS updates may bring new keys forever
    SNAKE.set(k, s = snakeName(k));
  }
  return s;
}

const SNAKE = new Map<string, string>();

function fromClusterRow(r: FieldRow): FieldSupport {
  return {
    id: r.id,
    support: r.support ?? "honoured",
    note: r.supportNote,
    accepts: "default" in r ? [r.default] : [],
    type: r.kind === "message" ? r.type : undefined,
    repeated: r.cardinality === "repeated",
    map: r.cardinality === "map",
    kind: r.kind,
  };
}

/**
 * The support of `field` in `message`: null when the message has no rows at all, or when a
 * cluster message does not know the field (the validator reports unknown fields); `unlisted`
 * for a field a closed `support` message does not list.
 */
function lookup(message: string, field: string): FieldSupport | null | "unlisted" {
  let fields = LOOKUPS.get(message);
  if (!fields) LOOKUPS.set(message, fields = new Map());
  let f = fields.get(field);
  if (f === undefined) {
    if (fields.size >= 4096) fields.clear(); // bounded: unknown field names are the input's
    fields.set(field, f = lookupRow(message, field));
  }
  return f;
}

/** {@linkcode lookup}'s answers, by message and field (the tables do not change). */
const LOOKUPS = new Map<string, Map<string, FieldSupport | null | "unlisted">>();

function lookupRow(message: string, field: string): FieldSupport | null | "unlisted" {
  const rows = MESSAGES.get(message);
  if (rows) {
    const r = rows.find((x) => x.field === field);
    return r ? fromClusterRow(r) : null;
  }
  const table = SUPPORT_MESSAGES.get(message);
  if (!table) return null;
  const r = table.get(field) ?? table.get("*");
  if (!r) return "unlisted";
  return {
    id: "",
    support: r.support,
    note: r.supportNote,
    accepts: r.accepts ?? [],
    type: r.type,
    repeated: false,
    map: false,
  };
}

/** Plain values of proto3 JSON for comparison: wrappers unwrapped, durations in ms. */
function plain(v: unknown, kind?: string): unknown {
  if (isObject(v) && Object.keys(v).length === 1 && "value" in v) return plain(v.value, kind);
  if (typeof v === "string" && (kind === "duration" || /^\d+(\.\d+)?s$/.test(v))) {
    const d = parseDuration(v);
    if (d.ok) return d.value;
  }
  return v;
}

function accepted(f: FieldSupport, v: unknown): boolean {
  let accepts = ACCEPTS.get(f);
  if (!accepts) {
    ACCEPTS.set(
      f,
      accepts = new Set(f.accepts.map((a) => JSON.stringify(plain(a, f.kind)))),
    );
  }
  return accepts.has(JSON.stringify(plain(v, f.kind)));
}

/** Each field's accepted values in {@linkcode accepted}'s form, made once (the rows do not change). */
const ACCEPTS = new WeakMap<FieldSupport, ReadonlySet<string | undefined>>();

/** Transport socket names that select TLS, and the plain one. */
const TLS_SOCKETS = /^(envoy\.|proxy\.)?(transport_sockets\.)?tls$/;
const RAW_SOCKETS = /^(envoy\.|proxy\.)?(transport_sockets\.)?raw_buffer$/;

/** A filter's kind from its name or the `@type` of its typed_config. */
function filterKind(parent: Record<string, unknown>): string {
  const t = isObject(parent.typed_config) ? parent.typed_config["@type"] : undefined;
  const byType = typeof t === "string" ? t.slice(t.lastIndexOf(".") + 1) : "";
  const name = typeof parent.name === "string" ? parent.name : "";
  const kind = name.replace(/^(envoy|proxy)\./, "").replace(/^filters\.(network|http)\./, "");
  return byType || kind;
}

/** The message a `@...` type stands for, given the object that holds the field. */
const DISPATCH: Record<string, (parent: Record<string, unknown>) => string | null> = {
  "@network": (p) =>
    ({
      http_connection_manager: "HttpConnectionManager",
      HttpConnectionManager: "HttpConnectionManager",
      tcp_proxy: "TcpProxy",
      TcpProxy: "TcpProxy",
    })[filterKind(p)] ?? null,
  "@http": (p) =>
    ({
      router: "Router",
      Router: "Router",
      health_check: "HealthCheckFilter",
      HealthCheck: "HealthCheckFilter",
      tap: "TapFilter",
      Tap: "TapFilter",
    })[filterKind(p)] ?? null,
};

/** Walks one object of `message` at `path`, pushing every refusal. */
function walk(
  message: string,
  value: Record<string, unknown>,
  path: string,
  out: ConfigError[],
): void {
  for (const rawKey in value) {
    if (!Object.hasOwn(value, rawKey)) continue;
    const v = value[rawKey];
    // proto3: null, and an empty list or map, are unset.
    if (rawKey === "@type" || v === undefined || v === null) continue;
    if (Array.isArray(v) && v.length === 0) continue;
    const key = camelToSnake(rawKey);
    let f = lookup(message, rawKey);
    if ((f === null || f === "unlisted") && key !== rawKey) f = lookup(message, key);
    if (f === null) continue;
    // The field's path, built when something is reported or walked (most fields are leaves).
    if (f === "unlisted") {
      out.push({ path: `${path}.${rawKey}`, rule: "", message: refusal(key) });
      continue;
    }
    if (
      message === "Cluster.CustomClusterType" && key === "typed_config" &&
      isAggregate({ cluster_type: value })
    ) {
      continue; // The aggregate cluster's ClusterConfig (checked with the cluster rules).
    }
    if (f.support === "refused" || (f.support === "default-only" && !accepted(f, v))) {
      out.push({ path: `${path}.${rawKey}`, rule: f.id, message: refusal(key, f.note) });
      continue;
    }
    const special = SPECIAL_FIELDS.get(message)?.get(key);
    if (special) {
      special(value, v, `${path}.${rawKey}`, out);
      continue;
    }
    let type = f.type;
    if (type?.startsWith("@")) {
      type = DISPATCH[type]?.(value) ?? undefined;
      if (!type) continue;
    }
    if (!type) continue;
    const at = `${path}.${rawKey}`;
    if (Array.isArray(v)) {
      v.forEach((x, i) => {
        if (isObject(x)) walk(type!, x, `${at}[${i}]`, out);
      });
    } else if (f.map && isObject(v)) {
      for (const [k, x] of Object.entries(v)) if (isObject(x)) walk(type, x, `${at}.${k}`, out);
    } else if (isObject(v)) walk(type, v, at, out);
  }
}

/** Fields whose value decides what it is (a name that selects an implementation). */
const SPECIAL: Record<
  string,
  (parent: Record<string, unknown>, v: unknown, at: string, out: ConfigError[]) => void
> = {
  // A transport socket: tls (its config is an UpstreamTlsContext) or raw_buffer.
  "core.TransportSocket.name": (_p, v, at, out) => {
    if (typeof v === "string" && !TLS_SOCKETS.test(v) && !RAW_SOCKETS.test(v)) {
      out.push({ path: at, rule: "", message: refusal(`transport socket ${v}`) });
    }
  },
  "core.TransportSocket.typed_config": (p, v, at, out) => tlsConfig(p, v, at, out),
  "core.TransportSocket.config": (p, v, at, out) => tlsConfig(p, v, at, out),
  // A filter chain's transport socket: tls (a DownstreamTlsContext) or raw_buffer.
  "DownstreamTransportSocket.name": (_p, v, at, out) => {
    if (typeof v === "string" && !TLS_SOCKETS.test(v) && !RAW_SOCKETS.test(v)) {
      out.push({ path: at, rule: "", message: refusal(`transport socket ${v}`) });
    }
  },
  "DownstreamTransportSocket.typed_config": (p, v, at, out) =>
    tlsConfig(p, v, at, out, "auth.DownstreamTlsContext"),
  "DownstreamTransportSocket.config": (p, v, at, out) =>
    tlsConfig(p, v, at, out, "auth.DownstreamTlsContext"),
  "Cluster.typed_extension_protocol_options": (p, v, at, out) => protocolOptions(p, v, at, out),
  "StatsSink.name": (_p, v, at, out) => {
    const kind = typeof v === "string" ? v.replace(/^(envoy|proxy)\./, "") : "";
    if (!/^(stat_sinks\.)?hystrix$/.test(kind)) {
      out.push({
        path: at,
        rule: "",
        message: refusal(`stats sink ${String(v)}`, "the hystrix sink only"),
      });
    }
  },
};

/**
 * A cluster's typed protocol options: the upstream HTTP protocol options only (walked as the
 * `upstreams.HttpProtocolOptions` message), one protocol choice, and none of the cluster's own
 * protocol fields beside them.
 */
function protocolOptions(p: Record<string, unknown>, v: unknown, at: string, out: ConfigError[]) {
  if (!isObject(v)) return;
  for (const [key, val] of Object.entries(v)) {
    const kat = `${at}.${key}`;
    if (!HTTP_PROTOCOL_OPTIONS_KEYS.includes(key)) {
      const note = `only ${HTTP_PROTOCOL_OPTIONS} has protocol options here`;
      out.push({ path: kat, rule: "", message: refusal(`protocol options ${key}`, note) });
      continue;
    }
    if (!isObject(val)) continue;
    const type = val["@type"];
    if (type !== undefined && type !== HTTP_PROTOCOL_OPTIONS_TYPE) {
      out.push({
        path: `${kat}.@type`,
        rule: "",
        message: `${key} takes a ${HTTP_PROTOCOL_OPTIONS_TYPE}, not ${String(type)}`,
      });
      continue;
    }
    const chosen = PROTOCOL_CHOICES.filter((c) =>
      [c, camelOf(c)].some((k) => val[k] !== undefined && val[k] !== null)
    );
    if (chosen.length !== 1) {
      out.push({
        path: kat,
        rule: "",
        message: `exactly one of ${PROTOCOL_CHOICES.join(", ")} must be set (${
          chosen.length === 0 ? "none is" : chosen.join(" and ") + " are"
        })`,
      });
    }
    if (chosen.length === 1 && chosen[0] === "auto_config" && !hasTlsTransport(p)) {
      out.push({
        path: `${kat}.auto_config`,
        rule: "",
        message: `ALPN configured for cluster ${
          String(p.name ?? "")
        } which has a non-ALPN transport socket (auto_config needs a TLS transport_socket)`,
      });
    }
    walk("upstreams.HttpProtocolOptions", val, kat, out);
  }
  const cluster = at.slice(0, at.lastIndexOf("."));
  for (const f of mixedProtocolFields(p)) {
    out.push({
      path: `${cluster}.${f}`,
      rule: "",
      message:
        `${f} cannot be set beside typed_extension_protocol_options.${HTTP_PROTOCOL_OPTIONS} (Envoy would ignore it; set it inside the typed options)`,
    });
  }
}

/** Whether cluster `p` connects over TLS (a TLS `transport_socket`, or the v2 `tls_context`). */
function hasTlsTransport(p: Record<string, unknown>): boolean {
  if (p.tls_context !== undefined || p.tlsContext !== undefined) return true;
  const ts = p.transport_socket ?? p.transportSocket;
  if (!isObject(ts)) return false;
  if (typeof ts.name === "string" && TLS_SOCKETS.test(ts.name)) return true;
  const tc = ts.typed_config ?? ts.typedConfig;
  return isObject(tc) && typeof tc["@type"] === "string" &&
    tc["@type"].endsWith(".UpstreamTlsContext");
}

const camelOf = (s: string) => s.replace(/_([a-z])/g, (_, ch: string) => ch.toUpperCase());

/** {@linkcode SPECIAL} by message, then field (no key string built per field walked). */
const SPECIAL_FIELDS: ReadonlyMap<string, ReadonlyMap<string, (typeof SPECIAL)[string]>> = (() => {
  const out = new Map<string, Map<string, (typeof SPECIAL)[string]>>();
  for (const [k, f] of Object.entries(SPECIAL)) {
    const dot = k.lastIndexOf(".");
    const fields = out.get(k.slice(0, dot)) ?? new Map();
    fields.set(k.slice(dot + 1), f);
    out.set(k.slice(0, dot), fields);
  }
  return out;
})();

function tlsConfig(
  p: Record<string, unknown>,
  v: unknown,
  at: string,
  out: ConfigError[],
  message = "auth.UpstreamTlsContext",
) {
  if (typeof p.name === "string" && TLS_SOCKETS.test(p.name) && isObject(v)) {
    walk(message, v, at, out);
  }
}

/**
 * The refusals of a whole bootstrap outside its clusters (proto field names at the bootstrap
 * level; listeners as configured). Error paths start at the bootstrap's own fields. Clusters are
 * checked with {@linkcode clusterSupportErrors} once they are valid.
 */
export function supportErrors(bootstrap: Record<string, unknown>): ConfigError[] {
  const out: ConfigError[] = [];
  for (const [k, v] of Object.entries(bootstrap)) {
    if (v === undefined || v === null) continue;
    // Walk each top-level field under the root name so that paths start at the field.
    const one: ConfigError[] = [];
    walk("Bootstrap", { [k]: v }, "", one);
    for (const e of one) out.push({ ...e, path: e.path.replace(/^\./, "") });
  }
  return out;
}

/**
 * The refusals of one object of a described message (an EDS `ClusterLoadAssignment` resource,
 * say) at `path`.
 */
export function messageSupportErrors(
  message: string,
  value: Record<string, unknown>,
  path: string,
): ConfigError[] {
  const out: ConfigError[] = [];
  walk(message, value, path, out);
  return out;
}

/** The refusals of clusters (`path` is the clusters array, e.g. `resources` for CDS). */
export function clusterSupportErrors(
  clusters: readonly Record<string, unknown>[],
  path: string,
): ConfigError[] {
  const out: ConfigError[] = [];
  clusters.forEach((c, i) => walk("Cluster", c, `${path}[${i}]`, out));
  return out;
}
