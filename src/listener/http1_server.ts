/**
 * One downstream HTTP/1.1 connection served by our own codec: reads request heads from a read
 * buffer, hands each request to the connection manager as a {@linkcode DownstreamRequest} (body
 * streamed from the connection with back-pressure), and writes the {@linkcode ProxyResponse}
 * back: small responses as one write, bodies of unknown length chunked (close-delimited for
 * HTTP/1.0). Requests on a connection are answered in order (pipelined ones wait in the
 * buffer). No Fetch `Request`/`Response` objects are made on this path.
 *
 * A connection whose first request line is the HTTP/2 preface is handed to `onH2` with the
 * bytes read so far.
 *
 * @example Not run: it serves a connection accepted on a listening socket.
 * ```ts ignore
 * import { serveHttp1 } from "./http1_server.ts";
 * const c = await listener.accept();
 * await serveHttp1(c, { remoteAddr: c.remoteAddr, localAddr: c.localAddr }, handler, {});
 * ```
 * @module
 */
import { HeaderMap } from "../http/header_map.ts";
import type { ProxyResponse, ResponseEnd } from "../http/proxy_response.ts";
import { decodeHead, encodeHead, encodeHeadInto } from "../http/head_bytes.ts";
import type { CodecError, DownstreamRequest } from "../http/downstream_request.ts";
import type { DownstreamConn } from "../http/downstream_request.ts";
import {
  type BodyFraming,
  MAX_HEAD_BYTES,
  parseRequestHead,
  type RequestHead,
  responseHead,
} from "../http/http1_codec.ts";

/** Handles one request. */
export type RequestHandler = (
  req: DownstreamRequest,
  conn: DownstreamConn,
) => Promise<ProxyResponse>;

/** What a served connection can be told from outside. */
export interface Http1Control {
  /** True while a request is being handled (the connection is not idle). */
  busy: boolean;
  /** Ask the connection to close once the current response is written. */
  closing: boolean;
  /** True once a request has arrived on the connection. */
  used?: boolean;
  /** Hands the connection over to HTTP/2 with the bytes already read. */
  onH2?: (initial: Uint8Array) => Promise<void>;
}

const INITIAL_BUFFER = 16 * 1024;
/** Responses up to this size (head and body) go out in one write. */
const MAX_OUT = 64 * 1024;
const encoder = new TextEncoder();
const CONTINUE = encoder.encode("HTTP/1.1 100 Continue\r\n\r\n");
const CRLF = encoder.encode("\r\n");
const LAST_CHUNK = encoder.encode("0\r\n\r\n");

class ClientGone extends Error {}
class MalformedBody extends Error {}

/** The connection state of one downstream HTTP/1.1 connection. */
class Http1ServerConn {
  buf = new Uint8Array(INITIAL_BUFFER);
  start = 0;
  end = 0;
  out = new Uint8Array(INITIAL_BUFFER);

  constructor(readonly conn: Deno.Conn) {}

  /** Reads more bytes; false at end of stream. Grows the buffer up to `max` when full. */
  async fill(max: number): Promise<boolean> {
    if (this.start === this.end) this.start = this.end = 0;
    if (this.end === this.buf.length) {
      if (this.start > 0) {
        this.buf.copyWithin(0, this.start, this.end);
        this.end -= this.start;
        this.start = 0;
      } else if (this.buf.length < max) {
        const b = new Uint8Array(Math.min(max, this.buf.length * 2));
        b.set(this.buf.subarray(0, this.end));
        this.buf = b;
      } else return true; // full: the caller sees no progress and decides
    }
    const n = await this.conn.read(this.buf.subarray(this.end));
    if (n === null) return false;
    this.end += n;
    return true;
  }

  async write(data: Uint8Array): Promise<void> {
    try {
      let off = 0;
      while (off < data.length) off += await this.conn.write(off ? data.subarray(off) : data);
    } catch {
      throw new ClientGone();
    }
  }

  /** Finds the end of the request head (index of CRLFCRLF) at or after `from`, or -1. */
  headEnd(from: number): number {
    const b = this.buf;
    for (let i = from + 3; i < this.end; i++) {
      if (b[i] === 10 && b[i - 1] === 13 && b[i - 2] === 10 && b[i - 3] === 13) return i - 3;
    }
    return -1;
  }
}

