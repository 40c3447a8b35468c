/**
 * The stream duration limit of the HTTP connection manager, as Envoy's
 * `ConnectionManagerImpl::ActiveStream` runs it: `common_http_protocol_options.max_stream_duration`
 * of the manager, or the matched route's `max_stream_duration` (`router/max_stream_duration.ts`)
 * in its place (0 turns it off; with `grpc_timeout_header_max` the request's `grpc-timeout`
 * header gives the limit, capped and less `grpc_timeout_header_offset`).
 *
 * When the limit passes, the stream's upstream attempt is abandoned through the request's abort
 * signal (its HTTP/1.1 connection closed, its HTTP/2 stream reset, as the router does for a
 * downstream reset). Before the response has started, the answer is Envoy's local reply
 * `downstream duration timeout`: 408 while the request is still arriving, 504 once it has
 * arrived in full (Envoy's `maybeRequestTimeoutCode`). After, the response body is cut, which
 * resets the stream (HTTP/1.1 closes the connection). A request an internal redirect sends
 * again is a new stream: its limit starts afresh and the first one's stops.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { limitStreamDuration, streamDurationMs } from "./stream_duration.ts";
 * import { fromRequest } from "../http/downstream_request.ts";
 * const req = fromRequest(new Request("http://a/"));
 * assert.equal(streamDurationMs(null, req.headers, 0), null);
 * assert.equal(streamDurationMs({ maxMs: 5, grpcHeaderMaxMs: null, grpcHeaderOffsetMs: null }, req.headers, 0), 5);
 * let fired = 0;
 * const res = await limitStreamDuration(5, req, () => new Promise(() => {}), () => fired++);
 * assert.equal(res.status, 504);
 * assert.equal(fired, 1);
 * assert.equal(req.signal?.aborted, true);
 * ```
 * @module
 */
import type { DownstreamRequest } from "../http/downstream_request.ts";
import type { ProxyResponse } from "../http/proxy_response.ts";
import { localReply } from "../http/local_reply.ts";
import type { MaxStreamDuration } from "../router/max_stream_duration.ts";
import { formatGrpcTimeout, parseGrpcTimeout } from "../http/grpc_timeout.ts";
import { isGrpcRequest } from "../http/grpc_local_reply.ts";
import { StreamReset } from "../http/stream_reset.ts";

/** Envoy's local reply body when the stream duration limit passes. */
export const DURATION_TIMEOUT_BODY = "downstream duration timeout";

/** The longest delay `setTimeout` keeps (2^31 - 1 ms). */
const MAX_TIMER_MS = 2_147_483_647;

/** Envoy's response code details of that reply. */
export const DURATION_TIMEOUT_DETAILS = "max_duration_timeout";

/**
 * Stops the limit of a stream, by the abort signal the limit gave it: a stream an internal
 * redirect recreates (its request copied, signal included) starts afresh, as in Envoy.
 */
const limits = new WeakMap<StreamReset, () => void>();

/**
 * The duration limit (ms) of a stream on a route whose `max_stream_duration` is `route` (null:
 * unset) under a connection manager whose own is `hcmMs` (0: none); null when the stream has
 * none. As Envoy, a gRPC request on a route that sets the message gets its `grpc-timeout`
 * header set to the limit (or removed when the route turns off the manager's limit).
 */
export function streamDurationMs(
  route: MaxStreamDuration | null,
  headers: Headers,
  hcmMs: number,
): number | null {
  const grpc = route !== null && route.grpcHeaderMaxMs !== null
    ? parseGrpcTimeout(headers.get("grpc-timeout"))
    : null;
  let ms: number | null;
  if (grpc === null) {
    ms = route !== null && route.maxMs !== null
      ? (route.maxMs > 0 ? route.maxMs : null)
      : (hcmMs > 0 ? hcmMs : null);
  } else {
    ms = grpc;
    const cap = route!.grpcHeaderMaxMs!;
    if (cap > 0 && ms > cap) ms = cap;
    const off = route!.grpcHeaderOffsetMs;
    if (ms !== 0 && off !== null) ms = off < ms ? ms - off : 0;
  }
  if (route !== null && isGrpcRequest(headers)) {
    if (ms !== null) headers.set("grpc-timeout", formatGrpcTimeout(ms));
    else if (hcmMs > 0) headers.delete("grpc-timeout");
  }
  return ms;
}

/**
 * Runs `run` for `req` under a duration limit of `ms`: `fired` is told when it passes (to count
 * it and note the access log details). The limit ends with the response body, or when the
 * client goes away.
 */
export async function limitStreamDuration(
  ms: number,
  req: DownstreamRequest,
  run: (req: DownstreamRequest) => Promise<ProxyResponse>,
  fired: () => void,
): Promise<ProxyResponse> {
  const ctl = new StreamReset();
  const gone = req.signal;
  if (gone !== undefined) limits.get(gone)?.();
  req.signal = gone === undefined ? ctl : StreamReset.any(gone, ctl);
  let complete = req.body === null;
  if (req.body !== null) req.body = watchEnd(req.body, () => complete = true);
  let answered = false;
  let expire: (v: number) => void = () => {};
  const expired = new Promise<number>((r) => expire = r);
  let cut: ((e: Error) => void) | null = null;
  // setTimeout keeps 31 bits of ms (24.8 days): a longer limit (a grpc-timeout of many hours)
  // waits that long rather than firing at once.
  const timer = setTimeout(() => {
    fired();
    // The status is settled before the abort, which may end the request body.
    const status = complete ? 504 : 408;
    ctl.reset();
    if (!answered) expire(status);
    else cut?.(new Error(DURATION_TIMEOUT_BODY));
  }, Math.min(MAX_TIMER_MS, Math.max(0, ms)));
  const stop = () => clearTimeout(timer);
  gone?.onReset(stop);
  limits.set(req.signal, stop);
  const pending = run(req);
  let res: ProxyResponse | number;
  try {
    res = await Promise.race([pending, expired]);
  } catch (e) {
    stop();
    throw e;
  }
  if (typeof res === "number") {
    pending.then((late) => {
      if (late.body instanceof ReadableStream) late.body.cancel().catch(() => {});
    }, () => {});
    // A gRPC request is told DEADLINE_EXCEEDED, as Envoy's onStreamMaxDurationReached.
    return { ...localReply(res, DURATION_TIMEOUT_BODY), grpcStatus: 4 };
  }
  answered = true;
  if (!(res.body instanceof ReadableStream)) {
    stop();
    return res;
  }
  const rd = res.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      cut = (e) => {
        cut = null;
        try {
          c.error(e);
        } catch { /* already ended */ }
        rd.cancel(e).catch(() => {});
        // HTTP/1.1 has no stream to reset: the connection closes.
        req.reset?.();
      };
    },
    async pull(c) {
      const r = await rd.read();
      if (r.done) {
        cut = null;
        stop();
        c.close();
      } else c.enqueue(r.value);
    },
    cancel(reason) {
      cut = null;
      stop();
      return rd.cancel(reason);
    },
  }, { highWaterMark: 0 });
  return { ...res, body };
}

/** `body`, telling `done` when it has been read to its end. */
function watchEnd(
  body: ReadableStream<Uint8Array>,
  done: () => void,
): ReadableStream<Uint8Array> {
  const rd = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(c) {
      const r = await rd.read();
      if (r.done) {
        done();
        c.close();
      } else c.enqueue(r.value);
    },
    cancel(reason) {
      return rd.cancel(reason);
    },
  }, { highWaterMark: 0 });
}
