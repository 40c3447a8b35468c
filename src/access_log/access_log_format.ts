/**
 * Access log formats: Envoy's command operators (`%START_TIME(%Y)%`, `%REQ(X?Y):N%`,
 * `%RESP(X?Y):N%`, `%TRAILER(X?Y):N%` for response trailers, `%FILTER_STATE(KEY:PLAIN)%`,
 * `%DYNAMIC_METADATA(NAMESPACE:KEY*):Z%` (and `%METADATA(DYNAMIC:NAMESPACE:KEY*):Z%`),
 * `%GRPC_STATUS(F)%` (`grpc_status.ts`), `%RESPONSE_FLAGS%`, ...) compiled once into a list of parts, then applied to one
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
import type { FilterState } from "../http/filter_state.ts";
import type { DynamicMetadata, MetadataValue } from "../http/dynamic_metadata.ts";
import { GRPC_STATUS_FORMATS, type GrpcStatusFormat, grpcStatusValue } from "./grpc_status.ts";

/** What is known about one request (or TCP connection) when its log line is written. */
export interface LogRecord {
  /** Epoch milliseconds of the first byte. */
  startMs: number;
  /** `HTTP/1.1`, `HTTP/2`, or null for TCP. */
  protocol: string | null;
  /** Request header lookup (lower-case name, pseudo-headers `:method` `:path` `:authority`). */
  req: ((name: string) => string | null) | null;
  resp: Headers | null;
  /** Response trailers (`%TRAILER(...)%`), null when the response had none. */
  trailers?: Headers | null;
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
  /** Milliseconds from the start to the last byte of the request (HTTP only). */
  requestDurationMs?: number | null;
  /** Milliseconds from the start to the first byte of the upstream response (HTTP only). */
  responseDurationMs?: number | null;
  /** Why the response code is what it is (`via_upstream`, `route_not_found`, ...). */
  details?: string | null;
  /** The `name` of the route that matched. */
  routeName?: string | null;
  /** True when the health check filter answered the request. */
  healthCheck?: boolean;
  /** The body of a local reply, for `%LOCAL_REPLY_BODY%`. */
  localReplyBody?: string | null;
  /** The request's filter state, for `%FILTER_STATE(KEY)%`. */
  filterState?: FilterState | null;
  /** The request's dynamic metadata, for `%DYNAMIC_METADATA(NAMESPACE:KEY*)%`. */
  dynamicMetadata?: DynamicMetadata | null;
}

/** Options of a `SubstitutionFormatString` that change how values are written. */
export interface FormatOptions {
  /** `omit_empty_values`: an empty text value is `""` instead of `-`; JSON drops the key. */
  omitEmpty?: boolean;
}

type Value = string | number | null;
/**
 * One operator; `json` marks one whose text is JSON (a JSON format field of it alone parses it);
 * `typed` gives the value a JSON format field of it alone holds, when that is not its text.
 */
type Part = ((r: LogRecord) => Value) & { json?: boolean; typed?: (r: LogRecord) => unknown };

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

/** Envoy's response flags: the short form (`%RESPONSE_FLAGS%`) -> the long one (`_LONG`). */
export const RESPONSE_FLAG_NAMES = {
  LH: "FailedLocalHealthCheck",
  UH: "NoHealthyUpstream",
  UT: "UpstreamRequestTimeout",
  LR: "LocalReset",
  UR: "UpstreamRemoteReset",
  UF: "UpstreamConnectionFailure",
  UC: "UpstreamConnectionTermination",
  UO: "UpstreamOverflow",
  NR: "NoRouteFound",
  DI: "DelayInjected",
  FI: "FaultInjected",
  RL: "RateLimited",
  UAEX: "UnauthorizedExternalService",
  RLSE: "RateLimitServiceError",
  DC: "DownstreamConnectionTermination",
  URX: "UpstreamRetryLimitExceeded",
  SI: "StreamIdleTimeout",
  IH: "InvalidEnvoyRequestHeaders",
  DPE: "DownstreamProtocolError",
  UMSDR: "UpstreamMaxStreamDurationReached",
  RFCF: "ResponseFromCacheFilter",
  NFCF: "NoFilterConfigFound",
  DT: "DurationTimeout",
  UPE: "UpstreamProtocolError",
  NC: "NoClusterFound",
  OM: "OverloadManagerTerminated",
  DF: "DnsResolutionFailed",
  DO: "DropOverload",
  DR: "DownstreamRemoteReset",
} as const satisfies Record<string, string>;

const longFlags = (flags: readonly string[]) =>
  flags.map((f) => (RESPONSE_FLAG_NAMES as Record<string, string>)[f] ?? f).join(",");

const ms = (v: number | null | undefined) => v === null || v === undefined ? null : Math.floor(v);

