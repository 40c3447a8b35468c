/**
 * The connection manager's timeouts on HTTP/2 connections bridged to the runtime's HTTP/2
 * server ({@linkcode H2cBridge} in `http_listener.ts`), as Envoy runs them on an HTTP/2
 * connection:
 *
 * - connection level, from the frames the bridge carries ({@linkcode H2cConnection}):
 *   `idle_timeout` runs while no stream is open and ends the connection with a GOAWAY (last
 *   stream id: the highest the client opened, NO_ERROR) then a close;
 *   `max_connection_duration` sends the GOAWAY, lets open streams finish (at most Envoy's
 *   default `drain_timeout`, 5 s) and closes;
 * - stream level, around each request ({@linkcode serveTimedStream}): `request_timeout` (until
 *   the request is received in full or the response starts) and `stream_idle_timeout` (pushed
 *   back by every body chunk either way) answer a local reply while the response has not
 *   started (408 `request timeout`; 408 `stream timeout`, 504 once the request was received
 *   in full) and reset the stream once it has.
 *
 * Firings are counted as on HTTP/1.1 (`downstream_cx_idle_timeout`,
 * `downstream_cx_max_duration_reached`, `downstream_rq_timeout`, `downstream_rq_idle_timeout`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { FrameWalker, goawayFrame } from "./h2c_timers.ts";
 * const seen: number[] = [];
 * const w = new FrameWalker((type) => seen.push(type));
 * const f = goawayFrame(3);
 * w.push(f.subarray(0, 5));
 * assert.equal(w.atBoundary, false);
 * w.push(f.subarray(5));
 * assert.deepEqual(seen, [7]);
 * assert.equal(w.atBoundary, true);
 * ```
 * @module
 */
import type { DownstreamRequest } from "../http/downstream_request.ts";
import { localReply } from "../http/local_reply.ts";
import { type ProxyResponse, toResponse } from "../http/proxy_response.ts";
import type { DownstreamLimits, LimitCounters } from "./downstream_limits.ts";
import { ConnectionTimers, type TimerKind } from "./downstream_timers.ts";

/** A connection manager's limits and their counters. */
export interface TimedLimits {
  limits: DownstreamLimits;
  counters: LimitCounters;
}

const noop = () => {};

/** Envoy's default HTTP connection manager `drain_timeout`. */
export const DRAIN_TIMEOUT_MS = 5000;

const FRAME_DATA = 0;
const FRAME_HEADERS = 1;
const FRAME_RST_STREAM = 3;
const FLAG_END_STREAM = 1;

/** A GOAWAY frame (NO_ERROR) naming `lastStreamId`. */
export function goawayFrame(lastStreamId: number): Uint8Array {
  const f = new Uint8Array(17);
  f[2] = 8; // length
  f[3] = 7; // GOAWAY
  new DataView(f.buffer).setUint32(9, lastStreamId & 0x7fffffff);
  return f;
}

/**
 * Follows the frames of one direction of an HTTP/2 connection through the chunks it is carried
 * in: tells each frame's header, and whether the bytes so far end on a frame boundary.
 */
export class FrameWalker {
  readonly #head = new Uint8Array(9);
  #headLen = 0;
  #left = 0;
  #skip: number;

  /** `skip` bytes come first that are not frames (the client's connection preface). */
  constructor(
    readonly onFrame: (type: number, flags: number, stream: number) => void,
    skip = 0,
  ) {
    this.#skip = skip;
  }

