/**
 * One stream of a downstream HTTP/2 connection (`h2_server.ts`) as the connection manager sees
 * it: {@linkcode streamRequest} turns the stream's request head and body (and its trailers,
 * which fill the request's trailer slot before the body ends) into a {@linkcode DownstreamRequest};
 * {@linkcode respond} writes a {@linkcode ProxyResponse} to the stream: head, body with flow
 * control, then the response trailers (a HEADERS frame that ends the stream; an empty DATA frame
 * when none came after all). A body that fails part way resets the stream (INTERNAL_ERROR).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { responseHead } from "./h2_stream.ts";
 * const h = responseHead(200, new Headers({ connection: "close", "x-a": "1" }));
 * assert.deepEqual(h, { ":status": 200, "x-a": "1" });
 * ```
 * @module
 */
import type http2 from "node:http2";
import {
  DOWNSTREAM_REMOTE_CLOSE,
  DOWNSTREAM_REMOTE_RESET,
  type DownstreamConn,
  type DownstreamRequest,
} from "../http/downstream_request.ts";
import { HeaderMap } from "../http/header_map.ts";
import { StreamReset } from "../http/stream_reset.ts";
import type { ProxyResponse, ResponseEnd } from "../http/proxy_response.ts";
import { trailerSlot, trailersOf } from "../http/trailers.ts";

const noop = () => {};

/** Fields HTTP/2 forbids (RFC 9113 §8.2.2): the runtime's codec refuses a head with them. */
const CONNECTION_SPECIFIC: ReadonlySet<string> = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "upgrade",
]);

const RESET = new Error("stream reset by the proxy");

/**
 * Resets `st` (RST_STREAM INTERNAL_ERROR, as Envoy's codec does on a local reset): the
 * runtime's codec sends a reset on `destroy`, while its `close(code)` ends the stream cleanly.
 */
function resetStream(st: http2.ServerHttp2Stream): void {
  if (!st.destroyed) st.destroy(RESET);
}

/** A head for `respond()`: `:status` and the fields, repeated names as lists. */
export function responseHead(
  status: number,
  headers: Headers,
): Record<string, string | number | string[]> {
  const out: Record<string, string | number | string[]> = { ":status": status };
  headers.forEach((v, k) => {
    if (CONNECTION_SPECIFIC.has(k) || k.charCodeAt(0) === 58) return;
    if (k === "te" && v.trim().toLowerCase() !== "trailers") return;
    const prev = out[k];
    if (prev === undefined) out[k] = v;
    else if (Array.isArray(prev)) prev.push(v);
    else out[k] = [prev as string, v];
  });
  return out;
}

function trailerRecord(t: Headers | null): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  t?.forEach((v, k) => {
    const prev = out[k];
    if (prev === undefined) out[k] = v;
    else if (Array.isArray(prev)) prev.push(v);
    else out[k] = [prev, v];
  });
  return out;
}

/** What a stream knows of its connection. */
export interface StreamConn {
  dc: DownstreamConn;
  /** False once the connection is gone (then a stream's end is the connection's close). */
  open: boolean;
}

/**
 * The request of `st` (`raw`: its head as name, value, ...). `signal` aborts when the client
 * resets the stream or its connection goes; `clientGone` then tells which.
 */
export function streamRequest(
  st: http2.ServerHttp2Stream,
  raw: readonly string[],
  conn: StreamConn,
): DownstreamRequest {
  let method = "GET";
  let path = "/";
  let authority: string | null = null;
  let host: string | null = null;
  let cl: string | null = null;
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const k = raw[i];
    const v = raw[i + 1];
    if (k.charCodeAt(0) === 58) {
      if (k === ":method") method = v;
      else if (k === ":path") path = v;
      else if (k === ":authority") authority = v;
      continue;
    }
    if (k === "host") host = v;
    else if (k === "content-length") cl = v;
    pairs.push([k, v]);
  }
  const ctl = new StreamReset();
  const abort = () => ctl.reset();
  st.once("aborted", abort);
  st.once("close", () => {
    // Any code but NO_ERROR (0) is a reset.
    if (st.rstCode !== 0) abort();
  });
  const ended = st.endAfterHeaders;
  const trailers = trailerSlot();
  const body = ended ? null : bodyOf(st, trailers);
  let length = -1;
  if (ended) length = 0;
  else if (cl !== null && /^\d+$/.test(cl)) length = Number(cl);
  return {
    method,
    path,
    authority: host ?? authority ?? "",
    scheme: conn.dc.tls ? "https" : "http",
    headers: new HeaderMap(pairs),
    body,
    contentLength: length,
    h2: true,
    error: null,
    trailers,
    signal: ctl,
    clientGone: () =>
      ctl.aborted ? (conn.open ? DOWNSTREAM_REMOTE_RESET : DOWNSTREAM_REMOTE_CLOSE) : null,
    reset: () => {
      resetStream(st);
    },
  };
}

