/**
 * Options of the HTTP connection manager that change each request or response without a
 * filter: `codec_type` (AUTO, HTTP1: no h2c, HTTP2: h2c only), `http_protocol_options`
 * (`accept_http_10` as Envoy: HTTP/1.0 is answered 426 unless accepted,
 * `default_host_for_http_10`, `header_key_format.proper_case_words`, `enable_trailers`),
 * `server_header_transformation` (OVERWRITE, APPEND_IF_ABSENT, PASS_THROUGH) and the
 * request path's normalization, in Envoy's order: `path_with_escaped_slashes_action` first
 * (`%2F` and `%5C` kept, refused with 400, unescaped and redirected with 307, or unescaped and
 * forwarded), then `normalize_path` (dot segments, also written `%2E`, resolved as RFC 3986
 * says), then `merge_slashes`. The path that comes out is the one routed and forwarded.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { normalizePath } from "./hcm_options.ts";
 * assert.equal(normalizePath("/a/./b/../c?x=/../", true, true), "/a/c?x=/../");
 * assert.equal(normalizePath("//a///b", false, true), "/a/b");
 * ```
 * @module
 */
import { DELAYED_CLOSE_MS } from "./delayed_close.ts";
import type { JsonObject } from "../config/bootstrap_types.ts";
import { durationMs, type Errors, fail, isObject, unwrap } from "../config/config_values.ts";
import { onlyFields } from "../filters/http_filter.ts";
import type { DownstreamRequest } from "../http/downstream_request.ts";
import { HeaderMap } from "../http/header_map.ts";
import { localReply } from "../http/local_reply.ts";
import { type ProxyResponse, proxyResponse } from "../http/proxy_response.ts";
import { type H2Options, parseH2Options } from "./h2_options.ts";

/** What to do with `%2F` / `%5C` in a path, by Envoy's enum names. */
const ESCAPED_SLASHES = {
  IMPLEMENTATION_SPECIFIC_DEFAULT: "keep",
  KEEP_UNCHANGED: "keep",
  REJECT_REQUEST: "reject",
  UNESCAPE_AND_REDIRECT: "redirect",
  UNESCAPE_AND_FORWARD: "forward",
} as const satisfies Record<string, "keep" | "reject" | "redirect" | "forward">;

const SERVER_HEADER = ["OVERWRITE", "APPEND_IF_ABSENT", "PASS_THROUGH"] as const;

/** The parsed options. */
export interface HcmOptions {
  serverHeader: (typeof SERVER_HEADER)[number];
  normalizePath: boolean;
  mergeSlashes: boolean;
  escapedSlashes: (typeof ESCAPED_SLASHES)[keyof typeof ESCAPED_SLASHES];
  /** True when any path option is on. */
  normalizes: boolean;
  /** `codec_type`: both HTTP/1.1 and h2c (AUTO), or only one of them. */
  codec: (typeof CODECS)[number];
  /** `http_protocol_options`: whether HTTP/1.0 is accepted, and its default host. */
  http10: { accept: boolean; defaultHost: string };
  /** `http_protocol_options.header_key_format.proper_case_words`. */
  properCase: boolean;
  /** `http_protocol_options.enable_trailers`: trailers of chunked messages pass (else dropped). */
  trailers: boolean;
  /** `drain_timeout`: from an HTTP/2 GOAWAY notice to the final GOAWAY (unset: 5 s). */
  drainTimeoutMs?: number;
  /** `delayed_close_timeout`: how long a connection the proxy ends waits for the client's close (unset: 1 s; 0: none). */
  delayedCloseMs: number;
  /** `http2_protocol_options`: SETTINGS of downstream HTTP/2 connections (`h2_options.ts`). */
  http2: H2Options;
}

const CODECS = ["AUTO", "HTTP1", "HTTP2"] as const;

/** `http_protocol_options` (core `Http1ProtocolOptions`): the fields this build honours. */
function http1Options(v: unknown, at: string, errors: Errors) {
  const out = { accept: false, defaultHost: "", properCase: false, trailers: false };
  if (v === undefined) return out;
  if (!isObject(v)) return fail(errors, at, "must be an object"), out;
  onlyFields(
    v,
    ["accept_http_10", "default_host_for_http_10", "header_key_format", "enable_trailers"],
    at,
    errors,
  );
  const t = unwrap(v.enable_trailers);
  if (t !== undefined && typeof t !== "boolean") {
    fail(errors, `${at}.enable_trailers`, "must be a boolean");
  }
  out.trailers = t === true;
  const a = unwrap(v.accept_http_10);
  if (a !== undefined && typeof a !== "boolean") {
    fail(errors, `${at}.accept_http_10`, "must be a boolean");
  }
  out.accept = a === true;
  const d = v.default_host_for_http_10;
  if (d !== undefined && typeof d !== "string") {
    fail(errors, `${at}.default_host_for_http_10`, "must be a string");
  } else if (typeof d === "string") out.defaultHost = d;
  const hk = v.header_key_format;
  if (hk !== undefined) {
    const hAt = `${at}.header_key_format`;
    if (!isObject(hk)) fail(errors, hAt, "must be an object");
    else {
      onlyFields(hk, ["proper_case_words"], hAt, errors);
      out.properCase = hk.proper_case_words !== undefined;
    }
  }
  return out;
}

