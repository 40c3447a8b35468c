/**
 * A response inside the proxy: what clusters, local replies and HTTP filters hand to the
 * connection manager, and what a downstream codec writes. It is a plain object, not a Fetch
 * `Response`: building a `Response` (and its body stream) for every proxied request cost more
 * than the rest of the request path together, so only code that needs a Fetch `Response`
 * (tests, embedders) converts (with {@linkcode toResponse}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { proxyResponse, toResponse } from "./proxy_response.ts";
 * const r = proxyResponse(200, new Headers({ "content-type": "text/plain" }), "hi");
 * assert.equal(await toResponse(r).text(), "hi");
 * ```
 * @module
 */
import { HeaderMap } from "./header_map.ts";
import type { TrailerSlot } from "./trailers.ts";

/** A body: all of it, a stream of pieces, or none. */
export type ProxyBody = Uint8Array | ReadableStream<Uint8Array> | null;

/**
 * How writing a response ended: all of it went out, the client went away first, or the body
 * (an upstream stream) failed part way.
 */
export type ResponseEnd = "complete" | "client_gone" | "body_failed";

/** A response on its way downstream. */
export interface ProxyResponse {
  status: number;
  /** Response headers (hop-by-hop ones already removed). */
  headers: Headers;
  body: ProxyBody;
  /**
   * The response trailers, filled by the upstream side before its body stream ends (read them
   * after the body's end).
   */
  trailers?: TrailerSlot;
  /** The access log response flag of a local reply (`UH`, `UF`, ...). */
  flag?: string;
  /** Set on a local reply (one the proxy made): the text of its body. */
  localBody?: string;
  /**
   * The gRPC status a local reply was made with (a fault filter's `grpc_status`, a stream
   * duration's `DEADLINE_EXCEEDED`); to a gRPC request it is sent in place of the status mapped
   * from the HTTP one (`grpc_local_reply.ts`).
   */
  grpcStatus?: number;
  /** Called once when writing the response downstream has ended, with the body bytes sent. */
  onEnd?: (bytesSent: number, end: ResponseEnd) => void;
}

const encoder = new TextEncoder();

/** A response with a body given as bytes or text (text is UTF-8 encoded). */
export function proxyResponse(
  status: number,
  headers: Headers = new HeaderMap(),
  body: ProxyBody | string = null,
): ProxyResponse {
  return { status, headers, body: typeof body === "string" ? encoder.encode(body) : body };
}

/** Adds `fn` to the callbacks run when `res` has ended (earlier ones run first). */
export function onResponseEnd(
  res: ProxyResponse,
  fn: (bytesSent: number, end: ResponseEnd) => void,
): void {
  const prev = res.onEnd;
  res.onEnd = prev === undefined ? fn : (n, e) => {
    prev(n, e);
    fn(n, e);
  };
}

/**
 * A Fetch `Response` for `res` (for `Deno.serve`); its body reports `onEnd` when the
 * server has pulled all of it, or cancelled it.
 */
export function toResponse(res: ProxyResponse): Response {
  const end = res.onEnd;
  let body: BodyInit | null = res.body as BodyInit | null;
  if (end !== undefined) {
    res.onEnd = undefined;
    if (res.body === null) end(0, "complete");
    else body = reportingStream(res.body, end);
  }
  return new Response(body, { status: res.status, headers: res.headers });
}

function reportingStream(
  src: Uint8Array | ReadableStream<Uint8Array>,
  end: (bytesSent: number, end: ResponseEnd) => void,
): ReadableStream<Uint8Array> {
  let sent = 0;
  let ended = false;
  const finish = (how: ResponseEnd) => {
    if (ended) return;
    ended = true;
    end(sent, how);
  };
  if (src instanceof Uint8Array) {
    let given = false;
    return new ReadableStream<Uint8Array>({
      pull(ctrl) {
        if (given) {
          ctrl.close();
          return finish("complete");
        }
        given = true;
        sent = src.byteLength;
        ctrl.enqueue(src);
      },
      cancel() {
        finish("client_gone");
      },
    }, { highWaterMark: 0 });
  }
  const rd = src.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(ctrl) {
      try {
        const r = await rd.read();
        if (r.done) {
          ctrl.close();
          finish("complete");
        } else {
          sent += r.value.byteLength;
          ctrl.enqueue(r.value);
        }
      } catch (e) {
        finish("body_failed");
        ctrl.error(e);
      }
    },
    cancel(reason) {
      finish("client_gone");
      return rd.cancel(reason);
    },
  }, { highWaterMark: 0 });
}

/** Reads all of a body (tests and small local uses). */
export async function bodyBytes(body: ProxyBody): Promise<Uint8Array> {
  if (body === null) return new Uint8Array(0);
  if (body instanceof Uint8Array) return body;
  return new Uint8Array(await new Response(body).arrayBuffer());
}

/** Reads all of a body as UTF-8 text. */
export async function bodyText(res: ProxyResponse): Promise<string> {
  return new TextDecoder().decode(await bodyBytes(res.body));
}
