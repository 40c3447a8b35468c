/**
 * `filter_chain_match`: which filter chain of a listener takes a connection, as Envoy chooses it.
 * The criteria are tried in Envoy's order (destination port, destination IP, server name,
 * transport protocol, application protocols, directly connected source IP, source type, source
 * IP, source port); at each step only the chains with the most specific match stay (a chain that
 * leaves the criterion empty matches anything, less specifically than any value). When no chain
 * is left the connection takes the `default_filter_chain`, or is closed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseChainMatch, selectChain } from "./filter_chain_match.ts";
 * const errors: { path: string; rule: string; message: string }[] = [];
 * const a = parseChainMatch({ server_names: ["*.example.com"] }, "a", errors);
 * const b = parseChainMatch({ server_names: ["www.example.com"] }, "b", errors);
 * const conn = { destIp: "127.0.0.1", destPort: 443, srcIp: "127.0.0.1", srcPort: 5000,
 *   serverName: "www.example.com", transport: "tls", alpn: [] };
 * assert.equal(selectChain([a, b], conn), 1);
 * ```
 * @module
 */
import type { JsonObject } from "../config/bootstrap_types.ts";
import { type Errors, fail, isObject, unwrap } from "../config/config_values.ts";

/** A CIDR range. */
export interface CidrRange {
  bytes: Uint8Array;
  len: number;
}

/** A parsed `FilterChainMatch`. */
export interface ChainMatch {
  destinationPort: number | null;
  prefixRanges: CidrRange[];
  serverNames: string[];
  transportProtocol: string;
  applicationProtocols: string[];
  directSourcePrefixRanges: CidrRange[];
  sourceType: "ANY" | "SAME_IP_OR_LOOPBACK" | "EXTERNAL";
  sourcePrefixRanges: CidrRange[];
  sourcePorts: number[];
}

/** What is known of a connection when its chain is chosen. */
export interface ConnFacts {
  destIp: string;
  destPort: number;
  srcIp: string;
  srcPort: number;
  /** SNI from the TLS inspector; "" when none. */
  serverName: string;
  /** `tls` when the TLS inspector saw a ClientHello, else `raw_buffer`. */
  transport: string;
  /** ALPN offered by the client (TLS inspector) or detected by the HTTP inspector. */
  alpn: readonly string[];
}

/** The bytes of an IPv4 or IPv6 literal (IPv4-mapped IPv6 as IPv4), or `null`. */
export function ipBytes(ip: string): Uint8Array | null {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) ip = mapped[1];
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (v4) {
    const b = v4.slice(1).map(Number);
    return b.every((x) => x <= 255) ? Uint8Array.from(b) : null;
  }
  if (!ip.includes(":") || !/^[0-9a-fA-F:.]+$/.test(ip)) return null;
  const halves = ip.split("::");
  if (halves.length > 2) return null;
  const parse = (s: string) => s === "" ? [] : s.split(":");
  const head = parse(halves[0]);
  const tail = halves.length === 2 ? parse(halves[1]) : [];
  const fill = 8 - head.length - tail.length;
  if (halves.length === 1 ? fill !== 0 : fill < 0) return null;
  const groups = [...head, ...Array(halves.length === 2 ? fill : 0).fill("0"), ...tail];
  const out = new Uint8Array(16);
  for (let i = 0; i < 8; i++) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(groups[i])) return null;
    const n = parseInt(groups[i], 16);
    out[2 * i] = n >> 8;
    out[2 * i + 1] = n & 255;
  }
  return out;
}

function inRange(ip: Uint8Array | null, r: CidrRange): boolean {
  if (!ip || ip.length !== r.bytes.length) return false;
  let bits = r.len;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 255 : (0xff << (8 - bits)) & 255;
    if ((ip[i] & mask) !== (r.bytes[i] & mask)) return false;
  }
  return true;
}

function cidrs(v: unknown, path: string, errors: Errors): CidrRange[] {
  if (!Array.isArray(v)) return [];
  const out: CidrRange[] = [];
  v.forEach((r, i) => {
    const at = `${path}[${i}]`;
    const prefix = isObject(r) ? r.address_prefix : undefined;
    const bytes = typeof prefix === "string" ? ipBytes(prefix) : null;
    if (!bytes) {
      return fail(errors, `${at}.address_prefix`, `invalid IP address ${JSON.stringify(prefix)}`);
    }
    const raw = isObject(r) ? unwrap(r.prefix_len) : undefined;
    const len = raw === undefined ? bytes.length * 8 : Number(raw);
    if (!Number.isInteger(len) || len < 0 || len > bytes.length * 8) {
      return fail(errors, `${at}.prefix_len`, `invalid prefix length ${JSON.stringify(raw)}`);
    }
    out.push({ bytes, len });
  });
  return out;
}

