/**
 * What listeners need from the server: health-check failure state (`/healthcheck/fail`), the local
 * IP version (`--local-address-ip-version`), drain settings and a logger.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ProxyHooks } from "./hooks.ts";
 * const hooks: ProxyHooks = {
 *   healthCheckFailed: () => false, localAddressIpVersion: "v4",
 *   drainTimeS: 600, drainStrategy: "gradual", log: () => {},
 * };
 * assert.equal(hooks.drainTimeS, 600);
 * ```
 * @module
 */
import type { LogFor } from "../platform/log_site.ts";

/** Server state and settings the listeners read. */
export interface ProxyHooks {
  /** True while `/healthcheck/fail` is in effect. */
  healthCheckFailed(): boolean;
  localAddressIpVersion: "v4" | "v6";
  /** `--drain-time-s`. */
  drainTimeS: number;
  /** `--drain-strategy`. */
  drainStrategy: "gradual" | "immediate";
  log: (level: string, msg: string) => void;
  /** True while the whole server drains (responses then ask clients to close). */
  draining?(): boolean;
  /** Component loggers (`connection`, `http`, `router`, ...) for debug lines; none: silent. */
  logFor?: LogFor;
}

/**
 * The server's local address of an IP version, as Envoy picks it: the first non-loopback
 * interface address of that family, else the loopback address.
 */
export function localAddress(version: "v4" | "v6"): string {
  const family = version === "v6" ? "IPv6" : "IPv4";
  try {
    for (const i of Deno.networkInterfaces()) {
      if (i.family !== family) continue;
      if (i.address === "127.0.0.1" || i.address === "::1" || i.address.startsWith("fe80")) {
        continue;
      }
      return i.address;
    }
  } catch { /* no permission: fall back */ }
  return version === "v6" ? "::1" : "127.0.0.1";
}