/** Serves requests on `conn` until it closes; never rejects. */
export async function serveHttp1(
  conn: Deno.Conn,
  dc: DownstreamConn,
  handler: RequestHandler,
  ctl: Http1Control,
): Promise<void> {
  const c = new Http1ServerConn(conn);
  let first = true;
  try {
    for (;;) {
      // Read a request head.
      let he = -1;
      let scan = c.start;
      for (;;) {
        // Empty lines before a request line are ignored (RFC 9112 section 2.2).
        while (c.end - c.start >= 2 && c.buf[c.start] === 13 && c.buf[c.start + 1] === 10) {
          c.start += 2;
        }
        he = c.headEnd(Math.max(c.start, scan));
        if (he >= 0) break;
        if (c.end - c.start > MAX_HEAD_BYTES) break;
        scan = Math.max(c.start, c.end - 3);
        const before = c.start;
        const had = c.end - c.start;
        if (!await c.fill(MAX_HEAD_BYTES + 4)) return;
        scan -= before - c.start;
        if (c.end - c.start === had) break; // buffer full without a head end
      }
      ctl.busy = true;
      ctl.used = true;
      let head: RequestHead;
      const headStart = c.start;
      if (he < 0 || he - c.start > MAX_HEAD_BYTES) {
        head = parseRequestHead("");
        head.error = { status: 431, details: "headers too large" };
        c.start = c.end;
      } else {
        head = parseRequestHead(decodeHead(c.buf, c.start, he));
        c.start = he + 4;
      }
      if (head.h2Preface) {
        if (first && ctl.onH2) {
          await ctl.onH2(c.buf.slice(headStart, c.end));
          return;
        }
        head.error = { status: 400, details: "unexpected HTTP/2 preface" };
      }
      first = false;
      const body = head.error === null && head.contentLength !== 0
        ? new RequestBody(c, head.contentLength, head.expectContinue)
        : null;
      const req: DownstreamRequest = {
        method: head.method,
        path: head.path,
        authority: head.authority,
        scheme: "http",
        headers: head.headers,
        body: body === null ? null : body.stream(),
        contentLength: head.contentLength,
        h2: false,
        error: head.error,
      };
      if (body !== null) req.bodyError = () => body.error;
      let res: ProxyResponse;
      try {
        res = await handler(req, dc);
      } catch {
        res = { status: 500, headers: new HeaderMap(), body: null };
      }
      const close = !head.keepAlive || ctl.closing || res.headers.get("connection") === "close" ||
        (body !== null && !body.done);
      const keep = await writeResponse(c, res, head, close);
      ctl.busy = false;
      if (!keep) return;
      if (body !== null && !body.done) return;
    }
  } catch {
    // Client gone or connection closed under us: nothing more to do.
  } finally {
    ctl.busy = false;
    try {
      conn.close();
    } catch { /* already closed */ }
  }
}

/**
 * Writes `res`; true when the connection may serve another request. Reports the end to
 * `res.onEnd`.
 */
async function writeResponse(
  c: Http1ServerConn,
  res: ProxyResponse,
  head: RequestHead,
  close: boolean,
): Promise<boolean> {
  const body = res.body;
  const bytes = body instanceof Uint8Array ? body : null;
  const h = responseHead(
    res.status,
    res.headers,
    bytes !== null ? bytes.byteLength : body === null ? -2 : -1,
    head.method,
    head.http10,
    close,
  );
  let sent = 0;
  let how: ResponseEnd = "complete";
  try {
    const total = h.text.length + (bytes === null ? 0 : bytes.byteLength);
    if (c.out.length < total && total <= MAX_OUT) c.out = new Uint8Array(MAX_OUT);
    const n = encodeHeadInto(h.text, c.out);
    const headBytes = n >= 0 ? c.out.subarray(0, n) : encodeHead(h.text);
    if (h.framing === "none" || bytes !== null) {
      // The whole response is known: one write when it fits the output buffer.
      if (h.framing === "length" && bytes !== null) {
        if (n >= 0 && n + bytes.byteLength <= c.out.length) {
          c.out.set(bytes, n);
          await c.write(c.out.subarray(0, n + bytes.byteLength));
        } else {
          await c.write(headBytes);
          await c.write(bytes);
        }
        sent = bytes.byteLength;
      } else await c.write(headBytes);
      if (body instanceof ReadableStream) body.cancel().catch(() => {});
      return !close;
    }
    await c.write(headBytes);
    return await pipeBody(c, body as ReadableStream<Uint8Array>, h.framing, h.length, (n, e) => {
      sent = n;
      how = e;
    }) && !close && h.framing !== "close";
  } catch (e) {
    if (how === "complete") how = "client_gone";
    if (!(e instanceof ClientGone)) throw e;
    return false;
  } finally {
    res.onEnd?.(sent, how);
  }
}

/**
 * Copies a streamed body to the client in the given framing; false when it ended early (then the
 * connection must close). `report` learns the bytes sent and how it ended.
 */
