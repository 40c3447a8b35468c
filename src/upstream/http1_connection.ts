/**
 * One upstream HTTP/1.1 connection: writes requests and parses responses (status line, headers,
 * `content-length`, `chunked` and close-delimited bodies, the trailer fields after a chunked
 * body in {@linkcode Http1Connection.trailers}) from a fixed read buffer, so no more than one
 * buffer of data is ever read ahead (`per_connection_buffer_limit_bytes` sizes it).
 *
 * @example Not run: it needs an upstream server to connect to (port 8080).
 * ```ts ignore
 * import { Http1Connection } from "./http1_connection.ts";
 * const c = new Http1Connection(await Deno.connect({ port: 8080 }), 65536);
 * await c.writeAll(new TextEncoder().encode("GET / HTTP/1.1\r\nhost: a\r\n\r\n"));
 * const head = await c.readHead("GET");
 * for (let b = await c.readBody(); b; b = await c.readBody()) console.log(b.length);
 * c.close();
 * ```
 * @module
 */
import { type DirectRead, directReader } from "../platform/direct_read.ts";
import type { Transport } from "./transport.ts";
import { decodeHead, encodeHead, encodeHeadInto, headWriter } from "../http/head_bytes.ts";
import { composeHead, headText, type UpstreamRequest } from "./upstream_request.ts";
import { lowerName } from "../http/header_map.ts";
import { parseTrailerLine } from "../http/trailers.ts";

/** At most this many trailer fields after a chunked body (Envoy's default `max_headers_count`). */
const MAX_TRAILERS = 100;

/** Size of the per-connection buffer request heads are encoded into (larger heads allocate). */
const HEAD_BUF = 8192;
const EMPTY = new Uint8Array(0);

/** A response status line and headers. */
export interface ResponseHead {
  status: number;
  statusText: string;
  /** Header names lower-cased, in received order. */
  headers: [string, string][];
  /** True when the connection may not be reused after this response. */
  close: boolean;
}

/** The first size of a connection's read buffer (the pool's `bufferSize` bounds its growth). */
const INITIAL_BUFFER = 16 * 1024;

/** Malformed upstream response, or one larger than the buffer allows. */
export class ProtocolError extends Error {
  /** Creates the error. */
  constructor(message: string) {
    super(message);
    this.name = "ProtocolError";
  }
}

/** A non-negative decimal integer, or -1. */
function decimal(v: string): number {
  if (v.length === 0 || v.length > 15) return -1;
  let n = 0;
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    n = n * 10 + c;
  }
  return n;
}

/**
 * Response bodies are copied out of the read buffer into views of a shared slab: one small
 * view per body piece instead of one new ArrayBuffer each. A slab is never written twice; a new
 * one is taken when it is full, and the old one is freed once no body references it.
 */
const SLAB_SIZE = 256 * 1024;
let slab = new Uint8Array(SLAB_SIZE);
let slabUsed = 0;

function copyOut(src: Uint8Array, from: number, to: number): Uint8Array<ArrayBuffer> {
  const n = to - from;
  if (n > SLAB_SIZE / 4) return src.slice(from, to) as Uint8Array<ArrayBuffer>;
  if (slabUsed + n > SLAB_SIZE) {
    slab = new Uint8Array(SLAB_SIZE);
    slabUsed = 0;
  }
  const out = slab.subarray(slabUsed, slabUsed + n);
  out.set(src.subarray(from, to));
  slabUsed += n;
  return out;
}
const CR = 13;
const LF = 10;

/**
 * True for the characters `String.prototype.trim` removes that a head decoded one character
 * per byte can hold: tab, LF, VT, FF, CR, space and no-break space (0xA0).
 */
function isTrimmed(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 160;
}