/** Operators without arguments, one row per operator of Envoy's command operator list. */
const SIMPLE = {
  PROTOCOL: (r) => r.protocol,
  RESPONSE_CODE: (r) => r.status,
  RESPONSE_FLAGS: (r) => r.flags.length ? r.flags.join(",") : null,
  RESPONSE_FLAGS_LONG: (r) => r.flags.length ? longFlags(r.flags) : null,
  STREAM_ID: (r) => r.req?.("x-request-id") ?? null,
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
  REQUEST_DURATION: (r) => ms(r.requestDurationMs),
  RESPONSE_DURATION: (r) => ms(r.responseDurationMs),
  RESPONSE_CODE_DETAILS: (r) => r.details ?? null,
  ROUTE_NAME: (r) => r.routeName ?? null,
  UPSTREAM_REMOTE_ADDRESS: (r) => r.upstreamHost,
  LOCAL_REPLY_BODY: (r) => r.localReplyBody ?? null,
  DOWNSTREAM_DIRECT_REMOTE_ADDRESS: (r) => addr(r.downstreamRemote),
  DOWNSTREAM_DIRECT_REMOTE_ADDRESS_WITHOUT_PORT: (r) => r.downstreamRemote.hostname,
  GRPC_STATUS_NUMBER: (r) => grpcStatusValue(r, "NUMBER"),
} satisfies Record<string, Part>;

/** The name of an operator without arguments. */
export type SimpleOperator = keyof typeof SIMPLE;

/** Names of every operator without arguments (for messages and tests). */
export const SIMPLE_OPERATORS: readonly SimpleOperator[] = Object.keys(SIMPLE) as SimpleOperator[];

function headerPart(
  kind: "REQ" | "RESP" | "TRAILER",
  arg: string,
  max: number,
  path: string,
): Part {
  const names = arg.split("?").map((s) => s.trim().toLowerCase());
  if (names.length > 2 || names.some((n) => n === "")) {
    throw new FormatError(path, `invalid header names in %${kind}(${arg})%`);
  }
  const [a, b] = names;
  const cut = (v: string | null) => v !== null && max >= 0 && v.length > max ? v.slice(0, max) : v;
  if (kind === "REQ") {
    return (r) => r.req === null ? null : cut(r.req(a) ?? (b === undefined ? null : r.req(b)));
  }
  const pick = kind === "RESP" ? (r: LogRecord) => r.resp : (r: LogRecord) => r.trailers ?? null;
  return (r) => {
    const h = pick(r);
    return h === null ? null : cut(h.get(a) ?? (b === undefined ? null : h.get(b)));
  };
}

/**
 * `%FILTER_STATE(KEY:F)%`: the object under KEY, serialized as Envoy serializes a string object
 * (`google.protobuf.StringValue` as JSON, so quoted, by default and with `TYPED`; its bytes with
 * `PLAIN`); absent: no value.
 */
function filterStatePart(arg: string | null, max: number, path: string): Part {
  const [key, form = "", field, ...rest] = (arg ?? "").split(":");
  if (key === "" || rest.length > 0) {
    throw new FormatError(path, `%FILTER_STATE(KEY:F:FIELD)% needs a key: ${arg ?? ""}`);
  }
  if (form === "FIELD" || field !== undefined) {
    throw new FormatError(
      path,
      `%FILTER_STATE(${arg})%: FIELD is not supported by this build (its filter-state objects are strings, which have no fields)`,
    );
  }
  if (form !== "" && form !== "PLAIN" && form !== "TYPED") {
    throw new FormatError(path, `%FILTER_STATE(${arg})%: the form must be PLAIN, TYPED or FIELD`);
  }
  const plain = form === "PLAIN";
  const part: Part = (r) => {
    const o = r.filterState?.get(key);
    if (o === undefined) return null;
    const v = plain ? o.value : JSON.stringify(o.value);
    return max >= 0 && v.length > max ? v.slice(0, max) : v;
  };
  part.json = !plain;
  return part;
}

/**
 * `%DYNAMIC_METADATA(NAMESPACE:KEY*):Z%`: the namespace's Struct, or the value at the path of
 * keys in it, as Envoy's metadata formatter writes it: a string as is, anything else as JSON;
 * absent (or a null value): no value. A JSON format field of it alone holds the value itself
 * (a string when truncated).
 */
