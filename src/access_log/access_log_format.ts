/**
 * Access log formats: Envoy's command operators (`%START_TIME(%Y)%`, `%REQ(X?Y):N%`,
 * `%RESPONSE_FLAGS%`, ...) compiled once into a list of parts, then applied to one
 * {@linkcode LogRecord} per request or TCP connection. Text formats give one line; JSON formats
 * give one JSON object per line (numbers stay numbers, missing values are `null`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compileFormat } from "./access_log_format.ts";
 * const f = compileFormat("%RESPONSE_CODE% %REQ(:METHOD)%\n", "f");
 * assert.equal(typeof f, "function");
 * ```
 * @module
 */
import { compileTimeFormat } from "./access_log_time.ts";
import { hostPort } from "../upstream/host.ts";

/** What is known about one request (or TCP connection) when its log line is written. */
export interface LogRecord {
  /** Epoch milliseconds of the first byte. */
  startMs: number;
  /** `HTTP/1.1`, `HTTP/2`, or null for TCP. */
  protocol: string | null;
  /** Request header lookup (lower-case name, pseudo-headers `:method` `:path` `:authority`). */
  req: ((name: string) => string | null) | null;
  resp: Headers | null;
  /** 0 when no response was sent. */
  status: number;
  /** Response flags, e.g. `["UH"]`. */
  flags: readonly string[];
  bytesReceived: number;
  bytesSent: number;
  durationMs: number;
  upstreamHost: string | null;
  upstreamCluster: string | null;
  downstreamRemote: Deno.NetAddr;
  downstreamLocal: Deno.NetAddr;
}

type Value = string | number | null;
type Part = (r: LogRecord) => Value;

/** A compiled format: a record in, one log line (with its newline when the format has one) out. */
export type Formatter = (r: LogRecord) => string;

/** Envoy's default access log format, with our `x-proxy-` header spelling. */
export const DEFAULT_FORMAT = '[%START_TIME%] "%REQ(:METHOD)% %REQ(X-PROXY-ORIGINAL-PATH?:PATH)% ' +
  '%PROTOCOL%" %RESPONSE_CODE% %RESPONSE_FLAGS% %BYTES_RECEIVED% %BYTES_SENT% %DURATION% ' +
  '%RESP(X-PROXY-UPSTREAM-SERVICE-TIME)% "%REQ(X-FORWARDED-FOR)%" "%REQ(USER-AGENT)%" ' +
  '"%REQ(X-REQUEST-ID)%" "%REQ(:AUTHORITY)%" "%UPSTREAM_HOST%"\n';

/** A format string that cannot be compiled. */
export class FormatError extends Error {
  /** Creates the error for the format at `path`. */
  constructor(readonly path: string, message: string) {
    super(`${path}: ${message}`);
    this.name = "FormatError";
  }
}

function hostname(): string {
  try {
    return Deno.hostname();
  } catch {
    return "-";
  }
}

const addr = (a: Deno.NetAddr) => hostPort(a.hostname, a.port);

/** Operators without arguments. */
const SIMPLE: Record<string, Part> = {
  PROTOCOL: (r) => r.protocol,
  RESPONSE_CODE: (r) => r.status,
  RESPONSE_FLAGS: (r) => r.flags.length ? r.flags.join(",") : null,
  BYTES_RECEIVED: (r) => r.bytesReceived,
  BYTES_SENT: (r) => r.bytesSent,
  DURATION: (r) => Math.floor(r.durationMs),
  UPSTREAM_HOST: (r) => r.upstreamHost,
  UPSTREAM_CLUSTER: (r) => r.upstreamCluster,
  DOWNSTREAM_REMOTE_ADDRESS: (r) => addr(r.downstreamRemote),
  DOWNSTREAM_REMOTE_ADDRESS_WITHOUT_PORT: (r) => r.downstreamRemote.hostname,
  DOWNSTREAM_LOCAL_ADDRESS: (r) => addr(r.downstreamLocal),
  DOWNSTREAM_LOCAL_ADDRESS_WITHOUT_PORT: (r) => r.downstreamLocal.hostname,
  DOWNSTREAM_LOCAL_PORT: (r) => r.downstreamLocal.port,
  DOWNSTREAM_REMOTE_PORT: (r) => r.downstreamRemote.port,
  REQUESTED_SERVER_NAME: () => null,
};

