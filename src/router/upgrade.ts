/**
 * HTTP/1.1 `Upgrade` forwarding (WebSocket and any other type the `upgrade_configs` of the
 * connection manager enable, a route may turn one off or on): the request goes to a host of the
 * route's cluster on a connection of its own with its `connection: upgrade` and `upgrade`
 * headers; a `101` answer goes back as is and from then on the bytes are copied both ways until
 * either side closes. Any other answer is relayed and the exchange ends.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseUpgradeConfigs, upgradeAllowed } from "./upgrade.ts";
 * const hcm = parseUpgradeConfigs([{ upgrade_type: "websocket" }], "u", [], false);
 * assert.equal(upgradeAllowed(hcm, null, "WebSocket"), true);
 * assert.equal(upgradeAllowed(hcm, new Map([["websocket", false]]), "websocket"), false);
 * ```
 * @module
 */
import type { Json } from "../config/bootstrap_types.ts";
import { type Errors, fail, isObject, unwrap } from "../config/config_values.ts";
import type { Cluster } from "../upstream/cluster.ts";
import type { UpstreamRequest } from "../upstream/upstream_request.ts";
import { headText } from "../upstream/upstream_request.ts";
import { openTransport, type Transport } from "../upstream/transport.ts";
import { HeaderMap } from "../http/header_map.ts";
import { localReply, NO_HEALTHY_UPSTREAM, resetBody } from "../http/local_reply.ts";
import type { ProxyResponse } from "../http/proxy_response.ts";
import { parseConnectConfig } from "./connect_config.ts";

/** Upgrade type (lower case) -> enabled. */
export type UpgradeConfigs = ReadonlyMap<string, boolean>;

/** Parses `upgrade_configs` of the connection manager (`route` false) or of a route. */
export function parseUpgradeConfigs(
  v: Json | undefined,
  path: string,
  errors: Errors,
  route: boolean,
): Map<string, boolean> {
  const out = new Map<string, boolean>();
  if (v === undefined) return out;
  if (!Array.isArray(v)) {
    fail(errors, path, "upgrade_configs must be a list");
    return out;
  }
  v.forEach((u, i) => {
    const at = `${path}[${i}]`;
    if (!isObject(u) || typeof u.upgrade_type !== "string" || u.upgrade_type === "") {
      return fail(errors, `${at}.upgrade_type`, "upgrade_type must be a non-empty string");
    }
    for (const k of Object.keys(u)) {
      if (k === "upgrade_type" || k === "enabled") continue;
      if (k === "connect_config" && route) continue;
      const why = k === "filters"
        ? `${k} is not supported by this build`
        : `unknown field ${k} of UpgradeConfig`;
      fail(errors, `${at}.${k}`, why);
    }
    const type = u.upgrade_type.toLowerCase();
    if (u.connect_config !== undefined && route) {
      if (type !== "connect") {
        fail(
          errors,
          `${at}.connect_config`,
          "connect_config is only valid for upgrade_type CONNECT",
        );
      } else parseConnectConfig(u.connect_config, `${at}.connect_config`, errors);
    }
    if (out.has(type)) return fail(errors, `${at}.upgrade_type`, `duplicate upgrade type ${type}`);
    const enabled = unwrap(u.enabled);
    out.set(type, enabled === undefined ? true : enabled === true);
  });
  return out;
}

/** True when `type` may be upgraded: listed by the connection manager, the route deciding. */
export function upgradeAllowed(
  hcm: UpgradeConfigs,
  route: UpgradeConfigs | null,
  type: string,
): boolean {
  const t = type.toLowerCase();
  const base = hcm.get(t);
  if (base === undefined) return false;
  return route?.get(t) ?? base;
}

const encoder = new TextEncoder();

/** Closes `t`, ignoring that it may be closed already. */
function quietClose(t: Transport): void {
  try {
    t.close();
  } catch { /* already closed */ }
}
const decoder = new TextDecoder();

/** Reads a response head; returns it and the bytes read after it. */
async function readHead(t: Transport): Promise<[string, Uint8Array] | null> {
  let buf = new Uint8Array(0);
  const chunk = new Uint8Array(16 * 1024);
  for (;;) {
    const n = await t.read(chunk);
    if (n === null) return null;
    const next = new Uint8Array(buf.length + n);
    next.set(buf);
    next.set(chunk.subarray(0, n), buf.length);
    buf = next;
    for (let i = 3; i < buf.length; i++) {
      if (buf[i] === 10 && buf[i - 1] === 13 && buf[i - 2] === 10 && buf[i - 3] === 13) {
        return [decoder.decode(buf.subarray(0, i - 3)), buf.slice(i + 1)];
      }
    }
    if (buf.length > 64 * 1024) return null;
  }
}

