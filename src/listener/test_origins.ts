/**
 * Scaffolding of the routing tests that send traffic through a listener: origins that answer
 * with their name, a route table that sends every path to one cluster, and an endpoint of a
 * `load_assignment` on loopback.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { endpoint, namedOrigin, routeAllTo } from "./test_origins.ts";
 * const o = namedOrigin("a");
 * const r = await fetch(`http://127.0.0.1:${o.addr.port}/`);
 * assert.equal(await r.text(), "a");
 * await o.shutdown();
 * assert.equal(endpoint(80).endpoint.address.socket_address.port_value, 80);
 * assert.equal(routeAllTo("svc").name, "rc");
 * ```
 * @module
 */
import type { JsonObject } from "../config/bootstrap_types.ts";

/** An origin on 127.0.0.1 (a free port) that answers every request with `name`. */
export function namedOrigin(name: string): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (r) => {
    await r.body?.cancel();
    return new Response(name);
  });
}

/** Route configuration `rc`: one virtual host for every domain, every path to `cluster`. */
export function routeAllTo(cluster: string): JsonObject {
  return {
    name: "rc",
    virtual_hosts: [{
      name: "main",
      domains: ["*"],
      routes: [{ match: { prefix: "/" }, route: { cluster } }],
    }],
  };
}

/** A `load_assignment` endpoint on 127.0.0.1:`port`. */
export function endpoint(port: number) {
  return {
    endpoint: { address: { socket_address: { address: "127.0.0.1", port_value: port } } },
  };
}
