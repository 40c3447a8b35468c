/**
 * One static listener parsed from the bootstrap: name, bound address, traffic direction and its
 * filter chains (each an `http_connection_manager` or a `tcp_proxy`, `envoy.` or `proxy.`
 * names, v2 `config` or v3 `typed_config`, with its `filter_chain_match` and downstream TLS), the
 * `default_filter_chain` and the listener filters. Features this core does not have are reported
 * as errors, never ignored.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseListener } from "./listener_config.ts";
 * const errors: { path: string; rule: string; message: string }[] = [];
 * parseListener({ address: { socket_address: { address: "127.0.0.1", port_value: 0 } },
 *   filter_chains: [{ filters: [{ name: "envoy.tcp_proxy",
 *     config: { stat_prefix: "t", cluster: "c" } }] }] }, "l", errors, new Set(["c"]), 0);
 * assert.equal(errors.length, 0);
 * ```
 * @module
 */
import type { Json, JsonObject } from "../config/bootstrap_types.ts";
import type { TrafficDirection } from "./types.ts";
import {
  durationMs,
  type Errors,
  fail,
  filterConfig,
  filterKind,
  isObject,
  typeName,
  unwrap,
} from "../config/config_values.ts";
import { type HcmConfig, parseHcm } from "./http_connection_manager.ts";
import { parseTcpProxy, type TcpProxyConfig } from "./tcp_proxy.ts";
import { type ChainMatch, matchKey, parseChainMatch } from "./filter_chain_match.ts";
import { chainTls, type DownstreamTls } from "./downstream_tls.ts";
import {
  type ListenerFilters,
  ORIGINAL_DST_UNREADABLE,
  originalDestinationReadable,
  parseListenerFilters,
} from "./listener_filters.ts";
import type { SecretStore } from "../config/secrets.ts";

/** The network filter of a listener. */
export type ListenerFilter = { kind: "http"; hcm: HcmConfig } | {
  kind: "tcp";
  tcp: TcpProxyConfig;
};

/** A parsed listener. */
export interface ListenerSpec {
  name: string;
  address: string;
  port: number;
  direction: TrafficDirection;
  /** The network filter of the first filter chain (or of the default one). */
  filter: ListenerFilter;
  config: JsonObject;
  /** `per_connection_buffer_limit_bytes` (default 1 MiB). */
  bufferLimitBytes: number;
  /** Every filter chain, in configuration order. */
  chains: ChainSpec[];
  /** `default_filter_chain`, for connections no chain matches. */
  defaultChain: ChainSpec | null;
  listenerFilters: ListenerFilters;
  /**
   * `use_original_dst`: a redirected connection's local address becomes its original
   * destination, and the listener bound there (if any) serves it.
   */
  useOriginalDst: boolean;
}

/** One filter chain: what it matches, its TLS context and its network filter. */
export interface ChainSpec {
  name: string;
  match: ChainMatch;
  tls: DownstreamTls | null;
  filter: ListenerFilter;
  /**
   * `transport_socket_connect_timeout`: how long the TLS handshake may take; `null` when unset
   * (Envoy has no limit then; the `node:tls` path still closes a handshake unfinished after 15 s).
   */
  handshakeTimeoutMs: number | null;
  /** Reads the TLS context again (its SDS files changed); `null` when it is no longer valid. */
  reloadTls: () => DownstreamTls | null;
}

/** True when a listener is one plain filter chain with no match, TLS or listener filter. */
export function isSimple(s: ListenerSpec): boolean {
  return s.chains.length === 1 && s.defaultChain === null && s.chains[0].tls === null &&
    !s.listenerFilters.tls && !s.listenerFilters.http && !s.listenerFilters.originalDst &&
    !s.useOriginalDst &&
    matchKey(s.chains[0].match) === matchKey(parseChainMatch(undefined, "", []));
}

