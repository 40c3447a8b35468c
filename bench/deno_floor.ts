/**
 * The floor: the least work a Deno program can do to proxy HTTP/1.1 with keep-alive, run beside
 * the proxy to show how much of its CPU per request is Deno's I/O and how much is its own. It is
 * not a proxy: it finds where each request head ends, writes it to an upstream connection of its
 * own (one per client connection, kept for the client's life) byte for byte, finds the end of the
 * response by its `Content-Length`, and writes the response back byte for byte. No header is
 * read, added or removed, no route, no stats, no pool, no timer. A request with a
 * `Content-Length` body, or a response without `Content-Length`, closes both connections; the
 * floor does not look for chunked request bodies. The benchmark sends none of them.
 *
 * Run: `deno run -A bench/deno_floor.ts -c BOOTSTRAP` with a bootstrap of `benchBootstrap`'s
 * shape (the first listener's port, the first cluster's first endpoint), as `deno task bench ab
 * -- main=. floor=bench/deno_floor.ts` and `deno task bench proxy -- --floor` run it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { serveFloor } from "./deno_floor.ts";
 * const origin = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) =>
 *   new Response(`${req.method} ${new URL(req.url).pathname}`, { headers: { "x-origin": "1" } }));
 * const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
 * const served = serveFloor(listener, origin.addr.port);
 * const base = `http://127.0.0.1:${listener.addr.port}`;
 * for (const path of ["/a", "/b"]) { // two requests, one kept-alive connection
 *   const res = await fetch(base + path);
 *   assert.equal(res.headers.get("x-origin"), "1");
 *   assert.equal(await res.text(), `GET ${path}`);
 * }
 * listener.close();
 * await served;
 * await origin.shutdown();
 * ```
 * @module
 */

const CR = 13;
const LF = 10;

/** The index just past the CRLFCRLF that ends a head in `b[0, end)`, or -1. */
function headEnd(b: Uint8Array, end: number): number {
  for (let i = 3; i < end; i++) {
    if (b[i] === LF && b[i - 1] === CR && b[i - 2] === LF && b[i - 3] === CR) return i + 1;
  }
  return -1;
}

const CONTENT_LENGTH = new TextEncoder().encode("\r\ncontent-length:");

/** The `Content-Length` of the head `b[0, end)` (any letter case), or -1 when it has none. */
function contentLength(b: Uint8Array, end: number): number {
  const k = CONTENT_LENGTH;
  outer: for (let i = 0; i + k.length < end; i++) {
    for (let j = 0; j < k.length; j++) {
      const c = b[i + j];
      if ((c >= 65 && c <= 90 ? c | 32 : c) !== k[j]) continue outer;
    }
    let p = i + k.length;
    while (b[p] === 32) p++;
    let n = 0;
    while (b[p] >= 48 && b[p] <= 57) n = n * 10 + b[p++] - 48;
    return n;
  }
  return -1;
}

/** Reads into `buf` from `at` until `done(end)` holds; the new end, or -1 at end of stream. */
async function readUntil(
  conn: Deno.Conn,
  buf: Uint8Array,
  at: number,
  done: (end: number) => boolean,
): Promise<number> {
  let end = at;
  while (!done(end)) {
    if (end === buf.length) return -1;
    const n = await conn.read(buf.subarray(end));
    if (n === null) return -1;
    end += n;
  }
  return end;
}

async function serveConn(client: Deno.Conn, upstreamPort: number): Promise<void> {
  let upstream: Deno.Conn | null = null;
  const req = new Uint8Array(16 * 1024);
  const res = new Uint8Array(64 * 1024);
  let have = 0; // bytes of the next request already read
  try {
    upstream = await Deno.connect({ hostname: "127.0.0.1", port: upstreamPort });
    for (;;) {
      let he = headEnd(req, have);
      if (he < 0) {
        have = await readUntil(client, req, have, (end) => (he = headEnd(req, end)) >= 0);
        if (have < 0) return;
      }
      if (contentLength(req, he) > 0) return; // a body: not the floor's business
      await upstream.write(req.subarray(0, he));
      req.copyWithin(0, he, have);
      have -= he;
      let rhe = -1;
      let total = Infinity; // until the head is read
      const end = await readUntil(upstream, res, 0, (end) => {
        if (rhe < 0 && (rhe = headEnd(res, end)) >= 0) {
          const n = contentLength(res, rhe);
          total = n < 0 ? Infinity : rhe + n;
        }
        return end >= total;
      });
      if (end < 0 || end > total) return; // ended early, or bytes past the response
      await client.write(res.subarray(0, total));
    }
  } catch {
    // Either side went away: close both.
  } finally {
    for (const c of [client, upstream]) {
      try {
        c?.close();
      } catch { /* closed by serveFloor */ }
    }
  }
}

/**
 * Serves every connection `listener` accepts, forwarding to 127.0.0.1:`upstreamPort`; when the
 * listener is closed, closes the connections too and resolves once they are done.
 */
export async function serveFloor(listener: Deno.Listener, upstreamPort: number): Promise<void> {
  const open = new Map<Deno.Conn, Promise<void>>();
  try {
    for await (const c of listener) {
      const conn = c as Deno.Conn;
      open.set(conn, serveConn(conn, upstreamPort).finally(() => open.delete(conn)));
    }
  } catch {
    // The listener was closed.
  }
  const done = [...open.values()];
  for (const conn of open.keys()) {
    try {
      conn.close();
    } catch { /* closed meanwhile */ }
  }
  await Promise.all(done);
}

if (import.meta.main) {
  const at = Deno.args.indexOf("-c");
  if (at < 0 || Deno.args[at + 1] === undefined) {
    console.error("usage: deno run -A bench/deno_floor.ts -c BOOTSTRAP.json");
    Deno.exit(2);
  }
  const path = Deno.args[at + 1];
  let cfg;
  try {
    cfg = JSON.parse(await Deno.readTextFile(path));
  } catch (e) {
    console.error(`${path}: ${(e as Error).message}`);
    Deno.exit(2);
  }
  const listen = cfg?.static_resources?.listeners?.[0]?.address?.socket_address?.port_value;
  const origin = cfg?.static_resources?.clusters?.[0]?.load_assignment?.endpoints?.[0]
    ?.lb_endpoints?.[0]?.endpoint?.address?.socket_address?.port_value;
  if (typeof listen !== "number" || typeof origin !== "number") {
    console.error(
      `${path}: expected static_resources.listeners[0].address.socket_address.port_value and ` +
        "clusters[0].load_assignment.endpoints[0].lb_endpoints[0].endpoint.address" +
        ".socket_address.port_value (numbers)",
    );
    Deno.exit(2);
  }
  const listener = Deno.listen({ hostname: "127.0.0.1", port: listen });
  Deno.addSignalListener("SIGTERM", () => Deno.exit(0));
  await serveFloor(listener, origin);
}
