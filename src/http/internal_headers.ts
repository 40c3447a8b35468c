/**
 * Whether a request is internal or external, and the sanitizing of internal and control headers
 * that follows, as Envoy's connection manager does it before any filter runs:
 *
 * - `x-proxy-internal` (and Envoy's `x-envoy-internal`) from the client are always removed;
 * - with `use_remote_address`, the downstream address is appended to `x-forwarded-for` (the
 *   local address when the peer is loopback) unless `skip_xff_append`, and `x-forwarded-proto`
 *   is overwritten unless `xff_num_trusted_hops` trusts the previous hop; the trusted client
 *   address is the peer, or the `x-forwarded-for` entry `xff_num_trusted_hops` from the end;
 * - without it, the trusted client address is the `x-forwarded-for` entry
 *   `xff_num_trusted_hops` from the end;
 * - a request is internal when `x-forwarded-for` held a single address (none, with
 *   `use_remote_address`) and the trusted client address is internal (`internal_address_config`
 *   CIDR ranges, or by default RFC 1918, 127.0.0.1, `::1` and `fd00::/8`): it gets
 *   `x-proxy-internal: true`;
 * - any other request loses the control headers (`x-proxy-retry-on`,
 *   `x-proxy-upstream-rq-timeout-ms`, ... in both spellings); an edge request (external, with
 *   `use_remote_address`) also loses `x-proxy-decorator-operation`,
 *   `x-proxy-downstream-service-cluster` and `-node`, and gets `x-proxy-external-address`.
 *
 * `x-proxy-original-dst-host` is left alone: the specification says it is not sanitized.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sanitizeRequestHeaders } from "./internal_headers.ts";
 * const h = new Headers({ "x-envoy-upstream-rq-timeout-ms": "1", "x-envoy-internal": "true" });
 * const f = sanitizeRequestHeaders(h, "203.0.113.9", "http", "10.0.0.1", {
 *   useRemoteAddress: true,
 *   xffNumTrustedHops: 0,
 *   skipXffAppend: false,
 *   internalRanges: null,
 * });
 * assert.equal(f.internal, false);
 * assert.equal(h.get("x-envoy-upstream-rq-timeout-ms"), null);
 * assert.equal(h.get("x-envoy-internal"), null);
 * assert.equal(h.get("x-forwarded-for"), "203.0.113.9");
 * assert.equal(h.get("x-proxy-external-address"), "203.0.113.9");
 * ```
 * @module
 */
import { type Cidr, cidrContains, ipBytes } from "./cidr.ts";
import { isLoopback } from "./request_headers.ts";

/** The connection manager settings that decide forwarding and trust. */
export interface ForwardingConfig {
  useRemoteAddress: boolean;
  xffNumTrustedHops: number;
  skipXffAppend: boolean;
  /** `internal_address_config.cidr_ranges`; null (or empty) for Envoy's default ranges. */
  internalRanges: readonly Cidr[] | null;
}

/** What was decided about one request. */
export interface Forwarding {
  /** The request came from inside the trusted network. */
  internal: boolean;
  /** External, and this proxy is the edge (`use_remote_address`). */
  edge: boolean;
  /** The trusted client address. */
  remote: string;
}

/** Control headers an external client may not set (suffixes of `x-envoy-` / `x-proxy-`). */
const CONTROL = [
  "retriable-status-codes",
  "retriable-header-names",
  "retry-on",
  "retry-grpc-on",
  "max-retries",
  "upstream-alt-stat-name",
  "upstream-rq-timeout-ms",
  "upstream-rq-per-try-timeout-ms",
  "upstream-rq-timeout-alt-response",
  "expected-rq-timeout-ms",
  "force-trace",
  "ip-tags",
  "original-url",
  "hedge-on-per-try-timeout",
];
/** Removed from edge requests only. */
const EDGE = ["decorator-operation", "downstream-service-cluster", "downstream-service-node"];

/** Both spellings of each suffix. */
const bothSpellings = (suffixes: readonly string[]) =>
  suffixes.flatMap((s) => [`x-envoy-${s}`, `x-proxy-${s}`]);
