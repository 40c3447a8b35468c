/**
 * Hosts for balancer tests: `127.0.0.1:<port>` with a weight and an optional EDS health status.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { testHost } from "./test_hosts.ts";
 * assert.equal(testHost(90).key, "127.0.0.1:90");
 * ```
 * @module
 */
import { Host } from "../host.ts";

/** A host on 127.0.0.1. */
export function testHost(port: number, weight = 1, health_status?: string): Host {
  return new Host({
    address: "127.0.0.1",
    port,
    hostname: "",
    weight,
    priority: 0,
    region: "",
    zone: "",
    sub_zone: "",
    metadata: {},
    ...(health_status ? { health_status } : {}),
  });
}

/** Hosts on 127.0.0.1 at `ports`. */
export function testHosts(ports: readonly number[], weights?: readonly number[]): Host[] {
  return ports.map((p, i) => testHost(p, weights?.[i] ?? 1));
}

/** 2^64 - 1. */
export const U64_MAX = (1n << 64n) - 1n;
