/**
 * One request over an HTTP/2 session (prior knowledge), with the same statistics and local
 * replies as HTTP/1.1.
 *
 * @example Not run: it needs an upstream server to connect to (HTTP/2).
 * ```ts ignore
 * import { forwardHttp2 } from "./forward_http2.ts";
 * const res = await forwardHttp2(cluster, host, request);
 * ```
 * @module
 */
import type http2 from "node:http2";
import type { Cluster } from "./cluster.ts";
import type { Host } from "./host.ts";
import { abandoned, Exchange } from "./forward_http1.ts";
import { ConnectError } from "./transport.ts";
import type { UpstreamRequest } from "./upstream_request.ts";
import type { H2Response } from "./http2_pool.ts";
import { buildResponseHeaders } from "../http/response_headers.ts";
import type { ProxyResponse } from "../http/proxy_response.ts";

/**
 * The HTTP/2 error code CANCEL (RFC 9113 section 7; `NGHTTP2_CANCEL`), written here so that
 * loading this module does not load `node:http2`: HTTP/2 sessions load it on demand
 * (`http2_module.ts`), and a proxy without HTTP/2 clusters never does.
 */
const CANCEL = 0x8;

/** Why the wait for a response head ended before it. */
type Early = "timeout" | "abort" | "duration";

/** Forwards `r` to `host` over HTTP/2. Never rejects. */
export async function forwardHttp2(
  cluster: Cluster,
  host: Host,
  r: UpstreamRequest,
): Promise<ProxyResponse> {
  const pool = cluster.h2Pool(host, r.priority);
  const ex = new Exchange(cluster, host, r);
  let stream: http2.ClientHttp2Stream | null = null;
  // The response head, or why the wait for it ended early: one promise settled by whichever
  // comes first (the stream's head or failure, a timeout, an abort, max_stream_duration).
  let settle!: (v: H2Response | Early) => void;
  let fail!: (e: unknown) => void;
  const outcome = new Promise<H2Response | Early>((resolve, reject) => {
    settle = resolve;
    fail = reject;
  });
  // A reset by the router (the per-try idle timeout, a downstream reset): RST_STREAM CANCEL.
  ex.onAbort = () => {
    stream?.close(CANCEL);
    settle("abort");
  };
  if (r.timeoutMs > 0) {
    ex.deadline = cluster.deadlines.add(r.timeoutMs, () => {
      ex.timedOut = true;
      if (stream !== null && !ex.answered) {
        cluster.stats.rq_tx_reset.inc();
        stream.close(CANCEL);
      } else stream?.close();
      settle("timeout");
    });
  }
  const headers: Record<string, string | string[]> = {
    ":method": r.method,
    ":path": r.path,
    ":authority": r.authority,
    ":scheme": cluster.effective.tls ? "https" : "http",
  };
  for (const [k, v] of r.headers) {
    const prev = headers[k];
    if (prev === undefined) headers[k] = v;
    else if (Array.isArray(prev)) prev.push(v);
    else headers[k] = [prev, v];
  }
  if (r.body && r.contentLength >= 0) headers["content-length"] = String(r.contentLength);
  try {
    pool.request(headers, r.body, (s) => {
      stream = s;
      if (ex.aborted) s.close(CANCEL);
      else if (cluster.effective.maxStreamDurationMs !== undefined) {
        // max_stream_duration: the stream is reset; before the answer the wait ends too.
        ex.onMaxDuration = () => {
          ex.sent = s.writableEnded;
          s.close(CANCEL);
          if (!ex.answered) settle("duration");
        };
        ex.streamStarted();
      }
    }, r.trailers).then(settle, fail);
    const res = await outcome;
    if (res === "abort") return abandoned();
    if (res === "duration") return ex.maxDurationReply();
    if (res === "timeout") return ex.timeout();
    ex.response(res.status, res.headers);
    const h = buildResponseHeaders(res.headers, ex.t0);
    let body = res.body;
    // A route timeout after the response head is not counted as a timeout (as in Envoy).
    res.onClose(() => ex.finish());
    // A head that ended the stream (a gRPC trailers-only answer) has no body to wait for.
    if (res.status === 204 || res.status === 304 || r.method === "HEAD" || res.endStream) {
      if (body instanceof ReadableStream) body.cancel().catch(() => {});
      body = null;
    }
    return { status: res.status, headers: h, body, trailers: res.trailers };
  } catch (e) {
    if (ex.aborted) return abandoned();
    if (ex.maxDuration) return ex.maxDurationReply();
    if (ex.timedOut) return ex.timeout();
    if (!(e instanceof ConnectError)) cluster.stats.rq_rx_reset.inc();
    return ex.reset(e instanceof ConnectError ? "connection failure" : "remote reset");
  }
}
