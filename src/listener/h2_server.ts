/**
 * The downstream HTTP/2 server (h2c with prior knowledge, and h2 after TLS by ALPN): each
 * connection is spoken by the runtime's HTTP/2 codec (`node:http2`, nghttp2) over the accepted
 * connection itself, its requests reach the connection manager's handler with the connection's
 * addresses (`h2_stream.ts`), under the connection manager's timeouts (`h2c_timers.ts`).
 *
 * - SETTINGS and windows are the connection manager's `http2_protocol_options` (`h2_options.ts`,
 *   Envoy's defaults when unset); a stream beyond `max_concurrent_streams` is refused by the
 *   codec (RST_STREAM REFUSED_STREAM).
 * - Response trailers go to the client (a HEADERS frame that ends the stream), and request
 *   trailers reach the upstream, so gRPC works through the proxy.
 * - The codec's frames are walked on their way to the client ({@linkcode FrameSplicer}): the
 *   connection timers see which streams end, and put their GOAWAYs between two frames. A
 *   response the connection manager marks `connection: close` (a drain closing its connection)
 *   has that header removed (HTTP/2 has none) and makes its connection send the client a GOAWAY.
 *
 * @example Not run: it serves accepted connections for a running connection manager.
 * ```ts ignore
 * import { H2Server } from "./h2_server.ts";
 * const s = new H2Server(handler, () => undefined);
 * await s.carry(conn, { remoteAddr, localAddr }, preface);
 * await s.close();
 * ```
 * @module
 */
import { lingerClose } from "./delayed_close.ts";
import type http2 from "node:http2";
import { Duplex } from "node:stream";
import { HTTP2 } from "../upstream/http2_module.ts";
import type { DownstreamConn } from "../http/downstream_request.ts";
import { localReply } from "../http/local_reply.ts";
import type { ProxyResponse } from "../http/proxy_response.ts";
import { countClose, headerLimitError } from "./downstream_limits.ts";
import { FrameSplicer } from "./h2_frames.ts";
import { H2_DEFAULTS, type H2Options } from "./h2_options.ts";
import { H2cConnection, serveTimedStream, type TimedLimits } from "./h2c_timers.ts";
import { respond, type StreamConn, streamRequest } from "./h2_stream.ts";
import type { RequestHandler } from "./http1_server.ts";

const noop = () => {};
/** How long `close()` lets streams in flight finish before closing their connections. */
const CLOSE_GRACE_MS = 5000;
/** How long a closing connection waits for its last frames to be written. */
const FLUSH_MS = 1000;
/** Bytes of the client's connection preface (they come before its frames). */
const PREFACE_BYTES = 24;

/** The byte connection an HTTP/2 connection is spoken over (TCP, or TLS, or a wrapper). */
export interface H2Transport {
  read(b: Uint8Array): Promise<number | null>;
  write(b: Uint8Array): Promise<number>;
  closeWrite(): Promise<void>;
  close(): void;
}

/** One connection being served. */
interface Carried extends StreamConn {
  session: http2.ServerHttp2Session | null;
  /** Asks the client to go away (a drain's notice, or the timers' drain sequence). */
  goaway: () => void;
  /** Ends the connection now. */
  end: () => void;
  done: Promise<void>;
}

/** Serves the HTTP/2 connections of one connection manager. */
export class H2Server {
  #server: http2.Http2Server | null = null;
  readonly #settings: H2Options;
  readonly #limits: () => TimedLimits | undefined;
  readonly #carried = new Set<Carried>();
  /** The connection whose session the codec is making right now (synchronously). */
  #making: Carried | null = null;
  #closing = false;

  /**
   * Serves `handler` with the SETTINGS of `settings`; `limits` (when set) are the connection
   * manager's, whose timeouts apply to each connection and stream (`h2c_timers.ts`).
   */
  constructor(
    readonly handler: RequestHandler,
    limits: () => TimedLimits | undefined,
    settings: H2Options = H2_DEFAULTS,
  ) {
    this.#limits = limits;
    this.#settings = settings;
  }

