/**
 * The `tls_inspector` listener filter's parser: from the first bytes of a connection it tells
 * whether a TLS ClientHello starts there and, if so, the server name (SNI) and the ALPN
 * protocols the client offers. Nothing is consumed: the bytes go on to the TLS handshake.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { inspectClientHello } from "./tls_inspector.ts";
 * assert.deepEqual(inspectClientHello(new TextEncoder().encode("GET / HTTP/1.1\r\n")), { kind: "not-tls" });
 * ```
 * @module
 */

/** Envoy's limit on the size of a ClientHello it inspects. */
export const MAX_CLIENT_HELLO = 64 * 1024;

/** What the first bytes say. */
export type ClientHelloResult =
  | { kind: "more" }
  | { kind: "not-tls" }
  | { kind: "too-large" }
  | { kind: "tls"; serverName: string; alpn: string[] };

const HANDSHAKE = 22;
const CLIENT_HELLO = 1;

/** Inspects `b`, the bytes read so far. */
export function inspectClientHello(b: Uint8Array): ClientHelloResult {
  if (b.length === 0) return { kind: "more" };
  if (b[0] !== HANDSHAKE) return { kind: "not-tls" };
  if (b.length >= 2 && b[1] !== 3) return { kind: "not-tls" };
  if (b.length >= 9) {
    if (b[5] !== CLIENT_HELLO) return { kind: "not-tls" };
    if (4 + ((b[6] << 16) | (b[7] << 8) | b[8]) > MAX_CLIENT_HELLO) return { kind: "too-large" };
  }
  // Gather the handshake bytes across records until the ClientHello is whole.
  const hs: Uint8Array[] = [];
  let have = 0;
  let need = -1;
  let off = 0;
  while (need < 0 || have < need) {
    if (off + 5 > b.length) {
      return b.length > MAX_CLIENT_HELLO ? { kind: "too-large" } : { kind: "more" };
    }
    if (b[off] !== HANDSHAKE || b[off + 1] !== 3) return { kind: "not-tls" };
    const len = (b[off + 3] << 8) | b[off + 4];
    if (off + 5 + len > b.length) {
      return off + 5 + len > MAX_CLIENT_HELLO + 5 ? { kind: "too-large" } : { kind: "more" };
    }
    hs.push(b.subarray(off + 5, off + 5 + len));
    have += len;
    off += 5 + len;
    if (need < 0 && have >= 4) {
      const h = concat(hs);
      if (h[0] !== CLIENT_HELLO) return { kind: "not-tls" };
      need = 4 + ((h[1] << 16) | (h[2] << 8) | h[3]);
      if (need > MAX_CLIENT_HELLO) return { kind: "too-large" };
    }
  }
  return parseHello(concat(hs).subarray(4, need));
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

function parseHello(h: Uint8Array): ClientHelloResult {
  const bad: ClientHelloResult = { kind: "not-tls" };
  let p = 2 + 32;
  if (p >= h.length) return bad;
  p += 1 + h[p];
  if (p + 2 > h.length) return bad;
  p += 2 + ((h[p] << 8) | h[p + 1]);
  if (p + 1 > h.length) return bad;
  p += 1 + h[p];
  let serverName = "";
  const alpn: string[] = [];
  if (p + 2 > h.length) return { kind: "tls", serverName, alpn };
  const end = Math.min(h.length, p + 2 + ((h[p] << 8) | h[p + 1]));
  p += 2;
  const dec = new TextDecoder();
  while (p + 4 <= end) {
    const type = (h[p] << 8) | h[p + 1];
    const len = (h[p + 2] << 8) | h[p + 3];
    const e = h.subarray(p + 4, Math.min(end, p + 4 + len));
    p += 4 + len;
    if (type === 0 && e.length >= 5) {
      // server_name_list: the first host_name entry.
      let q = 2;
      while (q + 3 <= e.length) {
        const nt = e[q];
        const nl = (e[q + 1] << 8) | e[q + 2];
        if (nt === 0) {
          serverName = dec.decode(e.subarray(q + 3, q + 3 + nl));
          break;
        }
        q += 3 + nl;
      }
    } else if (type === 16 && e.length >= 2) {
      let q = 2;
      while (q < e.length) {
        const l = e[q];
        alpn.push(dec.decode(e.subarray(q + 1, q + 1 + l)));
        q += 1 + l;
      }
    }
  }
  return { kind: "tls", serverName, alpn };
}
