/**
 * One static listener parsed from the bootstrap: name, bound address, traffic direction and its
 * single filter chain (an `http_connection_manager` or a `tcp_proxy`, `envoy.` or `proxy.`
 * names, v2 `config` or v3 `typed_config`). Features this core does not have (downstream TLS,
 * listener filters, several filter chains) are reported as errors, never ignored.
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
  type Errors,
  fail,
  filterConfig,
  filterKind,
  isObject,
  typeName,
} from "../config/config_values.ts";
import { type HcmConfig, parseHcm } from "./http_connection_manager.ts";
import { parseTcpProxy, type TcpProxyConfig } from "./tcp_proxy.ts";

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
  filter: ListenerFilter;
  config: JsonObject;
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
  for (const k of ["filter_chain_match", "transport_socket", "tls_context"]) {
    if (fc[k] !== undefined) fail(errors, `${path}.${k}`, `${k} is not supported yet`);
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
  if (Array.isArray(l.listener_filters) && l.listener_filters.length > 0) {
    fail(errors, `${path}.listener_filters`, "listener filters are not supported yet");
  }
  const fcs = l.filter_chains;
  let filter: ListenerFilter | undefined;
  if (!Array.isArray(fcs) || fcs.length === 0) {
    fail(errors, `${path}.filter_chains`, "listener needs a filter chain");
  } else {
    if (fcs.length > 1) fail(errors, `${path}.filter_chains`, "only one filter chain is supported");
    filter = parseFilters(fcs[0], `${path}.filter_chains[0]`, errors, clusters);
  }
  if (l.name !== undefined && typeof l.name !== "string") {
    fail(errors, `${path}.name`, "name must be a string");
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
  };
}