  /** Reads the next chunk of bytes. */
  push(b: Uint8Array): void {
    let i = 0;
    while (i < b.length) {
      if (this.#skip > 0) {
        const n = Math.min(this.#skip, b.length - i);
        this.#skip -= n;
        i += n;
      } else if (this.#left > 0) {
        const n = Math.min(this.#left, b.length - i);
        this.#left -= n;
        i += n;
      } else {
        const n = Math.min(9 - this.#headLen, b.length - i);
        this.#head.set(b.subarray(i, i + n), this.#headLen);
        this.#headLen += n;
        i += n;
        if (this.#headLen === 9) {
          const h = this.#head;
          this.#headLen = 0;
          this.#left = (h[0] << 16) | (h[1] << 8) | h[2];
          const stream = (((h[5] & 0x7f) << 24) | (h[6] << 16) | (h[7] << 8) | h[8]) >>> 0;
          this.onFrame(h[3], h[4], stream);
        }
      }
    }
  }

  /** True when the bytes so far end between frames. */
  get atBoundary(): boolean {
    return this.#skip === 0 && this.#left === 0 && this.#headLen === 0;
  }
}

/**
 * The connection-level timers of one bridged HTTP/2 connection. The bridge shows it the bytes
 * each way ({@linkcode H2cConnection.fromClient}, {@linkcode H2cConnection.toClient}) and
 * sends the server's bytes through {@linkcode H2cConnection.send}; `end` closes both sides.
 */
export class H2cConnection {
  readonly #timers: ConnectionTimers;
  readonly #open = new Set<number>();
  readonly #client: FrameWalker;
  readonly #server: FrameWalker;
  #lastStream = 0;
  #writing: Promise<void> = Promise.resolve();
  #goawayPending = false;
  #goawaySent = false;
  #closeWhenIdle = false;
  #drain: ReturnType<typeof setTimeout> | undefined;

  /**
   * Timers for `lim`; `write` puts bytes on the client's connection, `end` closes it;
   * `prefaceBytes` client bytes come before the frames.
   */
  constructor(
    lim: TimedLimits,
    readonly write: (b: Uint8Array) => Promise<void>,
    readonly end: () => void,
    prefaceBytes: number,
  ) {
    this.#timers = new ConnectionTimers({
      ...lim.limits,
      requestHeadersTimeoutMs: 0,
      requestTimeoutMs: 0,
      streamIdleTimeoutMs: 0,
    }, lim.counters);
    this.#timers.onFire = (kind) => this.#fire(kind);
    this.#client = new FrameWalker((type, _flags, stream) => {
      if (type === FRAME_HEADERS && stream > this.#lastStream) {
        this.#lastStream = stream;
        this.#opened(stream);
      } else if (type === FRAME_RST_STREAM) this.#closed(stream);
    }, prefaceBytes);
    this.#server = new FrameWalker((type, flags, stream) => {
      const ends = (type === FRAME_DATA || type === FRAME_HEADERS) &&
        (flags & FLAG_END_STREAM) !== 0;
      if (ends || type === FRAME_RST_STREAM) this.#closed(stream);
    });
    this.#timers.start();
  }

  #opened(stream: number): void {
    if (this.#open.size === 0) this.#timers.streamStart();
    this.#open.add(stream);
  }

  #closed(stream: number): void {
    if (!this.#open.delete(stream) || this.#open.size > 0) return;
    this.#timers.streamEnd(this.#closeWhenIdle);
    if (this.#closeWhenIdle) this.#finish();
  }

  #fire(kind: TimerKind): void {
    if (kind !== "idle" && kind !== "max_duration") return;
    this.#closeWhenIdle = true;
    this.#goaway();
    if (this.#open.size === 0) this.#finish();
    else this.#drain = setTimeout(() => this.#finish(), DRAIN_TIMEOUT_MS);
  }

  #goaway(): void {
    if (this.#goawaySent) return;
    if (!this.#server.atBoundary) {
      this.#goawayPending = true;
      return;
    }
    this.#goawaySent = true;
    this.#goawayPending = false;
    this.#queue(goawayFrame(this.#lastStream));
  }

  #queue(b: Uint8Array): Promise<void> {
    const p = this.#writing.then(() => this.write(b));
    this.#writing = p.catch(noop);
    return p;
  }

  #finish(): void {
    clearTimeout(this.#drain);
    this.#timers.stop();
    // What is queued (the GOAWAY, the frame that closed the last stream) goes out first.
    queueMicrotask(() => this.#writing.then(() => this.end()));
  }

  /** Bytes the client sent (on their way to the server). */
  fromClient(b: Uint8Array): void {
    this.#client.push(b);
  }

  /** Sends bytes of the server to the client, in order with a GOAWAY of a timer. */
  send(b: Uint8Array): Promise<void> {
    this.#server.push(b);
    const p = this.#queue(b);
    if (this.#goawayPending) this.#goaway();
    return p;
  }

  /** The connection is gone: every timer stops. */
  stop(): void {
    clearTimeout(this.#drain);
    this.#timers.stop();
  }
}

/** The local reply of a stream timer that fired before the response started. */
function streamTimeoutReply(kind: TimerKind, requestComplete: boolean): ProxyResponse {
  return kind === "request"
    ? localReply(408, "request timeout")
    : localReply(requestComplete ? 504 : 408, "stream timeout");
}

/**
 * Serves one request of a bridged HTTP/2 connection through `run` under the stream timers of
 * `lim` (`request_timeout`, `stream_idle_timeout`, or the route's `idle_timeout` in its place): a timer that fires before the response
 * starts answers Envoy's local reply (the handler's late answer is dropped); one that fires
 * while the response body is being sent resets the stream. `gone` (the stream's abort signal)
 * stops the timers when the client goes away.
 */
export async function serveTimedStream(
  req: DownstreamRequest,
  run: (req: DownstreamRequest) => Promise<ProxyResponse>,
  lim: TimedLimits,
  gone?: AbortSignal,
): Promise<Response> {
  const l = lim.limits;
  const timers = new ConnectionTimers({
    ...l,
    idleTimeoutMs: 0,
    maxConnectionDurationMs: 0,
    requestHeadersTimeoutMs: 0,
  }, lim.counters);
  let requestComplete = req.body === null;
  let expire: (kind: TimerKind) => void = noop;
  let reset: ((e: Error) => void) | null = null;
  timers.onFire = (kind) => {
    if (reset === null) return expire(kind);
    timers.stop();
    reset(new Error(kind === "request" ? "request timeout" : "stream timeout"));
  };
  timers.streamStart();
  // A route's `idle_timeout` replaces the stream idle timeout, as on HTTP/1.1.
  req = { ...req, setIdleTimeout: (ms) => timers.setStreamIdleTimeout(ms) };
  // A stream the client reset (or a connection gone) times nothing out.
  gone?.addEventListener("abort", () => timers.stop(), { once: true });
  if (req.body !== null) {
    req = {
      ...req,
      body: req.body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, c) {
            timers.activity();
            c.enqueue(chunk);
          },
          flush() {
            requestComplete = true;
            timers.requestDone();
          },
        }),
      ),
    };
  } else timers.requestDone();
  const expired = new Promise<TimerKind>((r) => expire = r);
  const pending = run(req);
  let first: { res: ProxyResponse } | { kind: TimerKind };
  try {
    first = await Promise.race([
      pending.then((res) => ({ res })),
      expired.then((kind) => ({ kind })),
    ]);
  } catch (e) {
    timers.stop();
    throw e;
  }
  expire = noop;
  if ("kind" in first) {
    timers.stop();
    pending.then((late) => {
      if (late.body instanceof ReadableStream) late.body.cancel().catch(noop);
    }, noop);
    return toResponse(streamTimeoutReply(first.kind, requestComplete));
  }
  timers.requestDone();
  const response = toResponse(first.res);
  if (response.body === null) {
    timers.stop();
    return response;
  }
  const reader = response.body.getReader();
  const watched = new ReadableStream<Uint8Array>({
    start(c) {
      reset = (e) => {
        c.error(e);
        reader.cancel(e).catch(noop);
      };
    },
    async pull(c) {
      try {
        const r = await reader.read();
        if (r.done) {
          timers.stop();
          c.close();
        } else {
          timers.activity();
          c.enqueue(r.value);
        }
      } catch (e) {
        timers.stop();
        c.error(e);
      }
    },
    cancel(reason) {
      timers.stop();
      return reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
  return new Response(watched, { status: response.status, headers: response.headers });
}
