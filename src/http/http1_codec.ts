/**
 * The HTTP/1.1 downstream codec's pure parts: parsing a request head (request line and header
 * fields) and writing a response head. Parsing is strict where leniency lets requests be
 * smuggled: header names must be tokens, values may hold no control characters, obsolete line
 * folding and whitespace before the colon are refused, `content-length` and
 * `transfer-encoding` must agree on one framing (see {@linkcode requestFraming}), and an
 * HTTP/1.1 request needs exactly one `host`. Limits follow Envoy's defaults: 60 KiB of headers
 * (`max_request_headers_kb`) and 100 header fields (`max_headers_count`), answered 431.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseRequestHead } from "./http1_codec.ts";
 * const h = parseRequestHead("GET /a?b HTTP/1.1\r\nHost: x\r\nAccept: *\/*");
 * assert.equal(h.method, "GET");
 * assert.equal(h.path, "/a?b");
 * assert.equal(h.authority, "x");
 * assert.equal(h.headers.get("accept"), "*\/*");
 * ```
 * @module
 */
import { HeaderMap, lowerName } from "./header_map.ts";
import { type CodecError, requestFraming } from "./downstream_request.ts";

/** Envoy's default `max_request_headers_kb`, in bytes. */
export const MAX_HEAD_BYTES = 60 * 1024;
/** Envoy's default `max_headers_count`. */
export const MAX_HEADERS = 100;

/** A parsed request head. */
export interface RequestHead {
  method: string;
  /** Origin-form path and query (absolute-form targets are reduced to it). */
  path: string;
  authority: string;
  headers: Headers;
  /** HTTP/1.0 (else 1.1). */
  http10: boolean;
  /** The client allows the connection to stay open after this request. */
  keepAlive: boolean;
  /** Body length, 0 for none, -1 for chunked. */
  contentLength: number;
  /** `expect: 100-continue` was sent (and removed from `headers`). */
  expectContinue: boolean;
  /** The request line is an HTTP/2 connection preface (`PRI * HTTP/2.0`). */
  h2Preface: boolean;
  error: CodecError | null;
}

// Token characters of RFC 9110 (header names and methods), by character code.
const TOKEN = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z0-9!#$%&'*+\-.^_`|~]/.test(ch)) TOKEN[c] = 1;
}

function isToken(s: string, from: number, to: number): boolean {
  if (to <= from) return false;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c > 127 || TOKEN[c] === 0) return false;
  }
  return true;
}

/** True when `s[from, to)` holds no control character other than horizontal tab. */
function isFieldValue(s: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if ((c < 32 && c !== 9) || c === 127) return false;
  }
  return true;
}

/** True when `s[from, to)` is a request target: visible ASCII only. */
function isTarget(s: string, from: number, to: number): boolean {
  if (to <= from) return false;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c <= 32 || c >= 127) return false;
  }
  return true;
}

function bad(details: string, status: 400 | 431 = 400): RequestHead {
  return {
    method: "",
    path: "",
    authority: "",
    headers: new HeaderMap(),
    http10: false,
    keepAlive: false,
    contentLength: 0,
    expectContinue: false,
    h2Preface: false,
    error: { status, details },
  };
}

/**
 * Parses a request head given as text (one character per byte, without the final empty line).
 * Never throws: a malformed head comes back with `error` set and `keepAlive` false.
 */
