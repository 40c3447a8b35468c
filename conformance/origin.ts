/**
 * Origins the suite runs itself for behaviour cases: small HTTP/1.1 servers on 127.0.0.1 that
 * answer, fail, hang or cut a body short, and count the requests and connections they saw. Built
 * on raw TCP so that a case controls every byte and can observe connection reuse.
 *
 * Every answer carries `x-origin: <name>` and the name as its body, so a case can tell which
 * member of a cluster served a request through the proxy.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { startOrigin } from "./origin.ts";
 * await using o = startOrigin("a");
 * const r = await fetch(`http://127.0.0.1:${o.port}/x`);
 * assert.equal(await r.text(), "a");
 * assert.equal(o.requests, 1);
 * o.mode = { status: 503 };
 * const r2 = await fetch(`http://127.0.0.1:${o.port}/x`);
 * await r2.body?.cancel();
 * assert.equal(r2.status, 503);
 * ```
 * @module
 */

/**
 * How an origin answers: with a status (200 by default), by holding the request until
 * {@linkcode Origin.release}, or by closing the connection halfway through the body.
 * `healthPath` answers are separate, so a case can fail health checks while serving traffic.
 */
export type OriginMode =
  | { status: number }
  | { hang: true }
  | { closeMidBody: true };

/** A running origin. */
export interface Origin extends AsyncDisposable {
  readonly name: string;
  readonly port: number;
  /** `127.0.0.1:<port>`. */
  readonly address: string;
  /** How requests other than health checks are answered; changeable at any time. */
  mode: OriginMode;
  /** Status of answers to `GET /healthz` (the health-check path cases configure). */
  healthStatus: number;
  /** Requests answered or held, health checks excluded. */
  readonly requests: number;
  /** Health-check requests (`/healthz`) seen. */
  readonly healthChecks: number;
  /** Connections accepted. */
  readonly connections: number;
  /** The address (`ip`) each accepted connection came from, in order. */
  readonly peers: readonly string[];
  /** The first line of each request seen (health checks included), in order. */
  readonly requestLines: readonly string[];
  /** Answers every held request with 200 and stops holding new ones. */
  release(): void;
  close(): Promise<void>;
}

const enc = new TextEncoder();
const dec = new TextDecoder();
const HEALTH_PATH = "/healthz";

/**
 * Starts an origin on 127.0.0.1 with a free port.
 *
 * @param name the name it answers with
 * @param mode how it answers requests (default 200)
 * @returns the running origin
 */
export function startOrigin(name: string, mode: OriginMode = { status: 200 }): Origin {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns = new Set<Deno.Conn>();
  const held: Array<() => void> = [];
  let requests = 0;
  let healthChecks = 0;
  let connections = 0;
  const peers: string[] = [];
  const requestLines: string[] = [];
  let closed = false;

  const answer = (status: number, extra = "") =>
    enc.encode(
      `HTTP/1.1 ${status} X\r\nx-origin: ${name}\r\ncontent-type: text/plain\r\n` +
        `content-length: ${name.length}\r\n${extra}\r\n${name}`,
    );

  async function serve(conn: Deno.Conn): Promise<void> {
    let buf = "";
    const chunk = new Uint8Array(16 * 1024);
    try {
      while (true) {
        let end = buf.indexOf("\r\n\r\n");
        while (end < 0) {
          const n = await conn.read(chunk);
          if (n === null) return;
          buf += dec.decode(chunk.subarray(0, n));
          end = buf.indexOf("\r\n\r\n");
        }
        const head = buf.slice(0, end);
        buf = buf.slice(end + 4);
        requestLines.push(head.split("\r\n")[0]);
        const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
        while (buf.length < length) {
          const n = await conn.read(chunk);
          if (n === null) return;
          buf += dec.decode(chunk.subarray(0, n));
        }
        buf = buf.slice(length);
        const path = head.split(" ")[1] ?? "/";
        if (path === HEALTH_PATH) {
          healthChecks++;
          await conn.write(answer(origin.healthStatus));
          continue;
        }
        requests++;
        const m = origin.mode;
        if ("hang" in m) {
          await new Promise<void>((resolve) => held.push(resolve));
          if (closed) return;
          await conn.write(answer(200));
        } else if ("closeMidBody" in m) {
          await conn.write(enc.encode(
            `HTTP/1.1 200 OK\r\nx-origin: ${name}\r\ncontent-length: 1000\r\n\r\npartial`,
          ));
          return;
        } else {
          await conn.write(answer(m.status));
        }
      }
    } catch {
      // The peer went away; nothing to answer.
    } finally {
      conns.delete(conn);
      try {
        conn.close();
      } catch { /* already closed */ }
    }
  }

  const accepting = (async () => {
    try {
      for await (const conn of listener) {
        connections++;
        peers.push((conn.remoteAddr as Deno.NetAddr).hostname);
        conns.add(conn);
        serve(conn);
      }
    } catch { /* the listener was closed */ }
  })();

  const port = (listener.addr as Deno.NetAddr).port;
  const origin: Origin = {
    name,
    port,
    address: `127.0.0.1:${port}`,
    mode,
    healthStatus: 200,
    get requests() {
      return requests;
    },
    get healthChecks() {
      return healthChecks;
    },
    get connections() {
      return connections;
    },
    get peers() {
      return peers;
    },
    get requestLines() {
      return requestLines;
    },
    release() {
      origin.mode = { status: 200 };
      for (const r of held.splice(0)) r();
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const r of held.splice(0)) r();
      listener.close();
      for (const c of conns) {
        try {
          c.close();
        } catch { /* already closed */ }
      }
      await accepting;
    },
    [Symbol.asyncDispose]() {
      return origin.close();
    },
  };
  return origin;
}

/**
 * A free TCP port on 127.0.0.1 (bound, read and released; a case binds it right after).
 *
 * @returns the port number
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { freePort } from "./origin.ts";
 * assert.ok(freePort() > 0);
 * ```
 */
export function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}