  /** The codec's server, made on first use (`node:http2` is loaded by then). */
  #codec(): http2.Http2Server {
    if (this.#server !== null) return this.#server;
    const settings = this.#settings;
    const server = HTTP2.get().createServer({
      settings: {
        maxConcurrentStreams: settings.maxConcurrentStreams,
        initialWindowSize: settings.initialStreamWindowSize,
        headerTableSize: settings.hpackTableSize,
      },
      // Header counts and sizes are the connection manager's limits (431), not the codec's.
      maxHeaderListPairs: 1 << 16,
    });
    server.on("session", (s: http2.ServerHttp2Session) => this.#session(s));
    return this.#server = server;
  }

  #session(s: http2.ServerHttp2Session): void {
    const c = this.#making;
    if (c === null) return void s.destroy();
    c.session = s;
    s.on("error", noop);
    const conn = this.#settings.initialConnectionWindowSize;
    if (conn > 65535) {
      try {
        s.setLocalWindowSize(conn);
      } catch { /* the runtime keeps its window */ }
    }
    s.on(
      "stream",
      (st: http2.ServerHttp2Stream, _h: unknown, _f: number, raw: string[]) =>
        this.#stream(c, st, raw).catch(() => {
          // Nothing may escape a stream: whatever failed, the stream is reset.
          if (!st.destroyed) st.destroy(new Error("stream failed"));
        }),
    );
  }

  async #stream(c: Carried, st: http2.ServerHttp2Stream, raw: string[]): Promise<void> {
    st.on("error", noop);
    const r = streamRequest(st, raw, c);
    const l = this.#limits();
    if (l !== undefined) {
      r.error = headerLimitError(r.headers, l.limits, l.counters.http2Underscores, "http2");
    }
    const run = async (x: typeof r): Promise<ProxyResponse> => {
      const res = await this.handler(x, c.dc);
      if (res.headers.get("connection") === "close") {
        res.headers.delete("connection");
        c.goaway();
      }
      return res;
    };
    let res: ProxyResponse;
    try {
      res = l === undefined ? await run(r) : await serveTimedStream(r, run, l, r.signal);
    } catch {
      res = localReply(500, "internal error");
    }
    await respond(st, res, r.method);
  }

  /** Serves `down` (whose first bytes, the client's preface, were `initial`) until it closes. */
  async carry(down: H2Transport, dc: DownstreamConn, initial: Uint8Array): Promise<void> {
    if (!HTTP2.loaded) await HTTP2.load();
    return this.#carry(down, dc, initial);
  }

  #carry(down: H2Transport, dc: DownstreamConn, initial: Uint8Array): Promise<void> {
    const l = this.#limits();
    /** Who ended the connection first: its client, or the proxy (a timer, a drain, a stop). */
    let by: "remote" | "local" | null = null;
    let finished = noop;
    const done = new Promise<void>((r) => finished = r);
    // Writes to the client, in order: the codec's frames, walked once on their way, with the
    // proxy's own GOAWAYs between two of them.
    let writes = Promise.resolve();
    const send = (pieces: Uint8Array[]) => {
      const p = writes.then(async () => {
        for (const piece of pieces) await writeAll(down, piece);
      });
      writes = p.catch(noop);
      return p;
    };
    let timed: H2cConnection | null = null;
    const splicer = new FrameSplicer(
      l === undefined
        ? undefined
        : (type, flags, stream) => timed?.serverFrame(type, flags, stream),
    );
    const c: Carried = {
      dc,
      open: true,
      session: null,
      done,
      goaway: () => {
        if (timed !== null) return timed.drain();
        const now = splicer.request();
        if (now !== null) send([now]).catch(noop);
      },
      end: () => {
        by ??= "local";
        if (!c.open) return;
        // Streams aborted from here on were not reset by the client: its connection is gone.
        c.open = false;
        c.session?.destroy();
        // What the codec wrote last (its GOAWAY) goes out first, if the client takes it soon.
        let timer: ReturnType<typeof setTimeout> | undefined;
        const flushed = new Promise<void>((r) => timer = setTimeout(r, FLUSH_MS));
        Promise.race([writes, flushed]).then(async () => {
          clearTimeout(timer);
          const delay = by === "local" ? l?.delayedCloseMs ?? 0 : 0;
          if (delay > 0) {
            const rx = l?.counters.cxRxBytes;
            const timedOut = await lingerClose(
              down,
              delay,
              new Uint8Array(16384),
              (n) => rx?.inc(n),
            );
            if (timedOut) l?.counters.cxDelayedCloseTimeout.inc();
          } else {
            try {
              down.close();
            } catch { /* closed */ }
          }
          finished();
        });
      },
    };
    if (l !== undefined) {
      const splice = (frame: Uint8Array) => {
        const now = splicer.insert(frame);
        if (now !== null) send([now]).catch(noop);
      };
      timed = new H2cConnection(l, splice, () => writes, c.end, PREFACE_BYTES);
    }
    let first: Uint8Array | null = initial;
    const duplex = new Duplex({
      read() {
        if (first !== null) {
          const b = first;
          first = null;
          timed?.fromClient(b);
          this.push(b);
          return;
        }
        const b = new Uint8Array(16384);
        down.read(b).then((n) => {
          if (n === null) return gone();
          const got = b.subarray(0, n);
          timed?.fromClient(got);
          this.push(got);
        }, gone);
      },
      write(chunk: Uint8Array, _enc, cb) {
        send(splicer.feed(chunk)).then(() => cb(), (e) => {
          by ??= "remote";
          cb(e);
        });
      },
      final(cb) {
        cb();
      },
      destroy(_e, cb) {
        c.end();
        cb(null);
      },
    });
    duplex.on("error", noop);
    const gone = () => {
      by ??= "remote";
      c.end();
    };
    this.#carried.add(c);
    this.#making = c;
    try {
      this.#codec().emit("connection", duplex);
    } finally {
      this.#making = null;
    }
    c.session?.once("close", c.end);
    if (this.#closing) c.session?.close();
    return done.then(async () => {
      timed?.stop();
      const active = (timed?.openStreams ?? 0) > 0;
      await writes;
      if (l !== undefined) countClose(l.counters, by ?? "local", active);
      this.#carried.delete(c);
    });
  }

  /**
   * Asks every client to go away (GOAWAY) and lets the streams in flight finish, for at most
   * `graceMs`, then closes what is still open.
   */
  async close(graceMs = CLOSE_GRACE_MS): Promise<void> {
    this.#closing = true;
    const all = [...this.#carried];
    for (const c of all) c.session?.close();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const grace = new Promise<void>((r) => timer = setTimeout(r, graceMs));
    await Promise.race([Promise.all(all.map((c) => c.done)), grace]);
    clearTimeout(timer);
    for (const c of this.#carried) c.end();
  }
}

async function writeAll(c: H2Transport, b: Uint8Array): Promise<void> {
  let off = 0;
  while (off < b.length) off += await c.write(off ? b.subarray(off) : b);
}