function parseChain(
  fc: Json,
  path: string,
  errors: Errors,
  clusters: ReadonlySet<string> | null,
  secrets: SecretStore | null,
): ChainSpec | null {
  const filter = parseFilters(fc, path, errors, clusters);
  if (!isObject(fc) || !filter) return null;
  const match = parseChainMatch(fc.filter_chain_match, `${path}.filter_chain_match`, errors);
  const tls = chainTls(fc, path, errors, secrets);
  if (tls === null) return null;
  const name = typeof fc.name === "string" ? fc.name : "";
  const reloadTls = () => chainTls(fc, path, [], secrets) ?? null;
  const t = fc.transport_socket_connect_timeout;
  const handshakeTimeoutMs = t === undefined || t === null
    ? null
    : durationMs(t, `${path}.transport_socket_connect_timeout`, errors);
  return { name, match, tls: tls ?? null, filter, reloadTls, handshakeTimeoutMs };
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** True for an IPv4 or IPv6 literal. */
export function isIpLiteral(a: string): boolean {
  const m = IPV4.exec(a);
  if (m) return m.slice(1).every((x) => Number(x) <= 255);
  return a.includes(":") && /^[0-9a-fA-F:.]+$/.test(a);
}

function parseFilters(
  fc: Json,
  path: string,
  errors: Errors,
  clusters: ReadonlySet<string> | null,
): ListenerFilter | undefined {
  if (!isObject(fc)) {
    fail(errors, path, "filter chain must be an object");
    return undefined;
  }
  const fs = fc.filters;
  if (!Array.isArray(fs) || fs.length === 0) {
    fail(errors, `${path}.filters`, "filter chain needs at least one filter");
    return undefined;
  }
  let out: ListenerFilter | undefined;
  fs.forEach((f, i) => {
    const at = `${path}.filters[${i}]`;
    if (!isObject(f) || typeof f.name !== "string") {
      return fail(errors, `${at}.name`, "filter needs a name");
    }
    const kind = filterKind(f.name);
    const t = typeName(f);
    const cfg = filterConfig(f, at, errors);
    const where = f.typed_config !== undefined ? `${at}.typed_config` : `${at}.config`;
    if (i !== fs.length - 1) {
      return fail(
        errors,
        `${at}.name`,
        `network filter ${f.name} is not supported before the last filter`,
      );
    }
    if (kind === "http_connection_manager" || t === "HttpConnectionManager") {
      const hcm = parseHcm(cfg, where, errors, clusters);
      if (hcm) out = { kind: "http", hcm };
    } else if (kind === "tcp_proxy" || t === "TcpProxy") {
      const tcp = parseTcpProxy(cfg, where, errors, clusters);
      if (tcp) out = { kind: "tcp", tcp };
    } else fail(errors, `${at}.name`, `network filter ${f.name} is not supported`);
  });
  return out;
}

/** Parses listener `l` (the `n`th, at `path`); `clusters` are the known cluster names. */
export function parseListener(
  l: unknown,
  path: string,
  errors: Errors,
  clusters: ReadonlySet<string> | null,
  _n: number,
  secrets: SecretStore | null = null,
): ListenerSpec | null {
  if (!isObject(l)) {
    fail(errors, path, "listener must be an object");
    return null;
  }
  const sa = isObject(l.address) ? l.address.socket_address : undefined;
  let address = "";
  let port = -1;
  if (isObject(l.address) && l.address.pipe !== undefined) {
    fail(
      errors,
      `${path}.address.pipe`,
      "listeners on Unix domain sockets (pipe) are not supported",
    );
  } else if (!isObject(sa)) {
    fail(errors, `${path}.address.socket_address`, "listener needs address.socket_address");
  } else {
    if (typeof sa.address !== "string" || !isIpLiteral(sa.address)) {
      fail(
        errors,
        `${path}.address.socket_address.address`,
        `invalid IP address ${JSON.stringify(sa.address)}`,
      );
    } else address = sa.address;
    const p = sa.port_value ?? 0;
    if (typeof p !== "number" || !Number.isInteger(p) || p < 0 || p > 65535) {
      fail(
        errors,
        `${path}.address.socket_address.port_value`,
        `invalid port ${JSON.stringify(p)}`,
      );
    } else port = p;
    if (sa.protocol === "UDP") {
      fail(errors, `${path}.address.socket_address.protocol`, "UDP listeners are not supported");
    }
  }
  const dir = l.traffic_direction ?? "UNSPECIFIED";
  if (dir !== "UNSPECIFIED" && dir !== "INBOUND" && dir !== "OUTBOUND") {
    fail(errors, `${path}.traffic_direction`, `unknown value ${JSON.stringify(dir)}`);
  }
  const listenerFilters = parseListenerFilters(l, path, errors);
  const fcs = Array.isArray(l.filter_chains) ? l.filter_chains : [];
  const chains: ChainSpec[] = [];
  const keys = new Map<string, number>();
  fcs.forEach((fc, i) => {
    const at = `${path}.filter_chains[${i}]`;
    const c = parseChain(fc, at, errors, clusters, secrets);
    if (!c) return;
    const k = matchKey(c.match);
    if (keys.has(k)) {
      fail(
        errors,
        `${at}.filter_chain_match`,
        `filter chain has the same matching rules as filter_chains[${keys.get(k)}]`,
      );
    }
    keys.set(k, i);
    chains.push(c);
  });
  const defaultChain = l.default_filter_chain !== undefined && l.default_filter_chain !== null
    ? parseChain(l.default_filter_chain, `${path}.default_filter_chain`, errors, clusters, secrets)
    : null;
  if (fcs.length === 0 && !defaultChain) {
    fail(errors, `${path}.filter_chains`, "listener needs a filter chain");
  }
  if (isObject(l.default_filter_chain) && l.default_filter_chain.filter_chain_match !== undefined) {
    fail(
      errors,
      `${path}.default_filter_chain.filter_chain_match`,
      "the default filter chain has no match",
    );
  }
  const filter = chains[0]?.filter ?? defaultChain?.filter;
  if (l.name !== undefined && typeof l.name !== "string") {
    fail(errors, `${path}.name`, "name must be a string");
  }
  const useOriginalDst = unwrap(l.use_original_dst);
  if (useOriginalDst !== undefined && typeof useOriginalDst !== "boolean") {
    fail(errors, `${path}.use_original_dst`, "must be a boolean");
  }
  if (useOriginalDst === true && !originalDestinationReadable()) {
    fail(errors, `${path}.use_original_dst`, ORIGINAL_DST_UNREADABLE);
  }
  const limit = unwrap(l.per_connection_buffer_limit_bytes) ?? 1024 * 1024;
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 0 || limit > 4294967295) {
    fail(errors, `${path}.per_connection_buffer_limit_bytes`, "must be an unsigned 32-bit integer");
  }
  if (!filter || port < 0 || !address) return null;
  return {
    // Envoy gives a static listener without a name a generated UUID.
    name: typeof l.name === "string" && l.name !== "" ? l.name : crypto.randomUUID(),
    address,
    port,
    direction: dir as TrafficDirection,
    filter,
    config: l,
    bufferLimitBytes: typeof limit === "number" ? limit : 1024 * 1024,
    chains,
    defaultChain,
    listenerFilters,
    useOriginalDst: useOriginalDst === true,
  };
}