const CONTROL_NAMES = bothSpellings(CONTROL);
const EDGE_NAMES = bothSpellings(EDGE);

function removeAll(h: Headers, names: readonly string[]): void {
  for (const n of names) h.delete(n);
}

/**
 * True when a field name starts `x-envoy-` or `x-proxy-` (names are lower-case): without one,
 * a request carries none of the control headers.
 */
export function hasPrefixed(h: Headers): boolean {
  let found = false;
  h.forEach((_, k) => {
    if (!found && k.startsWith("x-") && (k.startsWith("x-envoy-") || k.startsWith("x-proxy-"))) {
      found = true;
    }
  });
  return found;
}

const DEFAULT_INTERNAL: readonly Cidr[] = [
  { bytes: new Uint8Array([10, 0, 0, 0]), prefixLen: 8 },
  { bytes: new Uint8Array([172, 16, 0, 0]), prefixLen: 12 },
  { bytes: new Uint8Array([192, 168, 0, 0]), prefixLen: 16 },
  { bytes: new Uint8Array([127, 0, 0, 1]), prefixLen: 32 },
  { bytes: ipBytes("::1")!, prefixLen: 128 },
  { bytes: ipBytes("fd00::")!, prefixLen: 8 },
];

/** True when `ip` is internal under `ranges` (Envoy's defaults when null or empty). */
export function isInternalAddress(ip: string, ranges: readonly Cidr[] | null): boolean {
  const rs = ranges === null || ranges.length === 0 ? DEFAULT_INTERNAL : ranges;
  return rs.some((r) => cidrContains(r, ip));
}

/**
 * The `x-forwarded-for` entry `skip` places from the end (a valid IP literal), and whether the
 * header held a single address.
 */
export function lastXffAddress(
  h: Headers,
  skip: number,
): { address: string | null; single: boolean } {
  const v = h.get("x-forwarded-for");
  if (v === null || v === "") return { address: null, single: false };
  const parts = v.split(",");
  const i = parts.length - 1 - skip;
  if (i < 0) return { address: null, single: false };
  const a = parts[i].trim();
  return { address: ipBytes(a) === null ? null : a, single: parts.length === 1 };
}

/**
 * Decides internal or external for a request from `peer` (the connection's address) over
 * `scheme` and rewrites `h` accordingly (see the module documentation). `localAddress` is what
 * is appended for a loopback peer.
 */
export function sanitizeRequestHeaders(
  h: Headers,
  peer: string,
  scheme: string,
  localAddress: string,
  cfg: ForwardingConfig,
): Forwarding {
  // Most requests carry no field of either prefix: nothing to remove then.
  const prefixed = hasPrefixed(h);
  if (prefixed) {
    h.delete("x-envoy-internal");
    h.delete("x-proxy-internal");
  }
  let remote: string | null = null;
  let single: boolean;
  const hops = cfg.xffNumTrustedHops;
  if (cfg.useRemoteAddress) {
    single = !h.has("x-forwarded-for");
    if (hops > 0) remote = lastXffAddress(h, hops - 1).address;
    remote ??= peer;
    if (!cfg.skipXffAppend) {
      const add = isLoopback(peer) ? localAddress : peer;
      const prev = h.get("x-forwarded-for");
      h.set("x-forwarded-for", prev ? `${prev}, ${add}` : add);
    }
    if (hops === 0 || !h.has("x-forwarded-proto")) h.set("x-forwarded-proto", scheme);
  } else {
    const r = lastXffAddress(h, hops);
    remote = r.address;
    single = r.single;
  }
  if (!h.has("x-forwarded-proto")) h.set("x-forwarded-proto", scheme);
  const internal = single && remote !== null && isInternalAddress(remote, cfg.internalRanges);
  remote ??= peer;
  const edge = !internal && cfg.useRemoteAddress;
  if (internal) h.set("x-proxy-internal", "true");
  else if (prefixed) {
    if (edge) removeAll(h, EDGE_NAMES);
    removeAll(h, CONTROL_NAMES);
  }
  if (edge && ipBytes(remote) !== null) h.set("x-proxy-external-address", remote);
  return { internal, edge, remote };
}