/** The upstream's bytes: what came with the head, then what follows, up to `limit` (-1: all). */
export function upstreamBytes(
  t: Transport,
  first: Uint8Array,
  limit: number,
): ReadableStream<Uint8Array> {
  let left = limit;
  let pending: Uint8Array | null = first.length ? first : null;
  return new ReadableStream<Uint8Array>({
    async pull(ctrl) {
      if (left === 0) {
        quietClose(t);
        return ctrl.close();
      }
      let b = pending;
      pending = null;
      if (b === null) {
        const buf = new Uint8Array(16 * 1024);
        let n: number | null = null;
        try {
          n = await t.read(buf);
        } catch { /* reset */ }
        if (n === null) {
          quietClose(t);
          return ctrl.close();
        }
        b = buf.subarray(0, n);
      }
      if (left > 0) {
        b = b.subarray(0, Math.min(left, b.length));
        left -= b.length;
      }
      ctrl.enqueue(b);
    },
    cancel() {
      quietClose(t);
    },
  }, { highWaterMark: 0 });
}

/** Copies the downstream's bytes to the upstream until either ends. */
export async function pump(from: ReadableStream<Uint8Array>, t: Transport): Promise<void> {
  const rd = from.getReader();
  try {
    for (;;) {
      const r = await rd.read();
      if (r.done) break;
      let off = 0;
      while (off < r.value.length) off += await t.write(r.value.subarray(off));
    }
  } catch { /* either side went away */ }
  quietClose(t);
}

/**
 * Chooses a host of `cluster` for the tunnelled request `ur` (counted as a request of the
 * cluster and the host) and connects to it; a local reply instead when no host is healthy
 * (`503`) or the connection fails (`503`, `UF`).
 */
export async function openTunnel(
  routed: Cluster,
  ur: UpstreamRequest,
  alpn?: string[],
): Promise<Transport | ProxyResponse> {
  // An aggregate cluster's chosen member serves with its own settings.
  const cluster = routed.serving() ?? routed;
  const host = cluster.lb.choose(ur.lb ?? {});
  if (!host) {
    cluster.stats.cx_none_healthy.inc();
    return localReply(503, NO_HEALTHY_UPSTREAM);
  }
  ur.upstream = host;
  cluster.stats.rq_total.inc();
  host.stats.rq_total.inc();
  try {
    return await openTransport({
      address: host.address,
      port: host.port,
      tls: cluster.effective.tls,
      timeoutMs: cluster.effective.connectTimeoutMs,
      alpn: cluster.effective.tls ? alpn : undefined,
      bind: cluster.effective.upstreamBind,
    });
  } catch {
    cluster.stats.cx_connect_fail.inc();
    cluster.stats.responseCode(503);
    return localReply(503, resetBody("connection failure"));
  }
}

/** True when {@linkcode openTunnel} connected (else it answered a local reply). */
export function isTransport(t: Transport | ProxyResponse): t is Transport {
  return !("status" in t);
}

/**
 * Forwards the upgrade request `ur` (upgrade type `type`) to a host of `cluster`; `takeover`
 * gives the downstream connection's bytes once the upstream switched protocols. Type `connect`
 * passes a CONNECT request on as it came (the host is a proxy itself) and tunnels after a 2xx.
 */
export async function forwardUpgrade(
  cluster: Cluster,
  ur: UpstreamRequest,
  type: string,
  takeover: () => ReadableStream<Uint8Array>,
): Promise<ProxyResponse> {
  const t = await openTunnel(cluster, ur, ["http/1.1"]);
  if (!isTransport(t)) return t;
  const connect = type === "connect";
  const req = connect ? { ...ur, body: null, path: ur.authority } : {
    ...ur,
    body: null,
    headers: [...ur.headers, ["connection", "upgrade"], ["upgrade", type]] as [string, string][],
  };
  let head: [string, Uint8Array] | null = null;
  try {
    await t.write(encoder.encode(headText(req)));
    head = await readHead(t);
  } catch { /* reset */ }
  if (head === null) {
    quietClose(t);
    cluster.stats.rq_rx_reset.inc();
    cluster.stats.responseCode(503);
    return localReply(503, resetBody("connection termination"));
  }
  const [text, rest] = head;
  const lines = text.split("\r\n");
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0]);
  if (!m) {
    quietClose(t);
    cluster.stats.responseCode(503);
    return localReply(503, resetBody("protocol error"));
  }
  const status = Number(m[1]);
  cluster.stats.responseCode(status);
  const headers = new HeaderMap();
  let length = -1;
  for (const l of lines.slice(1)) {
    const i = l.indexOf(":");
    if (i <= 0) continue;
    const k = l.slice(0, i).trim().toLowerCase();
    const v = l.slice(i + 1).trim();
    if (k === "content-length") length = Number(v);
    headers.append(k, v);
  }
  const switched = connect ? status >= 200 && status < 300 : status === 101;
  if (!switched) {
    headers.delete("connection");
    headers.delete("upgrade");
    return {
      status,
      headers,
      body: length === 0 ? (quietClose(t), null) : upstreamBytes(t, rest, length),
    };
  }
  pump(takeover(), t);
  return { status, headers, body: upstreamBytes(t, rest, -1) };
}
