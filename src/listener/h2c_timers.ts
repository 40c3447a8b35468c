/**
 * The connection manager's timeouts on downstream HTTP/2 connections ({@linkcode H2Server} in
 * `h2_server.ts`), as Envoy runs them on an HTTP/2 connection:
 *
 * - connection level, from the frames the connection carries ({@linkcode H2cConnection}):
 *   `idle_timeout` (while no stream is open), `max_connection_duration` and a listener drain
 *   run Envoy's drain sequence: a GOAWAY notice (last stream id 2^31-1, NO_ERROR), new streams
 *   still taken for `drain_timeout` (default 5 s), then the final GOAWAY (last stream id: the
 *   highest the client opened, NO_ERROR), and the close once no stream is open;
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
 * import { DRAIN_TIMEOUT_MS } from "./h2c_timers.ts";
 * assert.equal(DRAIN_TIMEOUT_MS, 5000); // Envoy's default drain_timeout
 * ```
 * @module
 */
import type { DownstreamRequest } from "../http/downstream_request.ts";
import { localReply } from "../http/local_reply.ts";
import { isGrpcRequest, toGrpcLocalReply } from "../http/grpc_local_reply.ts";
import type { ProxyResponse } from "../http/proxy_response.ts";
import type { StreamReset } from "../http/stream_reset.ts";
import type { DownstreamLimits, LimitCounters } from "./downstream_limits.ts";
import { ConnectionTimers, type TimerKind } from "./downstream_timers.ts";
import { FrameWalker, GOAWAY_NOTICE, goawayFrame } from "./h2_frames.ts";

/** A connection manager's limits and their counters. */
export interface TimedLimits {
  limits: DownstreamLimits;
  counters: LimitCounters;
  /** `drain_timeout`: from the GOAWAY notice to the final GOAWAY (unset: Envoy's 5 s). */
  drainTimeoutMs?: number;
  /** `delayed_close_timeout` (`delayed_close.ts`); 0 or unset: close at once. */
  delayedCloseMs?: number;
}

const noop = () => {};

/** Envoy's default HTTP connection manager `drain_timeout`. */
export const DRAIN_TIMEOUT_MS = 5000;

const FRAME_DATA = 0;
const FRAME_HEADERS = 1;
const FRAME_RST_STREAM = 3;
const FLAG_END_STREAM = 1;

/**
 * The connection-level timers of one HTTP/2 connection. The server shows it the
 * client's bytes ({@linkcode H2cConnection.fromClient}) and the codec's frame headers
 * ({@linkcode H2cConnection.serverFrame}, from the walk that carries them to the client); a
 * timer's GOAWAY goes to the client through `splice`, between two of the server's frames.
 */
export class H2cConnection {
  readonly #timers: ConnectionTimers;
  readonly #open = new Set<number>();
  readonly #client: FrameWalker;
  #lastStream = 0;
  #draining = false;
  #closeWhenIdle = false;
  #drain: ReturnType<typeof setTimeout> | undefined;
  readonly #drainTimeoutMs: number;
  readonly #counters: LimitCounters;

  /**
   * Timers for `lim`; `splice` puts a frame on the client's connection between two of the
   * server's, `flushed` resolves once what was written so far is out, `end` closes the
   * connection; `prefaceBytes` client bytes come before the frames.
   */
  constructor(
    lim: TimedLimits,
    readonly splice: (frame: Uint8Array) => void,
    readonly flushed: () => Promise<void>,
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
    this.#drainTimeoutMs = lim.drainTimeoutMs ?? DRAIN_TIMEOUT_MS;
    this.#counters = lim.counters;
    this.#client = new FrameWalker((type, _flags, stream) => {
      if (type === FRAME_HEADERS && stream > this.#lastStream) {
        this.#lastStream = stream;
        this.#opened(stream);
      } else if (type === FRAME_RST_STREAM) {
        // A stream the client reset (`downstream_rq_rx_reset`).
        if (this.#open.has(stream)) this.#counters.rqRxReset.inc();
        this.#closed(stream);
      }
    }, prefaceBytes);
    this.#timers.start();
  }

  /** A frame header the server sent: a stream it ended or reset is closed. */
  serverFrame(type: number, flags: number, stream: number): void {
    const ends = (type === FRAME_DATA || type === FRAME_HEADERS) &&
      (flags & FLAG_END_STREAM) !== 0;
    if (type === FRAME_RST_STREAM && this.#open.has(stream)) {
      // A stream the proxy reset toward its client (`downstream_rq_tx_reset`).
      this.#counters.rqTxReset.inc();
    }
    if (ends || type === FRAME_RST_STREAM) this.#closed(stream);
  }

  /** How many streams are open (begun by the client, not yet ended or reset). */
  get openStreams(): number {
    return this.#open.size;
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
    if (kind === "idle" || kind === "max_duration") this.drain();
  }

  /**
   * Starts the drain sequence (once): the GOAWAY notice now, the final GOAWAY after
   * `drain_timeout`, then the close once no stream is open.
   */
  drain(): void {
    if (this.#draining) return;
    this.#draining = true;
    this.splice(GOAWAY_NOTICE);
    this.#drain = setTimeout(() => this.#finalGoaway(), this.#drainTimeoutMs);
  }

  #finalGoaway(): void {
    this.#closeWhenIdle = true;
    this.splice(goawayFrame(this.#lastStream));
    if (this.#open.size === 0) this.#finish();
  }

  #finish(): void {
    clearTimeout(this.#drain);
    this.#timers.stop();
    // What is queued (the GOAWAY, the frame that closed the last stream) goes out first.
    queueMicrotask(() => this.flushed().then(() => this.end()));
  }

  /** Bytes the client sent (on their way to the server). */
  fromClient(b: Uint8Array): void {
    this.#client.push(b);
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
 * Serves one request of an HTTP/2 connection through `run` under the stream timers of
 * `lim` (`request_timeout`, `stream_idle_timeout`, or the route's `idle_timeout` in its place): a timer that fires before the response
 * starts answers Envoy's local reply (the handler's late answer is dropped); one that fires
 * while the response body is being sent resets the stream. `gone` (the stream's abort signal)
 * stops the timers when the client goes away.
 */
export async function serveTimedStream(
  req: DownstreamRequest,
  run: (req: DownstreamRequest) => Promise<ProxyResponse>,
  lim: TimedLimits,
  gone?: StreamReset,
): Promise<ProxyResponse> {
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
  gone?.onReset(() => timers.stop());
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
    const reply = streamTimeoutReply(first.kind, requestComplete);
    return isGrpcRequest(req.headers) ? toGrpcLocalReply(reply, false) : reply;
  }
  timers.requestDone();
  const response = first.res;
  if (!(response.body instanceof ReadableStream)) {
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
  return { ...response, body: watched };
}