function dynamicMetadataPart(arg: string | null, max: number, path: string): Part {
  const [ns, ...keys] = (arg ?? "").split(":");
  if (ns === "") {
    throw new FormatError(
      path,
      `%DYNAMIC_METADATA(NAMESPACE:KEY*)% needs a namespace: ${arg ?? ""}`,
    );
  }
  const lookup = (r: LogRecord): MetadataValue | undefined => {
    const md = r.dynamicMetadata;
    if (md == null) return undefined;
    return keys.length === 0 ? md.get(ns) : md.value(ns, keys);
  };
  const text = (v: MetadataValue) => {
    const t = typeof v === "string" ? v : JSON.stringify(v);
    return max >= 0 && t.length > max ? t.slice(0, max) : t;
  };
  const part: Part = (r) => {
    const v = lookup(r);
    return v === undefined || v === null ? null : text(v);
  };
  part.typed = (r) => {
    const v = lookup(r);
    return v === undefined || v === null ? null : max >= 0 ? text(v) : v;
  };
  return part;
}

function operator(name: string, arg: string | null, max: number, path: string): Part {
  if (name === "REQ" || name === "RESP" || name === "TRAILER") {
    if (arg === null) throw new FormatError(path, `%${name}% needs a header name: %${name}(X)%`);
    return headerPart(name, arg, max, path);
  }
  if (name === "START_TIME") {
    const f = compileTimeFormat(arg ?? "", path);
    return (r) => f(r.startMs);
  }
  if (name === "FILTER_STATE") return filterStatePart(arg, max, path);
  if (name === "DYNAMIC_METADATA") return dynamicMetadataPart(arg, max, path);
  if (name === "METADATA") {
    const [type, ...rest] = (arg ?? "").split(":");
    if (type !== "DYNAMIC") {
      throw new FormatError(
        path,
        `%METADATA(${arg ?? ""})%: metadata type ${
          JSON.stringify(type)
        } is not supported by this build (DYNAMIC only)`,
      );
    }
    return dynamicMetadataPart(rest.join(":"), max, path);
  }
  if (name === "GRPC_STATUS") {
    const f = arg === null || arg === "" ? "CAMEL_STRING" : arg;
    if (!(GRPC_STATUS_FORMATS as readonly string[]).includes(f)) {
      throw new FormatError(
        path,
        `%GRPC_STATUS(${arg})%: the format must be ${GRPC_STATUS_FORMATS.join(", ")}`,
      );
    }
    return (r) => grpcStatusValue(r, f as GrpcStatusFormat);
  }
  if (name === "HOSTNAME") {
    const h = hostname();
    return () => h;
  }
  const p = (SIMPLE as Record<string, Part>)[name];
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

/** JSON text as its value; text that a truncation (`:Z`) cut stays text. */
function parseOrText(x: string): unknown {
  try {
    return JSON.parse(x);
  } catch {
    return x;
  }
}

/** Compiles a text format (found at `path`); throws {@linkcode FormatError}. */
export function compileFormat(format: string, path: string, opts: FormatOptions = {}): Formatter {
  const parts = compileParts(format, path);
  const empty = opts.omitEmpty ? "" : "-";
  return (r) => {
    let s = "";
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i];
      if (typeof p === "string") s += p;
      else {
        const v = p(r);
        s += v === null || v === "" ? empty : v;
      }
    }
    return s;
  };
}

/**
 * Compiles a JSON format (an object of key -> format string or nested object). A value that is
 * one operator alone keeps its type (numbers stay numbers); numbers and booleans given as such
 * (`typed_json_format`) are written as given.
 */
export function compileJsonFormat(
  spec: Record<string, unknown>,
  path: string,
  opts: FormatOptions = {},
): Formatter {
  const omit = opts.omitEmpty === true;
  const build = (o: Record<string, unknown>, at: string): (r: LogRecord) => unknown => {
    const fields: [string, (r: LogRecord) => unknown][] = [];
    for (const [k, v] of Object.entries(o)) {
      if (typeof v === "string") {
        const parts = compileParts(v, `${at}.${k}`);
        if (parts.length === 1 && typeof parts[0] !== "string") {
          const p = parts[0];
          if (p.typed !== undefined) {
            fields.push([k, p.typed]);
            continue;
          }
          fields.push([k, (r) => {
            const x = p(r);
            if (p.json && typeof x === "string") return parseOrText(x);
            return x === "" ? null : x;
          }]);
        } else {
          const f = compileFormat(v, `${at}.${k}`, opts);
          fields.push([k, f]);
        }
      } else if (typeof v === "number" || typeof v === "boolean") {
        fields.push([k, () => v]);
      } else if (v !== null && typeof v === "object" && !Array.isArray(v)) {
        fields.push([k, build(v as Record<string, unknown>, `${at}.${k}`)]);
      } else {
        throw new FormatError(
          `${at}.${k}`,
          "json_format values must be strings, numbers, booleans or objects",
        );
      }
    }
    return (r) => {
      const out: Record<string, unknown> = {};
      for (const [k, f] of fields) {
        const x = f(r);
        if (omit && (x === null || x === "")) continue;
        out[k] = x;
      }
      return out;
    };
  };
  const f = build(spec, path);
  return (r) => JSON.stringify(f(r)) + "\n";
}
