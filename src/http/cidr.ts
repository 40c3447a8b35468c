/**
 * IP address literals as bytes, and CIDR ranges (`core.CidrRange`: `address_prefix` and
 * `prefix_len`) that match them. IPv4-mapped IPv6 addresses (`::ffff:10.0.0.1`) match IPv4
 * ranges, as a dual-stack socket reports IPv4 peers that way.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cidrContains, ipBytes, parseCidr } from "./cidr.ts";
 * assert.deepEqual(ipBytes("10.1.2.3"), new Uint8Array([10, 1, 2, 3]));
 * const r = parseCidr("192.168.0.0", 16)!;
 * assert.equal(cidrContains(r, "192.168.7.1"), true);
 * assert.equal(cidrContains(r, "::ffff:192.168.7.1"), true);
 * assert.equal(cidrContains(r, "192.169.0.1"), false);
 * ```
 * @module
 */

/** A parsed CIDR range. */
export interface Cidr {
  bytes: Uint8Array;
  prefixLen: number;
}

const V4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function v4(s: string): Uint8Array | null {
  const m = V4.exec(s);
  if (!m) return null;
  const b = m.slice(1).map(Number);
  return b.every((x) => x <= 255) ? new Uint8Array(b) : null;
}

function v6(s: string): Uint8Array | null {
  if (!/^[0-9a-fA-F:.]+$/.test(s) || !s.includes(":")) return null;
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const groups = (part: string): number[] | null => {
    if (part === "") return [];
    const out: number[] = [];
    const items = part.split(":");
    for (let i = 0; i < items.length; i++) {
      const it = items[i];
      if (i === items.length - 1 && it.includes(".")) {
        const b = v4(it);
        if (b === null) return null;
        out.push((b[0] << 8) | b[1], (b[2] << 8) | b[3]);
      } else if (/^[0-9a-fA-F]{1,4}$/.test(it)) out.push(parseInt(it, 16));
      else return null;
    }
    return out;
  };
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  if (head === null || tail === null) return null;
  const fill = 8 - head.length - tail.length;
  if (halves.length === 2 ? fill < 1 : fill !== 0) return null;
  const all = [...head, ...new Array(fill).fill(0), ...tail];
  const out = new Uint8Array(16);
  all.forEach((g, i) => {
    out[2 * i] = g >> 8;
    out[2 * i + 1] = g & 0xff;
  });
  return out;
}

/** The bytes of an IPv4 (4) or IPv6 (16) literal (brackets allowed), or null. */
export function ipBytes(ip: string): Uint8Array | null {
  const s = ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip;
  return v4(s) ?? v6(s);
}

const ZONE = /^[0-9a-zA-Z.:-]+$/;
const V4_PART_WITH_LEADING_ZERO = /(^|\.)0\d/;

/**
 * 4 or 6 when `s` is an IPv4 or IPv6 address literal as `inet_pton` reads one, else 0: no
 * brackets, IPv4 parts without leading zeros, an IPv6 address with an optional `%zone`. The
 * answers of Node's `net.isIP`, without loading `node:net`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ipVersion } from "./cidr.ts";
 * assert.equal(ipVersion("10.0.0.1"), 4);
 * assert.equal(ipVersion("fe80::1%eth0"), 6);
 * assert.equal(ipVersion("010.0.0.1"), 0);
 * assert.equal(ipVersion("[::1]"), 0);
 * assert.equal(ipVersion("example.com"), 0);
 * ```
 */
export function ipVersion(s: string): 0 | 4 | 6 {
  if (V4.test(s)) return v4(s) !== null && !V4_PART_WITH_LEADING_ZERO.test(s) ? 4 : 0;
  const pct = s.indexOf("%");
  const addr = pct < 0 ? s : s.slice(0, pct);
  if (pct >= 0 && !ZONE.test(s.slice(pct + 1))) return 0;
  if (v6(addr) === null) return 0;
  // An embedded IPv4 address may only end the address, written without leading zeros.
  const colon = addr.lastIndexOf(":");
  const dot = addr.indexOf(".");
  if (dot >= 0 && dot < colon) return 0;
  const last = addr.slice(colon + 1);
  return last.includes(".") && V4_PART_WITH_LEADING_ZERO.test(last) ? 0 : 6;
}

/** A range from its prefix address and length, or null when either is invalid. */
export function parseCidr(prefix: string, prefixLen: number): Cidr | null {
  const bytes = ipBytes(prefix);
  if (bytes === null || !Number.isInteger(prefixLen) || prefixLen < 0) return null;
  if (prefixLen > bytes.length * 8) return null;
  return { bytes, prefixLen };
}

function mappedV4(b: Uint8Array): Uint8Array | null {
  if (b.length !== 16) return null;
  for (let i = 0; i < 10; i++) if (b[i] !== 0) return null;
  return b[10] === 0xff && b[11] === 0xff ? b.subarray(12) : null;
}

/** True when the address `ip` (a literal) is inside `r`. */
export function cidrContains(r: Cidr, ip: string): boolean {
  let b = ipBytes(ip);
  if (b === null) return false;
  if (b.length !== r.bytes.length) b = r.bytes.length === 4 ? mappedV4(b) : null;
  if (b === null) return false;
  let bits = r.prefixLen;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((b[i] & mask) !== (r.bytes[i] & mask)) return false;
  }
  return true;
}