/** Parses the options of the connection manager `c` found at `path`. */
export function parseHcmOptions(c: JsonObject, path: string, errors: Errors): HcmOptions {
  const sht = c.server_header_transformation ?? "OVERWRITE";
  if (typeof sht !== "string" || !(SERVER_HEADER as readonly string[]).includes(sht)) {
    fail(
      errors,
      `${path}.server_header_transformation`,
      `must be one of ${SERVER_HEADER.join(", ")}`,
    );
  }
  const bool = (k: string) => {
    const v = unwrap(c[k]);
    if (v !== undefined && typeof v !== "boolean") {
      fail(errors, `${path}.${k}`, "must be a boolean");
    }
    return v === true;
  };
  const esc = c.path_with_escaped_slashes_action ?? "IMPLEMENTATION_SPECIFIC_DEFAULT";
  if (typeof esc !== "string" || !(esc in ESCAPED_SLASHES)) {
    fail(
      errors,
      `${path}.path_with_escaped_slashes_action`,
      `must be one of ${Object.keys(ESCAPED_SLASHES).join(", ")}`,
    );
  }
  const escapedSlashes = ESCAPED_SLASHES[esc as keyof typeof ESCAPED_SLASHES] ?? "keep";
  const normalizePath = bool("normalize_path");
  const mergeSlashes = bool("merge_slashes");
  const codec = c.codec_type ?? "AUTO";
  if (typeof codec !== "string" || !(CODECS as readonly string[]).includes(codec)) {
    fail(errors, `${path}.codec_type`, `must be one of ${CODECS.join(", ")}`);
  }
  const h1 = http1Options(c.http_protocol_options, `${path}.http_protocol_options`, errors);
  const drain = c.drain_timeout === undefined
    ? undefined
    : durationMs(c.drain_timeout, `${path}.drain_timeout`, errors) ?? undefined;
  const delayed = c.delayed_close_timeout === undefined
    ? DELAYED_CLOSE_MS
    : durationMs(c.delayed_close_timeout, `${path}.delayed_close_timeout`, errors) ??
      DELAYED_CLOSE_MS;
  return {
    codec: (CODECS as readonly string[]).includes(codec as string)
      ? codec as HcmOptions["codec"]
      : "AUTO",
    http10: { accept: h1.accept, defaultHost: h1.defaultHost },
    properCase: h1.properCase,
    trailers: h1.trailers,
    serverHeader: (SERVER_HEADER as readonly string[]).includes(sht as string)
      ? sht as HcmOptions["serverHeader"]
      : "OVERWRITE",
    normalizePath,
    mergeSlashes,
    escapedSlashes,
    normalizes: normalizePath || mergeSlashes || escapedSlashes !== "keep",
    drainTimeoutMs: drain,
    delayedCloseMs: delayed,
    http2: parseH2Options(c.http2_protocol_options, `${path}.http2_protocol_options`, errors),
  };
}

const DOT = /^(?:\.|%2e)$/i;
const DOT_DOT = /^(?:\.|%2e){2}$/i;

/** The path (with its query, untouched) with dot segments resolved and/or slashes merged. */
export function normalizePath(p: string, dots: boolean, merge: boolean): string {
  const q = p.indexOf("?");
  let path = q < 0 ? p : p.slice(0, q);
  const query = q < 0 ? "" : p.slice(q);
  if (dots) {
    const out: string[] = [];
    const segs = path.split("/");
    segs.forEach((s, i) => {
      const last = i === segs.length - 1;
      if (i === 0) return;
      if (DOT.test(s)) {
        if (last) out.push("");
      } else if (DOT_DOT.test(s)) {
        out.pop();
        if (last) out.push("");
      } else out.push(s);
    });
    path = "/" + out.join("/");
  }
  if (merge) path = path.replace(/\/{2,}/g, "/");
  return path + query;
}

const ESCAPED = /%2f|%5c/gi;
const HAS_ESCAPED = /%2f|%5c/i;

/**
 * Applies the path options to `req` (its `path` is replaced); a response when the request is
 * answered instead (400 for a refused escaped slash, 307 to the unescaped path).
 */
export function normalizeRequestPath(req: DownstreamRequest, o: HcmOptions): ProxyResponse | null {
  let p = req.path;
  if (o.escapedSlashes !== "keep") {
    const q = p.indexOf("?");
    const path = q < 0 ? p : p.slice(0, q);
    if (HAS_ESCAPED.test(path)) {
      if (o.escapedSlashes === "reject") return localReply(400, "");
      const unescaped = path.replace(ESCAPED, (m) => (m[2] === "f" || m[2] === "F" ? "/" : "\\"));
      p = unescaped + (q < 0 ? "" : p.slice(q));
      if (o.escapedSlashes === "redirect") {
        const target = normalizePath(p, o.normalizePath, o.mergeSlashes);
        // A local reply in Envoy: the mappers and gRPC apply to it.
        return { ...proxyResponse(307, new HeaderMap([["location", target]])), localBody: "" };
      }
    }
  }
  req.path = normalizePath(p, o.normalizePath, o.mergeSlashes);
  return null;
}
