/**
 * Options of the HTTP connection manager that change each request or response without a
 * filter: `server_header_transformation` (OVERWRITE, APPEND_IF_ABSENT, PASS_THROUGH) and the
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
import type { JsonObject } from "../config/bootstrap_types.ts";
import { type Errors, fail, unwrap } from "../config/config_values.ts";
import type { DownstreamRequest } from "../http/downstream_request.ts";
import { HeaderMap } from "../http/header_map.ts";
import { localReply } from "../http/local_reply.ts";
import { type ProxyResponse, proxyResponse } from "../http/proxy_response.ts";

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
  return {
    serverHeader: (SERVER_HEADER as readonly string[]).includes(sht as string)
      ? sht as HcmOptions["serverHeader"]
      : "OVERWRITE",
    normalizePath,
    mergeSlashes,
    escapedSlashes,
    normalizes: normalizePath || mergeSlashes || escapedSlashes !== "keep",
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
        return proxyResponse(307, new HeaderMap([["location", target]]));
      }
    }
  }
  req.path = normalizePath(p, o.normalizePath, o.mergeSlashes);
  return null;
}