async function pipeBody(
  c: Http1ServerConn,
  body: ReadableStream<Uint8Array>,
  framing: BodyFraming,
  length: number,
  report: (sent: number, how: ResponseEnd) => void,
): Promise<boolean> {
  const rd = body.getReader();
  const chunked = framing === "chunked";
  let sent = 0;
  for (;;) {
    let r: ReadableStreamReadResult<Uint8Array>;
    try {
      r = await rd.read();
    } catch {
      report(sent, "body_failed");
      return false;
    }
    if (r.done) break;
    let piece = r.value;
    if (framing === "length" && sent + piece.byteLength > length) {
      piece = piece.subarray(0, length - sent);
    }
    try {
      await writePiece(c, piece, chunked);
    } catch (e) {
      report(sent, "client_gone");
      rd.cancel().catch(() => {});
      throw e;
    }
    sent += piece.byteLength;
    report(sent, "complete");
    if (framing === "length" && sent >= length) {
      rd.cancel().catch(() => {});
      break;
    }
  }
  if (framing === "length" && sent < length) {
    report(sent, "body_failed");
    return false;
  }
  if (chunked) await c.write(LAST_CHUNK);
  return true;
}

async function writePiece(c: Http1ServerConn, piece: Uint8Array, chunked: boolean) {
  if (piece.byteLength === 0) return;
  if (!chunked) return await c.write(piece);
  await c.write(encoder.encode(piece.byteLength.toString(16) + "\r\n"));
  await c.write(piece);
  await c.write(CRLF);
}

/** A request body read from the connection buffer: content-length or chunked. */
class RequestBody {
  done = false;
  /** Set when the body turned out malformed (the request is then answered 400). */
  error: CodecError | null = null;
  #remaining: number;
  #chunkLeft = -1; // -1: expect a size line; -2: expect CRLF after data
  #continue: boolean;

  constructor(readonly c: Http1ServerConn, length: number, expectContinue: boolean) {
    this.#remaining = length;
    this.#continue = expectContinue;
  }

  stream(): ReadableStream<Uint8Array> {
    return new ReadableStream<Uint8Array>({
      pull: async (ctrl) => {
        try {
          const piece = await this.#next();
          if (piece === null) ctrl.close();
          else ctrl.enqueue(piece);
        } catch (e) {
          if (e instanceof MalformedBody) this.error = { status: 400, details: e.message };
          ctrl.error(e);
        }
      },
    }, { highWaterMark: 0 });
  }

  async #more(): Promise<void> {
    if (!await this.c.fill(this.c.buf.length)) throw new Error("client closed during the body");
  }

  async #next(): Promise<Uint8Array | null> {
    if (this.done) return null;
    if (this.#continue) {
      this.#continue = false;
      await this.c.write(CONTINUE);
    }
    const c = this.c;
    if (this.#remaining >= 0) {
      if (c.start === c.end) await this.#more();
      const n = Math.min(this.#remaining, c.end - c.start);
      const out = c.buf.slice(c.start, c.start + n);
      c.start += n;
      this.#remaining -= n;
      if (this.#remaining === 0) this.done = true;
      return out;
    }
    for (;;) {
      if (this.#chunkLeft > 0) {
        if (c.start === c.end) await this.#more();
        const n = Math.min(this.#chunkLeft, c.end - c.start);
        const out = c.buf.slice(c.start, c.start + n);
        c.start += n;
        this.#chunkLeft -= n;
        if (this.#chunkLeft === 0) this.#chunkLeft = -2;
        return out;
      }
      if (this.#chunkLeft === -2) {
        if ((await this.#line()) !== "") throw new MalformedBody("missing CRLF after chunk data");
        this.#chunkLeft = -1;
      }
      const line = await this.#line();
      // At most 13 hex digits: every size stays a safe integer.
      const m = /^([0-9a-fA-F]{1,13})[ \t]*(?:;[^\r\n]*)?$/.exec(line);
      if (!m) throw new MalformedBody("invalid chunk size");
      const size = parseInt(m[1], 16);
      if (size === 0) {
        // Trailers are read and dropped, up to the empty line.
        while ((await this.#line()) !== "");
        this.done = true;
        return null;
      }
      this.#chunkLeft = size;
    }
  }

  async #line(): Promise<string> {
    const c = this.c;
    for (;;) {
      const i = c.buf.indexOf(10, c.start);
      if (i >= 0 && i < c.end) {
        if (i === c.start || c.buf[i - 1] !== 13) {
          throw new MalformedBody("bare LF in chunked body");
        }
        const s = decodeHead(c.buf, c.start, i - 1);
        c.start = i + 1;
        return s;
      }
      if (c.end - c.start >= 4096) throw new MalformedBody("chunk line too long");
      await this.#more();
    }
  }
}
