/**
 * `internal_redirect_policy` of a route, as Envoy's router handles it: when the upstream answers
 * one of `redirect_response_codes` (default 302; 301, 302, 303, 307 and 308 are allowed) with a
 * `location` that is an absolute http(s) URL, of the downstream scheme unless
 * `allow_cross_scheme_redirect`, and the request has met fewer than `max_internal_redirects`
 * (default 1) internal redirects, the proxy does not pass the redirect down: it sends the request
 * again, from route selection on, to the new authority and path (a 303 turns into a GET without
 * body, HEAD excepted), with `x-proxy-original-url` telling where it first went. A redirect that
 * cannot be followed goes downstream as it came. The request body must have been buffered whole
 * (within the route's buffer limit). `predicates` and `response_headers_to_copy` are refused.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseInternalRedirectPolicy, redirectTarget } from "./internal_redirect.ts";
 * const p = parseInternalRedirectPolicy({}, "p", [])!;
 * const req = { method: "GET", path: "/a", authority: "h", scheme: "http" };
 * const t = redirectTarget(p, 302, "http://other/b?x=1", req, 0);
 * assert.deepEqual(t, { method: "GET", authority: "other", path: "/b?x=1", scheme: "http",
 *   dropBody: false, originalUrl: "http://h/a" });
 * assert.equal(redirectTarget(p, 302, "https://other/b", req, 0), null);
 * assert.equal(redirectTarget(p, 302, "http://other/b", req, 1), null);
 * ```
 * @module
 */
import type { Json } from "../config/bootstrap_types.ts";
import { type Errors, fail, isObject, unwrap } from "../config/config_values.ts";

/** A parsed `internal_redirect_policy`. */
export interface InternalRedirectPolicy {
  maxInternalRedirects: number;
  codes: ReadonlySet<number>;
  allowCrossScheme: boolean;
}

/** The header that carries the URL the request was first sent to. */
export const ORIGINAL_URL_HEADER = "x-proxy-original-url";

const ALLOWED_CODES = new Set([301, 302, 303, 307, 308]);

/** Parses `internal_redirect_policy` at `path`; null (with errors) when malformed. */
export function parseInternalRedirectPolicy(
  v: Json | undefined,
  path: string,
  errors: Errors,
): InternalRedirectPolicy | null {
  if (v === undefined) return null;
  if (!isObject(v)) {
    fail(errors, path, "internal_redirect_policy must be an object");
    return null;
  }
  let max = 1;
  const codes = new Set<number>();
  let cross = false;
  for (const [k, x] of Object.entries(v)) {
    const at = `${path}.${k}`;
    if (k === "max_internal_redirects") {
      const n = Number(unwrap(x));
      if (!Number.isInteger(n) || n < 0 || n > 4294967295) {
        fail(errors, at, "must be an integer from 0 to 4294967295");
      } else max = n;
    } else if (k === "redirect_response_codes") {
      if (!Array.isArray(x) || x.length > 5) {
        fail(errors, at, "redirect_response_codes must be a list of at most 5 codes");
        continue;
      }
      // Envoy drops codes other than 301, 302, 303, 307 and 308; they are refused here.
      x.forEach((c, i) => {
        if (ALLOWED_CODES.has(Number(c))) codes.add(Number(c));
        else fail(errors, `${at}[${i}]`, `${c} is never followed (301, 302, 303, 307, 308 are)`);
      });
    } else if (k === "allow_cross_scheme_redirect") {
      const b = unwrap(x);
      if (typeof b !== "boolean") fail(errors, at, "allow_cross_scheme_redirect must be a bool");
      else cross = b;
    } else if (k === "predicates" || k === "response_headers_to_copy") {
      if (Array.isArray(x) && x.length === 0) continue;
      fail(
        errors,
        at,
        `${k} is not supported by this build (max_internal_redirects, redirect_response_codes and allow_cross_scheme_redirect are)`,
      );
    } else fail(errors, at, `unknown field ${k} of InternalRedirectPolicy`);
  }
  if (!("redirect_response_codes" in v)) codes.add(302);
  return { maxInternalRedirects: max, codes, allowCrossScheme: cross };
}

/** Where an internal redirect sends the request again. */
export interface RedirectTarget {
  method: string;
  authority: string;
  path: string;
  scheme: "http" | "https";
  /** A 303 turned the request into a GET: its body goes. */
  dropBody: boolean;
  /** The URL the request was sent to before (for `x-proxy-original-url`). */
  originalUrl: string;
}

/**
 * The target of an internal redirect for an answer `status` with `location` to request `req`
 * that has met `count` internal redirects; null when the redirect goes downstream instead.
 */
export function redirectTarget(
  p: InternalRedirectPolicy,
  status: number,
  location: string | null,
  req: { method: string; path: string; authority: string; scheme: string },
  count: number,
): RedirectTarget | null {
  if (!p.codes.has(status) || location === null) return null;
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    return null;
  }
  const scheme = url.protocol === "http:" ? "http" : url.protocol === "https:" ? "https" : null;
  if (scheme === null || url.host === "" || url.username !== "" || url.password !== "") {
    return null;
  }
  if (!p.allowCrossScheme && scheme !== req.scheme) return null;
  if (count >= p.maxInternalRedirects) return null;
  const toGet = status === 303 && req.method !== "GET" && req.method !== "HEAD";
  return {
    method: toGet ? "GET" : req.method,
    authority: url.host,
    path: url.pathname + url.search,
    scheme,
    dropBody: toGet,
    originalUrl: `${req.scheme}://${req.authority}${req.path}`,
  };
}

const COUNTS = new WeakMap<object, number>();

/** The internal redirects request `req` has met. */
export function redirectCount(req: object): number {
  return COUNTS.get(req) ?? 0;
}

/** Records that `next` is `prev` sent again after one more internal redirect. */
export function countRedirect(prev: object, next: object): void {
  COUNTS.set(next, redirectCount(prev) + 1);
}
