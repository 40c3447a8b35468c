/**
 * A read on a Deno connection that goes straight to the runtime's read op, without the
 * `Deno.Conn.prototype.read` wrapper around it. The wrapper is an async function that also adds
 * the pending promise to a set and deletes it afterwards (for `unref()`), and maps 0 to `null`:
 * about 1 KB of allocation and a promise layer per read. The proxy keeps one such read pending on
 * every idle connection, downstream and upstream, so that is two of them per proxied request
 * (`deno task bench ab`: 0.938x and 0.958x the CPU per request in two runs).
 *
 * The op is reached through `Deno[Deno.internal].core`, which is not a public API: the runtime is
 * pinned (DESIGN.md), the test beside this file fails if the op or the resource id stop being
 * found, and any connection this cannot read directly (one whose `read` is overridden, a
 * `node:net` socket adapter, another runtime) gets its own `read`, the result mapped to the same
 * convention. A connection read this way must not be `unref()`ed (the proxy never does).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { directReader } from "./direct_read.ts";
 * const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
 * const client = await Deno.connect({ hostname: "127.0.0.1", port: listener.addr.port });
 * const server = await listener.accept();
 * const read = directReader(server);
 * await client.write(new TextEncoder().encode("hi"));
 * const buf = new Uint8Array(16);
 * assert.equal(await read(buf), 2);
 * client.close();
 * assert.equal(await read(buf), 0); // end of stream
 * server.close();
 * listener.close();
 * ```
 * @module
 */

/** Reads into `buf` (never empty): the number of bytes read, 0 at the end of the stream. */
export type DirectRead = (buf: Uint8Array) => Promise<number>;

/** What is read from: a Deno connection, or anything with its `read` shape. */
export interface Readable {
  read(buf: Uint8Array): Promise<number | null>;
}

interface RuntimeCore {
  read(rid: number, buf: Uint8Array): Promise<number>;
}

const core: RuntimeCore | undefined = (() => {
  const internal = (Deno as unknown as Record<symbol, unknown>)[
    (Deno as unknown as { internal: symbol }).internal
  ] as { core?: RuntimeCore } | undefined;
  return typeof internal?.core?.read === "function" ? internal.core : undefined;
})();

/** The own symbol property under which a Deno connection keeps its resource id. */
const RID = "Deno.internal.rid";

/**
 * The resource id of `conn` when its `read` is the runtime's own `Conn.prototype.read` (not
 * overridden on the object or a subclass), else null.
 */
export function directRid(conn: object): number | null {
  if (core === undefined || Object.hasOwn(conn, "read")) return null;
  const sym = Object.getOwnPropertySymbols(conn).find((s) => s.description === RID);
  if (sym === undefined) return null;
  let proto = Object.getPrototypeOf(conn);
  while (proto !== null && !Object.hasOwn(proto, "read")) proto = Object.getPrototypeOf(proto);
  if (proto === null || proto.constructor?.name !== "Conn") return null;
  const rid = (conn as Record<symbol, unknown>)[sym];
  return typeof rid === "number" ? rid : null;
}

const nullToZero = (n: number | null): number => n ?? 0;

/** A reader of `conn`: the runtime's read op when {@linkcode directRid} finds it, else `read`. */
export function directReader(conn: Readable): DirectRead {
  const rid = directRid(conn);
  if (rid !== null && core !== undefined) {
    const c = core;
    return (buf) => c.read(rid, buf);
  }
  return (buf) => conn.read(buf).then(nullToZero);
}