function headerPart(kind: "REQ" | "RESP", arg: string, max: number, path: string): Part {
  const names = arg.split("?").map((s) => s.trim().toLowerCase());
  if (names.length > 2 || names.some((n) => n === "")) {
    throw new FormatError(path, `invalid header names in %${kind}(${arg})%`);
  }
  const [a, b] = names;
  const cut = (v: string | null) => v !== null && max >= 0 && v.length > max ? v.slice(0, max) : v;
  if (kind === "REQ") {
    return (r) => r.req === null ? null : cut(r.req(a) ?? (b === undefined ? null : r.req(b)));
  }
  return (r) =>
    r.resp === null ? null : cut(r.resp.get(a) ?? (b === undefined ? null : r.resp.get(b)));
}

function operator(name: string, arg: string | null, max: number, path: string): Part {
  if (name === "REQ" || name === "RESP") {
    if (arg === null) throw new FormatError(path, `%${name}% needs a header name: %${name}(X)%`);
    return headerPart(name, arg, max, path);
  }
  if (name === "START_TIME") {
    const f = compileTimeFormat(arg ?? "", path);
    return (r) => f(r.startMs);
  }
  if (name === "HOSTNAME") {
    const h = hostname();
    return () => h;
  }
  const p = SIMPLE[name];
  if (!p) throw new FormatError(path, `unsupported command operator %${name}%`);
  if (arg !== null) throw new FormatError(path, `%${name}% takes no argument`);
  return p;
}

const OP = /^%([A-Z_]+)(?:\(([^)]*)\))?(?::(\d+))?%/;

function compileParts(format: string, path: string): (string | Part)[] {
  const parts: (string | Part)[] = [];
  let lit = "";
  for (let i = 0; i < format.length;) {
    const c = format[i];
    if (c !== "%") {
      lit += c;
      i++;
      continue;
    }
    if (format[i + 1] === "%") {
      lit += "%";
      i += 2;
      continue;
    }
    const m = OP.exec(format.slice(i));
    if (!m) throw new FormatError(path, `malformed command operator at offset ${i}`);
    if (lit) parts.push(lit);
    lit = "";
    parts.push(operator(m[1], m[2] ?? null, m[3] === undefined ? -1 : Number(m[3]), path));
    i += m[0].length;
  }
  if (lit) parts.push(lit);
  return parts;
}

/** Compiles a text format (found at `path`); throws {@linkcode FormatError}. */
export function compileFormat(format: string, path: string): Formatter {
  const parts = compileParts(format, path);
  return (r) => {
    let s = "";
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i];
      if (typeof p === "string") s += p;
      else {
        const v = p(r);
        s += v === null || v === "" ? "-" : v;
      }
    }
    return s;
  };
}

/** Compiles a JSON format (an object of key → format string or nested object). */
export function compileJsonFormat(spec: Record<string, unknown>, path: string): Formatter {
  const build = (o: Record<string, unknown>, at: string): (r: LogRecord) => unknown => {
    const fields: [string, (r: LogRecord) => unknown][] = [];
    for (const [k, v] of Object.entries(o)) {
      if (typeof v === "string") {
        const parts = compileParts(v, `${at}.${k}`);
        if (parts.length === 1 && typeof parts[0] !== "string") {
          const p = parts[0];
          fields.push([k, (r) => {
            const x = p(r);
            return x === "" ? null : x;
          }]);
        } else {
          const f = compileFormat(v, `${at}.${k}`);
          fields.push([k, f]);
        }
      } else if (v !== null && typeof v === "object" && !Array.isArray(v)) {
        fields.push([k, build(v as Record<string, unknown>, `${at}.${k}`)]);
      } else {
        throw new FormatError(`${at}.${k}`, "json_format values must be strings or objects");
      }
    }
    return (r) => {
      const out: Record<string, unknown> = {};
      for (const [k, f] of fields) out[k] = f(r);
      return out;
    };
  };
  const f = build(spec, path);
  return (r) => JSON.stringify(f(r)) + "\n";
}