/** Parses a `filter_chain_match` (absent: matches everything). */
export function parseChainMatch(m: unknown, path: string, errors: Errors): ChainMatch {
  const o: JsonObject = isObject(m) ? m : {};
  const port = unwrap(o.destination_port);
  if (
    port !== undefined &&
    (!Number.isInteger(port) || (port as number) < 1 || (port as number) > 65535)
  ) {
    fail(errors, `${path}.destination_port`, `invalid port ${JSON.stringify(port)}`);
  }
  const strings = (k: string) => {
    const v = o[k];
    if (v === undefined) return [];
    if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) {
      fail(errors, `${path}.${k}`, "must be a list of strings");
      return [];
    }
    return v as string[];
  };
  const serverNames = strings("server_names").map((s) => s.toLowerCase());
  serverNames.forEach((s, i) => {
    if (s.includes("*") && !(s.startsWith("*.") && !s.slice(1).includes("*"))) {
      fail(
        errors,
        `${path}.server_names[${i}]`,
        `invalid server name ${JSON.stringify(s)} (a wildcard is "*.<suffix>")`,
      );
    }
  });
  const st = o.source_type ?? "ANY";
  if (st !== "ANY" && st !== "SAME_IP_OR_LOOPBACK" && st !== "EXTERNAL") {
    fail(errors, `${path}.source_type`, `unknown value ${JSON.stringify(st)}`);
  }
  const ports = Array.isArray(o.source_ports) ? o.source_ports.map(unwrap) : [];
  ports.forEach((p, i) => {
    if (!Number.isInteger(p) || (p as number) < 1 || (p as number) > 65535) {
      fail(errors, `${path}.source_ports[${i}]`, `invalid port ${JSON.stringify(p)}`);
    }
  });
  const tp = typeof o.transport_protocol === "string" ? o.transport_protocol : "";
  return {
    destinationPort: typeof port === "number" ? port : null,
    prefixRanges: cidrs(o.prefix_ranges, `${path}.prefix_ranges`, errors),
    serverNames,
    transportProtocol: tp,
    applicationProtocols: strings("application_protocols"),
    directSourcePrefixRanges: cidrs(
      o.direct_source_prefix_ranges,
      `${path}.direct_source_prefix_ranges`,
      errors,
    ),
    sourceType: st as ChainMatch["sourceType"],
    sourcePrefixRanges: cidrs(o.source_prefix_ranges, `${path}.source_prefix_ranges`, errors),
    sourcePorts: ports as number[],
  };
}

/** -1: no match; 0: the chain leaves the criterion empty; higher: more specific. */
type Score = (m: ChainMatch, c: ConnFacts) => number;

const best = (ranges: CidrRange[], ip: string) => {
  if (ranges.length === 0) return 0;
  const b = ipBytes(ip);
  let s = -1;
  for (const r of ranges) if (inRange(b, r)) s = Math.max(s, r.len + 1);
  return s;
};

function isLoopback(ip: string): boolean {
  return /^127\./.test(ip) || ip === "::1" || /^::ffff:127\./i.test(ip);
}

/** The criteria in Envoy's order. */
const ORDER: Score[] = [
  (m, c) => m.destinationPort === null ? 0 : m.destinationPort === c.destPort ? 1 : -1,
  (m, c) => best(m.prefixRanges, c.destIp),
  (m, c) => {
    if (m.serverNames.length === 0) return 0;
    const sni = c.serverName.toLowerCase();
    let s = -1;
    for (const n of m.serverNames) {
      if (n === sni) return 1e6;
      if (n.startsWith("*.") && sni.endsWith(n.slice(1))) s = Math.max(s, n.length);
    }
    return s;
  },
  (m, c) => m.transportProtocol === "" ? 0 : m.transportProtocol === c.transport ? 1 : -1,
  (m, c) =>
    m.applicationProtocols.length === 0
      ? 0
      : m.applicationProtocols.some((p) => c.alpn.includes(p))
      ? 1
      : -1,
  (m, c) => best(m.directSourcePrefixRanges, c.srcIp),
  (m, c) => {
    if (m.sourceType === "ANY") return 0;
    const local = isLoopback(c.srcIp) || c.srcIp === c.destIp;
    return (m.sourceType === "SAME_IP_OR_LOOPBACK") === local ? 1 : -1;
  },
  (m, c) => best(m.sourcePrefixRanges, c.srcIp),
  (m, c) => m.sourcePorts.length === 0 ? 0 : m.sourcePorts.includes(c.srcPort) ? 1 : -1,
];

/** The index of the chain that takes the connection, or -1 when none does. */
export function selectChain(chains: readonly ChainMatch[], c: ConnFacts): number {
  let left = chains.map((_, i) => i);
  for (const score of ORDER) {
    let top = -1;
    let keep: number[] = [];
    for (const i of left) {
      const s = score(chains[i], c);
      if (s > top) {
        top = s;
        keep = [i];
      } else if (s === top) keep.push(i);
    }
    if (top < 0) return -1;
    left = keep;
  }
  return left[0];
}

/** A canonical key of a match, to find chains with the same rules. */
export function matchKey(m: ChainMatch): string {
  const r = (x: CidrRange[]) => x.map((c) => `${c.bytes.join(".")}/${c.len}`).sort();
  return JSON.stringify([
    m.destinationPort,
    r(m.prefixRanges),
    [...m.serverNames].sort(),
    m.transportProtocol,
    [...m.applicationProtocols].sort(),
    r(m.directSourcePrefixRanges),
    m.sourceType,
    r(m.sourcePrefixRanges),
    [...m.sourcePorts].sort(),
  ]);
}

/** True when the listener needs the TLS inspector's facts to choose a chain. */
export function needsInspection(chains: readonly ChainMatch[]): boolean {
  return chains.some((m) =>
    m.serverNames.length > 0 || m.transportProtocol !== "" || m.applicationProtocols.length > 0
  );
}
