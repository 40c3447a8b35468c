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

/** A raw TCP origin started by {@linkcode scriptedOrigin}. */
export interface ScriptedOrigin {
  /** Its port on 127.0.0.1. */
  port: number;
  /** What each connection sent, in the order the connections were read to their end. */
  seen: string[];
  /** Stops accepting and waits for the accept loop to end. */
  close(): Promise<void>;
}

/** A request read to the end of its head. */
const headRead = (text: string) => text.includes("\r\n\r\n");

/**
 * An origin on a raw socket: each connection is read until `complete` says the request is whole
 * (by default, the end of its head) or the peer closes; the text is recorded, `answer` of it is
 * written (nothing when it gives `null`) and the connection closed. For upstream shapes a
 * `Deno.serve` origin cannot produce (trailers, malformed fields) and to see the wire bytes.
 */
export function scriptedOrigin(
  answer: string | ((request: string) => string | null),
  complete: (request: string) => boolean = headRead,
): ScriptedOrigin {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const seen: string[] = [];
  const decoder = new TextDecoder();
  const one = async (conn: Deno.Conn) => {
    const buf = new Uint8Array(65536);
    let got = "";
    while (!complete(got)) {
      const n = await conn.read(buf).catch(() => null);
      if (n === null) break;
      got += decoder.decode(buf.subarray(0, n));
    }
    seen.push(got);
    const reply = typeof answer === "string" ? answer : answer(got);
    if (reply !== null) await conn.write(new TextEncoder().encode(reply)).catch(() => {});
    conn.close();
  };
  const done = (async () => {
    for await (const conn of listener) one(conn);
  })().catch(() => {});
  return {
    port: (listener.addr as Deno.NetAddr).port,
    seen,
    async close() {
      listener.close();
      await done;
    },
  };
}