/** An HTTP/1.1 client connection. */
export class Http1Connection {
  /** Requests sent on this connection. */
  requests = 0;
  closed = false;
  readonly openedAt = performance.now();
  /** Bytes received and sent (for `upstream_cx_{rx,tx}_bytes_total`). */
  rxBytes = 0;
  txBytes = 0;
  #buf: Uint8Array<ArrayBuffer>;
  /** The buffer grows up to this many bytes (see the constructor). */
  readonly #max: number;
  /** The last read filled the buffer: the next one gets a larger buffer (up to `#max`). */
  #filled = false;
  #head: Uint8Array | null = null;
  #start = 0;
  #end = 0;
  // body state: 0 none/done, 1 length, 2 chunked, 3 until close
  #mode = 0;
  #remaining = 0;
  #chunkDataLeft = -1;
  /** A read started while the connection sat idle: the next response's first read. */
  #idleRead: Promise<number> | null = null;
  /** In the pool's idle set (not carrying a request). */
  #idle = false;
  /**
   * When the pool last put this connection in its idle set (performance clock), for the idle
   * timeout; a field rather than a pool-side map, so a request's round trip through the pool
   * allocates nothing.
   */
  idleSince = 0;
  /**
   * The trailer fields of the last chunked response body read to its end (names lower-cased),
   * empty when it had none.
   */
  trailers: [string, string][] = [];
  /**
   * At most this many header fields in a response head, and trailer fields after a chunked body
   * (`common_http_protocol_options.max_headers_count`, Envoy's default 100); more is a protocol
   * error.
   */
  maxHeaders = MAX_TRAILERS;

  /**
   * Wraps a connected transport; `bufferSize` bounds read-ahead and the response head size. The
   * buffer starts at 16 KiB (or `bufferSize` when smaller) and doubles up to `bufferSize` when a
   * response needs it (a head that does not fit, reads that fill it): a pool of connections
   * carrying small answers keeps small buffers, one carrying large bodies reads them in large
   * pieces.
   */
  constructor(readonly transport: Transport, bufferSize: number) {
    this.#max = bufferSize;
    this.#buf = new Uint8Array(Math.min(bufferSize, INITIAL_BUFFER));
  }

  /**
   * Writes a request head given as text (one byte per character) with one write, encoded into
   * this connection's own head buffer (one request at a time uses it).
   */
  writeHead(text: string): Promise<void> {
    const buf = this.#head ??= new Uint8Array(HEAD_BUF);
    const n = encodeHeadInto(text, buf);
    return this.writeAll(n >= 0 ? buf.subarray(0, n) : encodeHead(text));
  }

  /**
   * Writes the head of request `r` with one write, its bytes composed straight into this
   * connection's head buffer (no text made unless it does not fit).
   */
  writeRequestHead(r: UpstreamRequest): Promise<void> {
    const buf = this.#head ??= new Uint8Array(HEAD_BUF);
    const w = headWriter.reset(buf);
    composeHead(r, w.put);
    const n = w.pos;
    w.reset(EMPTY);
    return this.writeAll(n >= 0 ? buf.subarray(0, n) : encodeHead(headText(r)));
  }

  /**
   * Writes every byte of `data`. A write the transport takes whole (the usual case) costs one
   * promise reaction, no async frame.
   */
  writeAll(data: Uint8Array): Promise<void> {
    if (data.length === 0) return Promise.resolve();
    let first: Promise<number>;
    try {
      first = this.transport.write(data);
    } catch (e) {
      return Promise.reject(e);
    }
    return first.then((n) =>
      n < data.length ? this.#writeRest(data, n) : void (this.txBytes += data.length)
    );
  }

