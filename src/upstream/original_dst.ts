/**
 * The ORIGINAL_DST discovery type and its balancer (ORIGINAL_DST_LB, or CLUSTER_PROVIDED on an
 * ORIGINAL_DST cluster), as Envoy's `original_dst_cluster.cc` builds them: the upstream host of a
 * request is the downstream connection's original destination (here its local address: original
 * destination redirection is not read from the socket), or, with
 * `original_dst_lb_config.use_http_header`, the `ip:port` in the `x-proxy-original-dst-host`
 * header (also `x-envoy-original-dst-host`). Hosts are created on demand; a host not chosen
 * during one whole `cleanup_interval` is removed at the end of it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseDestination } from "./original_dst.ts";
 * assert.deepEqual(parseDestination("127.0.0.1:8080"), { address: "127.0.0.1", port: 8080 });
 * assert.deepEqual(parseDestination("[::1]:80"), { address: "::1", port: 80 });
 * assert.equal(parseDestination("example.com:80"), null); // names are not resolved
 * ```
 * @module
 */
import { ipVersion } from "../http/cidr.ts";
import type { EffectiveHost } from "../config/effective_cluster.ts";
import type { Counter } from "../stats/types.ts";
import { type Host, hostPort } from "./host.ts";
import type { LbContext, LoadBalancer } from "./lb/load_balancer.ts";

/** The request headers that name the destination when `use_http_header` is true. */
export const ORIGINAL_DST_HEADERS: readonly string[] = [
  "x-proxy-original-dst-host",
  "x-envoy-original-dst-host",
];

/** Reads `ip:port` (IPv6 in brackets); null for anything else, names included. */
export function parseDestination(v: string): { address: string; port: number } | null {
  const m = /^\[([^\]]+)\]:(\d{1,5})$/.exec(v) ?? /^([^:\[\]]+):(\d{1,5})$/.exec(v);
  if (!m) return null;
  const port = Number(m[2]);
  if (!ipVersion(m[1]) || port < 1 || port > 65535) return null;
  return { address: m[1], port };
}

/** What the host map needs of its cluster. */
export interface OriginalDstCluster {
  hosts(): readonly Host[];
  updateHosts(next: readonly EffectiveHost[]): unknown;
}

/** Settings of an ORIGINAL_DST cluster. */
export interface OriginalDstOptions {
  useHttpHeader: boolean;
  cleanupIntervalMs: number;
  /** `original_dst_host_invalid`: a header that is not an `ip:port`. */
  invalid?: Counter;
}

/** The on-demand hosts of one ORIGINAL_DST cluster and their clean-up. */
export class OriginalDstHosts {
  readonly #cluster: OriginalDstCluster;
  readonly #o: OriginalDstOptions;
  /** The hosts by `address:port`, with whether each was chosen since the last clean-up. */
  readonly #members = new Map<string, { host: EffectiveHost; used: boolean }>();
  readonly #timer: ReturnType<typeof setInterval>;

  /** Starts the clean-up timer of `cluster`. */
  constructor(cluster: OriginalDstCluster, o: OriginalDstOptions) {
    this.#cluster = cluster;
    this.#o = o;
    const t = setInterval(() => this.cleanup(), o.cleanupIntervalMs);
    Deno.unrefTimer(t);
    this.#timer = t;
  }

  /** The destination a request names, or null when it names none (or a malformed one). */
  destination(ctx: LbContext): { address: string; port: number } | null {
    if (this.#o.useHttpHeader && ctx.headers) {
      for (const name of ORIGINAL_DST_HEADERS) {
        const v = headerValue(ctx.headers, name);
        if (v === undefined) continue;
        const d = parseDestination(v.trim());
        if (!d) this.#o.invalid?.inc();
        return d;
      }
    }
    const l = ctx.downstreamLocal;
    return l ? { address: unmapped(l.hostname), port: l.port } : null;
  }

  /** The host of the request's destination, created when it is new. */
  hostFor(ctx: LbContext): Host | null {
    const d = this.destination(ctx);
    if (!d) return null;
    const key = hostPort(d.address, d.port);
    const known = this.#members.get(key);
    if (known) known.used = true;
    else {
      this.#members.set(key, {
        used: true,
        host: {
          address: d.address,
          port: d.port,
          hostname: "",
          weight: 1,
          priority: 0,
          region: "",
          zone: "",
          sub_zone: "",
          metadata: {},
        },
      });
      this.#apply();
    }
    return this.#cluster.hosts().find((h) => h.key === key) ?? null;
  }

  /** Removes the hosts not chosen since the previous clean-up; marks the others unused. */
  cleanup(): void {
    let removed = false;
    for (const [key, m] of this.#members) {
      if (m.used) m.used = false;
      else {
        this.#members.delete(key);
        removed = true;
      }
    }
    if (removed) this.#apply();
  }

  #apply() {
    this.#cluster.updateHosts([...this.#members.values()].map((m) => m.host));
  }

  /** Stops the clean-up timer. */
  close(): void {
    clearInterval(this.#timer);
  }
}

/** The balancer of an ORIGINAL_DST cluster: the request's own destination. */
export class OriginalDstLoadBalancer implements LoadBalancer {
  /** Chooses through `map`. */
  constructor(readonly map: OriginalDstHosts) {}

  /** The host of the request's original destination, or null. */
  choose(ctx: LbContext): Host | null {
    return this.map.hostFor(ctx);
  }
}

function headerValue(hs: readonly (readonly [string, string])[], name: string) {
  for (const [n, v] of hs) if (n === name) return v;
  return undefined;
}

/** `::ffff:127.0.0.1` (a dual-stack socket's view of an IPv4 peer) as `127.0.0.1`. */
function unmapped(a: string): string {
  return a.startsWith("::ffff:") && ipVersion(a.slice(7)) === 4 ? a.slice(7) : a;
}
