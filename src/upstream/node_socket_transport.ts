/**
 * Adapts a `node:net`/`node:tls` socket to the pull-style {@linkcode Transport} interface with
 * back-pressure: the socket is paused while no reader is waiting and unread data is queued.
 *
 * @example Not run: it needs an upstream server to connect to (127.0.0.1:8080).
 * ```ts ignore
 * import net from "node:net";
 * import { NodeSocketTransport } from "./node_socket_transport.ts";
 * const t = new NodeSocketTransport(net.connect(8080, "127.0.0.1"));
 * t.close();
 * ```
 * @module
 */
import type { Socket } from "node:net";

/** A node socket read and written like a `Deno.Conn`. */
export class NodeSocketTransport {
  #queue: Uint8Array[] = [];
  #ended = false;
  #error: Error | null = null;
  #waiter: (() => void) | null = null;

  /** Wraps a connected socket. */
  constructor(readonly socket: Socket) {
    socket.pause();
    socket.on("data", (d: Uint8Array) => {
      this.#queue.push(d);
      socket.pause();
      this.#wake();
    });
    socket.on("end", () => {
      this.#ended = true;
      this.#wake();
    });
    socket.on("close", () => {
      this.#ended = true;
      this.#wake();
    });
    socket.on("error", (e: Error) => {
      this.#error = e;
      this.#wake();
    });
  }

  #wake() {
    const w = this.#waiter;
    this.#waiter = null;
    w?.();
  }

  /** Reads into `buf`; `null` at end of stream. */
  async read(buf: Uint8Array): Promise<number | null> {
    while (this.#queue.length === 0) {
      if (this.#error) throw this.#error;
      if (this.#ended) return null;
      const p = new Promise<void>((r) => this.#waiter = r);
      this.socket.resume();
      await p;
    }
    const head = this.#queue[0];
    const n = Math.min(head.length, buf.length);
    buf.set(head.subarray(0, n));
    if (n === head.length) this.#queue.shift();
    else this.#queue[0] = head.subarray(n);
    return n;
  }

  /** Writes all of `data`, resolving when the socket accepted it. */
  write(data: Uint8Array): Promise<number> {
    if (this.#error) return Promise.reject(this.#error);
    return new Promise((resolve, reject) => {
      this.socket.write(data, (e?: Error | null) => e ? reject(e) : resolve(data.length));
    });
  }

  /** Half-closes: sends FIN (after a TLS close_notify) and keeps reading, like `Deno.TcpConn`. */
  closeWrite(): void {
    this.socket.end();
  }

  /** Closes the socket. */
  close(): void {
    this.socket.destroy();
  }
}
