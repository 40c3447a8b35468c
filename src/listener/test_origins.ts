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

/** A raw TCP origin started by {@linkcode trackingOrigin}. */
export interface TrackingOrigin {
  /** Its port on 127.0.0.1. */
  port: number;
  /** How many connections have ended (the peer closed or reset them). */
  closedCount(): number;
  /** Resolves once `n` connections have sent their first bytes. */
  seenAtLeast(n: number): Promise<void>;
  /** Resolves once `n` connections have ended. */
  closedAtLeast(n: number): Promise<void>;
  /** Resolves when connection `i` (in accept order, from 0) has ended. */
  closed(i: number): Promise<void>;
  /** Writes `text` on every open connection. */
  writeAll(text: string): Promise<void>;
  /** Stops accepting and closes every connection. */
  close(): void;
}

/**
 * An origin on a raw socket that keeps its connections and counts how they end: every chunk a
 * connection `i` reads is given to `reply(i, chunk, first)`, whose text (if not `null`) is
 * written back; a connection the peer ends is closed. For tests about what the proxy does to an
 * upstream connection: whether it closes or resets it, pools it, or sends it more.
 */
export function trackingOrigin(
  reply: (connection: number, chunk: string, first: boolean) => string | null = () => null,
): TrackingOrigin {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns: Deno.Conn[] = [];
  const ended: boolean[] = [];
  let seen = 0;
  let waiters: Array<() => boolean> = [];
  const changed = () => waiters = waiters.filter((done) => !done());
  const until = (done: () => boolean) =>
    new Promise<void>((r) => {
      const check = () => done() && (r(), true);
      if (!check()) waiters.push(check);
    });
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const one = async (c: Deno.Conn, i: number) => {
    const buf = new Uint8Array(65536);
    let first = true;
    try {
      for (;;) {
        const n = await c.read(buf);
        if (n === null) break;
        if (first) seen++, changed();
        const out = reply(i, decoder.decode(buf.subarray(0, n)), first);
        first = false;
        if (out !== null) await c.write(encoder.encode(out));
      }
    } catch { /* reset */ }
    try {
      c.close();
    } catch { /* closed */ }
    ended[i] = true;
    changed();
  };
  (async () => {
    for await (const c of listener) {
      ended.push(false);
      one(c, conns.push(c) - 1);
    }
  })().catch(() => {});
  const closedCount = () => ended.filter(Boolean).length;
  return {
    port: (listener.addr as Deno.NetAddr).port,
    closedCount,
    seenAtLeast: (n) => until(() => seen >= n),
    closedAtLeast: (n) => until(() => closedCount() >= n),
    closed: (i) => until(() => ended[i] === true),
    async writeAll(text) {
      for (const c of conns) await c.write(encoder.encode(text)).catch(() => 0);
    },
    close() {
      listener.close();
      for (const c of conns) {
        try {
          c.close();
        } catch { /* closed */ }
      }
    },
  };
}