/** The request body of `st`, read as it is pulled; its trailers fill `slot` before it ends. */
function bodyOf(
  st: http2.ServerHttp2Stream,
  slot: ReturnType<typeof trailerSlot>,
): ReadableStream<Uint8Array> {
  st.once("trailers", (t: http2.IncomingHttpHeaders, _f: number, raw?: string[]) => {
    const list: [string, string][] = [];
    if (raw !== undefined) {
      for (let i = 0; i + 1 < raw.length; i += 2) list.push([raw[i], raw[i + 1]]);
    } else {
      for (const [k, v] of Object.entries(t)) {
        if (typeof v === "string") list.push([k, v]);
        else if (Array.isArray(v)) { for (const x of v) list.push([k, x]); }
      }
    }
    slot.headers = trailersOf(list);
  });
  let done = false;
  return new ReadableStream<Uint8Array>({
    start(c) {
      st.pause();
      st.on("data", (chunk: Uint8Array) => {
        if (done) return;
        c.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((c.desiredSize ?? 0) <= 0) st.pause();
      });
      st.once("end", () => {
        if (done) return;
        done = true;
        c.close();
      });
      st.once("close", () => {
        if (done) return;
        done = true;
        c.error(DOWNSTREAM_REMOTE_RESET);
      });
    },
    pull() {
      st.resume();
    },
    cancel() {
      done = true;
      // What else the client sends is read and dropped (the window keeps moving).
      st.resume();
    },
  }, { highWaterMark: 1 });
}

/** Resolves once `st` can take more (drained) or has closed. */
function writable(st: http2.ServerHttp2Stream): Promise<void> {
  return new Promise((r) => {
    const go = () => {
      st.off("drain", go);
      st.off("close", go);
      r();
    };
    st.on("drain", go);
    st.on("close", go);
  });
}

/**
 * Writes `res` to `st` (the answer of a `method` request). A response of status 0 (the stream
 * was reset before its answer) writes nothing: the stream is reset if it is still open.
 */
export async function respond(
  st: http2.ServerHttp2Stream,
  res: ProxyResponse,
  method: string,
): Promise<void> {
  const end = res.onEnd;
  res.onEnd = undefined;
  let reported = false;
  const report = (n: number, how: ResponseEnd) => {
    if (reported) return;
    reported = true;
    end?.(n, how);
  };
  let body = res.body;
  if (res.status === 0 || st.destroyed || st.closed) {
    if (body instanceof ReadableStream) body.cancel().catch(noop);
    resetStream(st);
    return report(0, res.status === 0 ? "complete" : "client_gone");
  }
  const s = res.status;
  if (method === "HEAD" || s === 204 || s === 205 || s === 304) {
    if (body instanceof ReadableStream) body.cancel().catch(noop);
    body = null;
  }
  const withTrailers = body !== null && res.trailers !== undefined;
  const head = responseHead(s, res.headers);
  if (body instanceof Uint8Array && head["content-length"] === undefined) {
    head["content-length"] = String(body.byteLength);
  }
  try {
    st.respond(head, { endStream: body === null, waitForTrailers: withTrailers });
  } catch {
    if (body instanceof ReadableStream) body.cancel().catch(noop);
    resetStream(st);
    return report(0, "body_failed");
  }
  if (body === null) return report(0, "complete");
  if (withTrailers) {
    st.once("wantTrailers", () => {
      try {
        st.sendTrailers(trailerRecord(res.trailers?.headers ?? null));
      } catch {
        resetStream(st);
      }
    });
  }
  if (body instanceof Uint8Array) {
    st.end(body);
    return report(body.byteLength, "complete");
  }
  const rd = body.getReader();
  let gone = false;
  const onClose = () => {
    if (reported) return;
    gone = true;
    rd.cancel(DOWNSTREAM_REMOTE_RESET).catch(noop);
  };
  st.once("close", onClose);
  let sent = 0;
  try {
    for (;;) {
      const r = await rd.read();
      if (gone) return report(sent, "client_gone");
      if (r.done) break;
      sent += r.value.byteLength;
      if (!st.write(r.value)) await writable(st);
      if (gone || st.destroyed) {
        rd.cancel(DOWNSTREAM_REMOTE_RESET).catch(noop);
        return report(sent, "client_gone");
      }
    }
  } catch {
    if (gone) return report(sent, "client_gone");
    report(sent, "body_failed");
    resetStream(st);
    return;
  }
  st.off("close", onClose);
  st.end();
  report(sent, "complete");
}