  async #writeRest(data: Uint8Array, from: number): Promise<void> {
    let off = from;
    while (off < data.length) off += await this.transport.write(data.subarray(off));
    this.txBytes += data.length;
  }

  /** True when bytes arrived that no request asked for (the connection is then not reusable). */
  hasUnreadData(): boolean {
    return this.#end > this.#start;
  }

  /**
   * Reads while the connection is idle, so that the upstream closing it (or sending bytes no
   * request asked for) is seen before the connection is reused, as Envoy's event loop sees it;
   * `gone` then runs with `remote` true for a close. The read becomes the next response's first.
   */
  watchIdle(gone: (remote: boolean) => void): void {
    if (this.#idleRead !== null || this.closed) return;
    this.#start = this.#end = 0;
    this.#idle = true;
    this.#gone = gone;
    const read = (this.#reader ??= directReader(this.transport))(this.#buf);
    this.#idleRead = read;
    read.then(this.#idleReadEnded, this.#idleReadFailed);
  }

  /** The idle read's reader (the runtime's read op, `direct_read.ts`), made on first use. */
  #reader: DirectRead | null = null;

  /** Told by {@linkcode Http1Connection.watchIdle}'s read when the connection went away. */
  #gone: (remote: boolean) => void = () => {};

  // The reactions of the idle read: made once per connection, not per request.
  #idleReadEnded = (n: number): void => {
    if (this.#idle) this.#gone(n === 0);
  };

  #idleReadFailed = (): void => {
    if (this.#idle) this.#gone(true);
  };

  /** The connection leaves the idle set to carry a request. */
  take(): void {
    this.#idle = false;
  }

  #fill(): Promise<boolean> {
    const pending = this.#idleRead;
    if (pending === null) return this.#read();
    // The read issued while idle (the usual case for a response on a reused connection).
    this.#idleRead = null;
    return pending.then(this.#idleFilled);
  }

  /** The idle read brought `n` bytes (0: the upstream closed). Once per connection, not per read. */
  #idleFilled = (n: number): true => {
    if (n === 0) throw new EofError();
    this.#end += n;
    this.rxBytes += n;
    this.#filled = this.#end === this.#buf.length;
    return true;
  };

  async #read(): Promise<boolean> {
    if (this.#start > 0 && this.#start === this.#end) this.#start = this.#end = 0;
    if (this.#filled) {
      this.#filled = false;
      this.#grow();
    }
    if (this.#end === this.#buf.length) {
      if (this.#start === 0) {
        if (!this.#grow()) return false; // full at the limit
      } else {
        this.#buf.copyWithin(0, this.#start, this.#end);
        this.#end -= this.#start;
        this.#start = 0;
      }
    }
    const n = await this.transport.read(this.#buf.subarray(this.#end));
    if (n === null) throw new EofError();
    this.#end += n;
    this.rxBytes += n;
    this.#filled = this.#end === this.#buf.length;
    return true;
  }

  /** Doubles the buffer (up to `#max`), its unread bytes moved to the front; false at the limit. */
  #grow(): boolean {
    if (this.#buf.length >= this.#max) return false;
    const b = new Uint8Array(Math.min(this.#max, this.#buf.length * 2));
    b.set(this.#buf.subarray(this.#start, this.#end));
    this.#end -= this.#start;
    this.#start = 0;
    this.#buf = b;
    return true;
  }

  #findLine(from: number): number {
    const b = this.#buf;
    for (let i = from; i < this.#end - 1; i++) if (b[i] === CR && b[i + 1] === LF) return i;
    return -1;
  }

  /**
   * Reads the next response head; `method` decides whether a body follows. A head that comes
   * whole with the read issued while the connection was idle (the usual case) is parsed in that
   * read's reaction, without an async frame kept while the upstream answers.
   */
  readHead(method: string): Promise<ResponseHead> {
    const pending = this.#idleRead;
    if (pending === null || this.#start !== this.#end) return this.#readHead(method);
    this.#idleRead = null;
    this.#headMethod = method;
    return pending.then(this.#headArrived);
  }

  /** The method of the request whose head {@linkcode Http1Connection.#headArrived} parses. */
  #headMethod = "";

  /**
   * The idle read brought `n` bytes: the head when they hold it whole, else the async path.
   * Once per connection, not per response.
   */
  #headArrived = (n: number): ResponseHead | Promise<ResponseHead> => {
    this.#idleFilled(n);
    const method = this.#headMethod;
    const end = this.#headEnd(this.#start);
    return (end < 0 ? null : this.#takeHead(end, method)) ?? this.#readHead(method);
  };

  /** Where the head starting at `#start` ends (its CRLFCRLF), searching from `scan`; -1: not yet. */
  #headEnd(scan: number): number {
    const b = this.#buf;
    for (let i = scan; i + 3 < this.#end; i++) {
      if (b[i] === CR && b[i + 1] === LF && b[i + 2] === CR && b[i + 3] === LF) return i;
    }
    return -1;
  }

  /** Parses the head that ends at `end`; null for an interim (1xx) head, which is consumed. */
  #takeHead(end: number, method: string): ResponseHead | null {
    const text = decodeHead(this.#buf, this.#start, end);
    this.#start = end + 4;
    return this.#parseHead(text, method);
  }

  async #readHead(method: string): Promise<ResponseHead> {
    for (;;) {
      let end = -1;
      let scan = this.#start;
      for (;;) {
        end = this.#headEnd(scan);
        if (end >= 0) break;
        scan = Math.max(this.#start, this.#end - 3);
        const before = this.#start;
        if (!await this.#fill()) throw new ProtocolError("response headers too large");
        scan -= before - this.#start;
      }
      const head = this.#takeHead(end, method);
      if (head) return head;
    }
  }

  #parseHead(text: string, method: string): ResponseHead | null {
    // Status line: "HTTP/1.x NNN[ reason]", checked character by character (no regex, no split).
    let eol = text.indexOf("\r\n");
    if (eol < 0) eol = text.length;
    if (
      eol < 12 || !text.startsWith("HTTP/1.") || (text[7] !== "0" && text[7] !== "1") ||
      text[8] !== " " || (eol > 12 && text[12] !== " ")
    ) throw new ProtocolError("malformed status line");
    const d0 = text.charCodeAt(9) - 48;
    const d1 = text.charCodeAt(10) - 48;
    const d2 = text.charCodeAt(11) - 48;
    if (d0 < 0 || d0 > 9 || d1 < 0 || d1 > 9 || d2 < 0 || d2 > 9) {
      throw new ProtocolError("malformed status line");
    }
    const status = d0 * 100 + d1 * 10 + d2;
    const statusText = eol > 13 ? text.slice(13, eol) : "";
    const headers: [string, string][] = [];
    let cl = -1;
    let chunked = false;
    let close = text[7] === "0";
    let pos = eol + 2;
    while (pos < text.length) {
      let end = text.indexOf("\r\n", pos);
      if (end < 0) end = text.length;
      const c = text.indexOf(":", pos);
      if (c <= pos || c >= end) throw new ProtocolError("malformed header line");
      // The value without the whitespace `trim` would remove.
      let vs = c + 1;
      let ve = end;
      while (vs < ve && isTrimmed(text.charCodeAt(vs))) vs++;
      while (ve > vs && isTrimmed(text.charCodeAt(ve - 1))) ve--;
      const name = lowerName(text.slice(pos, c));
      const value = text.slice(vs, ve);
      pos = end + 2;
      if (name === "content-length") {
        const n = decimal(value);
        if (n < 0 || (cl >= 0 && cl !== n)) throw new ProtocolError("invalid content-length");
        cl = n;
      } else if (name === "transfer-encoding") {
        if (value.toLowerCase() !== "chunked") {
          throw new ProtocolError("unsupported transfer-encoding");
        }
        chunked = true;
      } else if (name === "connection") {
        const v = value.toLowerCase();
        if (v.includes("close")) close = true;
        else if (v.includes("keep-alive")) close = false;
      }
      if (headers.length >= this.maxHeaders) throw new ProtocolError("too many headers");
      headers.push([name, value]);
    }
    if (status >= 100 && status < 200 && status !== 101) return null;
    if (chunked && cl >= 0) throw new ProtocolError("both content-length and transfer-encoding");
    if (this.trailers.length > 0) this.trailers = [];
    if (method === "HEAD" || status === 204 || status === 304) this.#mode = 0;
    else if (chunked) {
      this.#mode = 2;
      this.#chunkDataLeft = -1;
    } else if (cl >= 0) {
      this.#mode = cl > 0 ? 1 : 0;
      this.#remaining = cl;
    } else {
      this.#mode = 3;
      close = true;
    }
    return { status, statusText, headers, close };
  }

  /** True when the whole body of the current response has been read. */
  bodyDone(): boolean {
    return this.#mode === 0;
  }

  /** The current body (a copy) when all of it is already buffered, else null. */
  takeBufferedBody(): Uint8Array<ArrayBuffer> | null {
    if (this.#mode !== 1 || this.#end - this.#start < this.#remaining) return null;
    const out = copyOut(this.#buf, this.#start, this.#start + this.#remaining);
    this.#start += this.#remaining;
    this.#mode = 0;
    return out;
  }

  /** The next piece of the response body (a copy), or `null` at its end. */
  async readBody(): Promise<Uint8Array<ArrayBuffer> | null> {
    switch (this.#mode) {
      case 0:
        return null;
      case 1: {
        if (this.#start === this.#end) await this.#fill();
        const n = Math.min(this.#remaining, this.#end - this.#start);
        const out = copyOut(this.#buf, this.#start, this.#start + n);
        this.#start += n;
        this.#remaining -= n;
        if (this.#remaining === 0) this.#mode = 0;
        return out;
      }
      case 3: {
        if (this.#start === this.#end) {
          try {
            await this.#fill();
          } catch (e) {
            if (e instanceof EofError) {
              this.#mode = 0;
              return null;
            }
            throw e;
          }
        }
        const out = copyOut(this.#buf, this.#start, this.#end);
        this.#start = this.#end;
        return out;
      }
      default:
        return await this.#readChunked();
    }
  }

  async #line(): Promise<string> {
    let i;
    while ((i = this.#findLine(this.#start)) < 0) {
      if (!await this.#fill()) throw new ProtocolError("chunk line too long");
    }
    const s = decodeHead(this.#buf, this.#start, i);
    this.#start = i + 2;
    return s;
  }

  async #readChunked(): Promise<Uint8Array<ArrayBuffer> | null> {
    for (;;) {
      if (this.#chunkDataLeft > 0) {
        if (this.#start === this.#end) await this.#fill();
        const n = Math.min(this.#chunkDataLeft, this.#end - this.#start);
        const out = copyOut(this.#buf, this.#start, this.#start + n);
        this.#start += n;
        this.#chunkDataLeft -= n;
        if (this.#chunkDataLeft === 0) this.#chunkDataLeft = -2; // expect CRLF
        return out;
      }
      if (this.#chunkDataLeft === -2) {
        if ((await this.#line()) !== "") throw new ProtocolError("missing CRLF after chunk");
      }
      const line = await this.#line();
      const m = /^([0-9a-fA-F]{1,15})[ \t]*(?:;.*)?$/.exec(line);
      if (!m) throw new ProtocolError("invalid chunk size");
      const size = parseInt(m[1], 16);
      if (size === 0) {
        // The trailer section: field lines up to the empty line (a malformed one is refused).
        for (let t = await this.#line(); t !== ""; t = await this.#line()) {
          const f = parseTrailerLine(t);
          if (f === null) throw new ProtocolError("malformed trailer line");
          // Envoy's default max_headers_count holds for trailers too.
          if (this.trailers.length >= this.maxHeaders) throw new ProtocolError("too many trailers");
          this.trailers.push(f);
        }
        this.#mode = 0;
        return null;
      }
      this.#chunkDataLeft = size;
    }
  }

  /** Closes the transport (idempotent). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.transport.close();
    } catch { /* already closed */ }
  }
}

/** The upstream closed the connection. */
export class EofError extends Error {
  /** Creates the error. */
  constructor() {
    super("upstream closed the connection");
    this.name = "EofError";
  }
}
