/**
 * A route's `redirect` (`route.RedirectAction`) and the `location` it answers with, built as
 * Envoy's `RouteEntryImplBase::newUri`: the scheme from `scheme_redirect`, `https_redirect` or
 * the request's `x-forwarded-proto`; the host from `host_redirect` or the request (its port
 * dropped when `port_redirect` replaces it, or when the scheme changes and it was the old
 * scheme's default port); the path from `path_redirect` (keeping the request's query unless
 * the new path has one), `prefix_rewrite` or `regex_rewrite`; `strip_query` drops the query.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseRedirect, redirectLocation } from "./redirect.ts";
 * const r = parseRedirect({ https_redirect: true }, "r", [])!;
 * const req = { path: "/a?b", authority: "h:80", scheme: "http", headers: new Headers() };
 * assert.equal(redirectLocation(r, req, null), "https://h/a?b");
 * ```
 * @module
 */
import type { Json } from "../config/bootstrap_types.ts";
import { type Errors, fail, isObject, unwrap } from "../config/config_values.ts";
import {
  applyRegexRewrite,
  type MatchedPrefix,
  parseRegexRewrite,
  type RegexRewrite,
} from "./path_rewrite.ts";

/** A compiled redirect. */
export interface Redirect {
  status: number;
  scheme: string | null;
  host: string | null;
  /** `:port`, or null. */
  port: string | null;
  path: string | null;
  prefixRewrite: string | null;
  regexRewrite: RegexRewrite | null;
  stripQuery: boolean;
}

const CODES: Record<string, number> = {
  MOVED_PERMANENTLY: 301,
  FOUND: 302,
  SEE_OTHER: 303,
  TEMPORARY_REDIRECT: 307,
  PERMANENT_REDIRECT: 308,
};

const FIELDS = new Set([
  "https_redirect",
  "scheme_redirect",
  "host_redirect",
  "port_redirect",
  "path_redirect",
  "prefix_rewrite",
  "regex_rewrite",
  "response_code",
  "strip_query",
]);

/** Parses `redirect` at `path`. */
export function parseRedirect(d: Json | undefined, path: string, errors: Errors): Redirect | null {
  if (!isObject(d)) {
    fail(errors, path, "redirect must be an object");
    return null;
  }
  for (const k of Object.keys(d)) {
    if (!FIELDS.has(k)) fail(errors, `${path}.${k}`, `unknown field ${k} of RedirectAction`);
  }
  const str = (k: string): string | null => {
    const v = d[k];
    if (v === undefined) return null;
    if (typeof v !== "string") {
      fail(errors, `${path}.${k}`, `${k} must be a string`);
      return null;
    }
    return v;
  };
  if (d.https_redirect !== undefined && d.scheme_redirect !== undefined) {
    fail(errors, path, "only one of https_redirect, scheme_redirect may be set");
  }
  const paths = ["path_redirect", "prefix_rewrite", "regex_rewrite"].filter((k) =>
    d[k] !== undefined
  );
  if (paths.length > 1) {
    fail(errors, path, "only one of path_redirect, prefix_rewrite, regex_rewrite may be set");
  }
  const code = d.response_code === undefined ? 301 : CODES[String(d.response_code)];
  if (!code) {
    fail(
      errors,
      `${path}.response_code`,
      `unknown code ${JSON.stringify(d.response_code)} (known: ${Object.keys(CODES).join(", ")})`,
    );
    return null;
  }
  let port: string | null = null;
  if (d.port_redirect !== undefined) {
    const p = Number(unwrap(d.port_redirect));
    if (!Number.isInteger(p) || p < 1 || p > 65535) {
      fail(errors, `${path}.port_redirect`, "port_redirect must be a port from 1 to 65535");
    } else port = `:${p}`;
  }
  const https = unwrap(d.https_redirect) === true;
  const scheme = str("scheme_redirect");
  const pathRedirect = str("path_redirect");
  if (pathRedirect !== null && !pathRedirect.startsWith("/")) {
    fail(errors, `${path}.path_redirect`, "path_redirect must start with /");
  }
  return {
    status: code,
    scheme: scheme !== null ? scheme.toLowerCase() : https ? "https" : null,
    host: str("host_redirect"),
    port,
    path: pathRedirect,
    prefixRewrite: str("prefix_rewrite"),
    regexRewrite: d.regex_rewrite === undefined
      ? null
      : parseRegexRewrite(d.regex_rewrite, `${path}.regex_rewrite`, errors),
    stripQuery: unwrap(d.strip_query) === true,
  };
}

/** What the location is built from. */
export interface RedirectInput {
  path: string;
  authority: string;
  scheme: string;
  headers: Headers;
}

function requestHost(r: RedirectInput, newScheme: string, newPort: string | null): string {
  const host = r.authority;
  let end = -1;
  if (host.startsWith("[")) {
    const i = host.lastIndexOf("]:");
    end = i < 0 ? -1 : i + 1;
  } else end = host.lastIndexOf(":");
  if (end < 0) return host;
  const port = host.slice(end);
  const proto = r.headers.get("x-forwarded-proto") ?? r.scheme;
  let remove = newPort !== null;
  if (newScheme !== proto) {
    remove ||= (proto === "https" && port === ":443") || (proto === "http" && port === ":80");
  }
  return remove ? host.slice(0, end) : host;
}

/** The `location` of redirect `d` for request `r` whose route matched `matched`. */
export function redirectLocation(d: Redirect, r: RedirectInput, matched: MatchedPrefix): string {
  const scheme = d.scheme ?? r.headers.get("x-forwarded-proto") ?? r.scheme;
  const host = d.host ?? requestHost(r, scheme, d.port);
  let path: string;
  let pathHasQuery = false;
  if (d.path !== null) {
    pathHasQuery = d.path.includes("?");
    const q = r.path.indexOf("?");
    path = pathHasQuery || q < 0 ? d.path : d.path + r.path.slice(q);
  } else if (d.prefixRewrite !== null && matched !== null) {
    if (matched.kind === "prefix") path = d.prefixRewrite + r.path.slice(matched.length);
    else {
      const q = r.path.indexOf("?");
      path = d.prefixRewrite + (q < 0 ? "" : r.path.slice(q));
    }
  } else if (d.regexRewrite !== null) path = applyRegexRewrite(r.path, d.regexRewrite);
  else path = r.path;
  if (!path.startsWith("/")) path = "/" + path;
  if (!pathHasQuery && d.stripQuery) {
    const q = path.indexOf("?");
    if (q >= 0) path = path.slice(0, q);
  }
  return `${scheme}://${host}${d.port ?? ""}${path}`;
}