export function parseRequestHead(text: string): RequestHead {
  let eol = text.indexOf("\r\n");
  if (eol < 0) eol = text.length;
  const sp1 = text.indexOf(" ");
  const sp2 = sp1 < 0 ? -1 : text.indexOf(" ", sp1 + 1);
  if (sp1 <= 0 || sp2 < 0 || sp2 >= eol || !isToken(text, 0, sp1)) {
    return bad("malformed request line");
  }
  const version = text.slice(sp2 + 1, eol);
  const method = text.slice(0, sp1);
  if (version === "HTTP/2.0" && method === "PRI") {
    const r = bad("HTTP/2 connection preface");
    r.h2Preface = true;
    return r;
  }
  const http10 = version === "HTTP/1.0";
  if (!http10 && version !== "HTTP/1.1") return bad("unsupported HTTP version");
  if (!isTarget(text, sp1 + 1, sp2)) return bad("malformed request target");
  let path = text.slice(sp1 + 1, sp2);
  let authority: string | null = null;
  if (method === "CONNECT") {
    // Authority form (RFC 9110 section 9.3.6): the target is the authority, there is no path.
    if (!/^[^/?#@\s]+:\d{1,5}$/.test(path)) return bad("malformed CONNECT target");
    authority = path;
    path = "";
  } else if (path.charCodeAt(0) !== 47 /* / */ && path !== "*") {
    // Absolute form: the authority comes from the target, as Envoy does by default.
    const scheme = path.startsWith("http://") ? 7 : path.startsWith("https://") ? 8 : -1;
    if (scheme < 0) return bad("malformed request target");
    // The authority ends at the path, the query or the fragment, whichever comes first.
    let slash = scheme;
    while (slash < path.length && !"/?#".includes(path[slash])) slash++;
    authority = path.slice(scheme, slash);
    path = slash === path.length
      ? "/"
      : path[slash] === "/"
      ? path.slice(slash)
      : "/" + path.slice(slash);
    if (authority === "") return bad("malformed request target");
  }
  /** Names and values alternating (the header map's own list). */
  const kv: string[] = [];
  let host: string | null = null;
  let hosts = 0;
  let cl: string | null = null;
  let te: string | null = null;
  let connection: string | null = null;
  let expectContinue = false;
  let pos = eol + 2;
  while (pos < text.length) {
    let end = text.indexOf("\r\n", pos);
    if (end < 0) end = text.length;
    const colon = text.indexOf(":", pos);
    if (colon < 0 || colon > end || !isToken(text, pos, colon)) {
      return bad(
        text.charCodeAt(pos) === 32 || text.charCodeAt(pos) === 9
          ? "obsolete line folding"
          : "malformed header field",
      );
    }
    let vs = colon + 1;
    let ve = end;
    while (vs < ve && (text.charCodeAt(vs) === 32 || text.charCodeAt(vs) === 9)) vs++;
    while (ve > vs && (text.charCodeAt(ve - 1) === 32 || text.charCodeAt(ve - 1) === 9)) ve--;
    if (!isFieldValue(text, vs, ve)) return bad("invalid character in header value");
    if (kv.length === 2 * MAX_HEADERS) return bad("too many headers", 431);
    const name = lowerName(text.slice(pos, colon));
    const value = text.slice(vs, ve);
    pos = end + 2;
    switch (name) {
      case "host":
        host = value;
        hosts++;
        break;
      case "content-length":
        cl = cl === null ? value : `${cl},${value}`;
        break;
      case "transfer-encoding":
        te = te === null ? value : `${te},${value}`;
        break;
      case "connection":
        connection = connection === null ? value : `${connection},${value}`;
        break;
      case "expect":
        if (value.toLowerCase() === "100-continue") {
          expectContinue = true;
          continue;
        }
        break;
    }
    kv.push(name, value);
  }
  if (hosts > 1) return bad("multiple host headers");
  if (host === null && authority === null && !http10) return bad("missing host header");
  const framing = requestFraming(cl, te);
  let keepAlive = !http10;
  if (connection !== null) {
    const c = connection.toLowerCase();
    if (c.includes("close")) keepAlive = false;
    else if (http10 && c.includes("keep-alive")) keepAlive = true;
  }
  const error = typeof framing === "number" ? null : framing;
  return {
    method,
    path,
    authority: authority ?? host ?? "",
    headers: HeaderMap.fromFlat(kv),
    http10,
    keepAlive: keepAlive && error === null,
    contentLength: typeof framing === "number" ? framing : 0,
    expectContinue: expectContinue && !http10,
    h2Preface: false,
    error,
  };
}

/** Reason phrases of the status codes HTTP defines (RFC 9110 section 15). */
const REASONS: Readonly<Record<number, string>> = {
  100: "Continue",
  101: "Switching Protocols",
  200: "OK",
  201: "Created",
  202: "Accepted",
  203: "Non-Authoritative Information",
  204: "No Content",
  205: "Reset Content",
  206: "Partial Content",
  300: "Multiple Choices",
  301: "Moved Permanently",
  302: "Found",
  303: "See Other",
  304: "Not Modified",
  307: "Temporary Redirect",
  308: "Permanent Redirect",
  400: "Bad Request",
  401: "Unauthorized",
  402: "Payment Required",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  406: "Not Acceptable",
  407: "Proxy Authentication Required",
  408: "Request Timeout",
  409: "Conflict",
  410: "Gone",
  411: "Length Required",
  412: "Precondition Failed",
  413: "Payload Too Large",
  414: "URI Too Long",
  415: "Unsupported Media Type",
  416: "Range Not Satisfiable",
  417: "Expectation Failed",
  421: "Misdirected Request",
  422: "Unprocessable Content",
  426: "Upgrade Required",
  428: "Precondition Required",
  429: "Too Many Requests",
  431: "Request Header Fields Too Large",
  500: "Internal Server Error",
  501: "Not Implemented",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
  505: "HTTP Version Not Supported",
};

/** The reason phrase of `status` (`Unknown` for codes without one). */
export function reasonPhrase(status: number): string {
  return REASONS[status] ?? "Unknown";
}

/** The status line of `status`, with its reason phrase. */
export function statusLine(status: number): string {
  return `HTTP/1.1 ${status} ${reasonPhrase(status)}\r\n`;
}

let dateSecond = -1;
let dateValue = "";

/** The `date` header value for now (IMF-fixdate), computed once per second. */
export function httpDate(): string {
  const now = Date.now();
  const s = Math.floor(now / 1000);
  if (s !== dateSecond) {
    dateSecond = s;
    dateValue = new Date(s * 1000).toUTCString();
  }
  return dateValue;
}

/** How a response body is framed on the wire. */
export type BodyFraming = "none" | "length" | "chunked" | "close";

/** The response head to write, and how the body that follows is framed. */
export interface ResponseHeadOut {
  text: string;
  framing: BodyFraming;
  /** The declared length when `framing` is `length`. */
  length: number;
}

/**
 * The response head for `status`/`headers` with a body of `bodyLength` bytes (-1 when it
 * streams with unknown length, -2 when there is no body), for a request made with `method`
 * over HTTP/1.0 or 1.1. `close` adds `connection: close`; `keepAlive10` answers an HTTP/1.0
 * client that asked to keep the connection.
 */
export function responseHead(
  status: number,
  headers: Headers,
  bodyLength: number,
  method: string,
  http10: boolean,
  close: boolean,
): ResponseHeadOut {
  let text = "";
  const out = composeResponseHead(status, headers, bodyLength, method, http10, close, (s) => {
    text += s;
  });
  out.text = text;
  return out;
}

/** What the fields of the head being composed declared (heads are composed one at a time). */
const fieldsOut = { declared: -1, hasDate: false };

/** Puts one response field, or notes it (`content-length`, `date`) or drops it (hop-by-hop). */
function putField(k: string, v: string, put: (s: string) => void): void {
  switch (k) {
    case "connection":
    case "keep-alive":
    case "transfer-encoding":
      return;
    case "content-length":
      fieldsOut.declared = Number(v);
      return;
    case "date":
      fieldsOut.hasDate = true;
  }
  put(k);
  put(": ");
  put(v);
  put("\r\n");
}

function putContentLength(n: number, put: (s: string) => void): void {
  put("content-length: ");
  put(String(n));
  put("\r\n");
}

/** Status lines already made, by status code. */
const statusLines = new Map<number, string>();

/**
 * {@linkcode responseHead} handing its text to `put` piece by piece (e.g. a
 * {@linkcode HeadWriter}'s); the `text` of the answer is empty.
 */
export function composeResponseHead(
  status: number,
  headers: Headers,
  bodyLength: number,
  method: string,
  http10: boolean,
  close: boolean,
  put: (s: string) => void,
): ResponseHeadOut {
  let line = statusLines.get(status);
  if (line === undefined) {
    line = statusLine(status);
    if (statusLines.size < 1000) statusLines.set(status, line);
  }
  put(line);
  const f = fieldsOut;
  f.declared = -1;
  f.hasDate = false;
  // A header map is read by index: no callback per head.
  if (headers instanceof HeaderMap) {
    for (let i = 0; i < headers.size; i++) putField(headers.nameAt(i), headers.valueAt(i), put);
  } else headers.forEach((v, k) => putField(k, v, put));
  const declared = f.declared;
  if (!f.hasDate) {
    put("date: ");
    put(httpDate());
    put("\r\n");
  }
  const noBody = status < 200 || status === 204 || status === 304;
  let framing: BodyFraming = "none";
  let length = 0;
  if (method === "HEAD") {
    const n = bodyLength >= 0 ? bodyLength : declared;
    if (n >= 0 && !noBody) putContentLength(n, put);
  } else if (noBody) {
    if (status === 304 && declared >= 0) putContentLength(declared, put);
  } else if (bodyLength >= 0 || bodyLength === -2) {
    length = bodyLength === -2 ? 0 : bodyLength;
    framing = length > 0 ? "length" : "none";
    putContentLength(length, put);
  } else if (declared >= 0 && Number.isSafeInteger(declared)) {
    framing = "length";
    length = declared;
    putContentLength(declared, put);
  } else if (http10) {
    framing = "close";
    close = true;
  } else {
    framing = "chunked";
    put("transfer-encoding: chunked\r\n");
  }
  if (close) put("connection: close\r\n");
  else if (http10) put("connection: keep-alive\r\n");
  put("\r\n");
  return { text: "", framing, length };
}
