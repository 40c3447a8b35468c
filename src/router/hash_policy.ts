/**
 * Route `hash_policy`: how a request becomes the 64-bit hash that RING_HASH and MAGLEV clusters
 * choose a host by, as Envoy computes it (`Http::HashPolicyImpl`).
 *
 * - `header`: xxHash64 of the header's values (sorted, hashed as one stream); pseudo-headers
 *   `:authority`, `:path`, `:method`, `:scheme` read the request line.
 * - `cookie`: xxHash64 of the cookie's value. Missing with a `ttl`: a cookie is generated,
 *   the hex xxHash64 of the downstream remote and local addresses, set on the response
 *   (`name="value"; Max-Age=<ttl s>; Path=<path>; HttpOnly`, Max-Age left out for a ttl of 0), and
 *   its value is hashed; missing without a `ttl`: no hash.
 * - `connection_properties.source_ip`: xxHash64 of the downstream IP address.
 * - `query_parameter`: xxHash64 of the first value of the parameter (not URL-decoded).
 * - `filter_state`: the hash of the object a filter stored in the request's filter state under
 *   `key` (`envoy.filters.http.set_filter_state` with the `envoy.hashable_string` factory: the
 *   xxHash64 of its value); no object, or one without a hash (`envoy.string`): no hash.
 *
 * Policies are evaluated in order; each hash is combined with the running one as
 * `rotl1(running) ^ new`, and a `terminal` policy that produced a hash ends the evaluation. No
 * policy produced a hash: the request has none (the balancer then draws one at random).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { xxHash64 } from "../upstream/lb/hash.ts";
 * import { parseHashPolicies, requestHash } from "./hash_policy.ts";
 * const errors: { path: string; rule: string; message: string }[] = [];
 * const ps = parseHashPolicies([{ header: { header_name: "x-user" } }], "r.hash_policy", errors);
 * const h = requestHash(ps, {
 *   method: "GET", path: "/", authority: "a", scheme: "http",
 *   headers: new Headers({ "x-user": "alice" }),
 *   remote: { hostname: "127.0.0.1", port: 5000 }, local: { hostname: "127.0.0.1", port: 80 },
 * }, () => {});
 * assert.equal(h, xxHash64("alice"));
 * ```
 * @module
 */
import type { Json } from "../config/bootstrap_types.ts";
import { durationMs, type Errors, fail, isObject, unwrap } from "../config/config_values.ts";
import type { FilterState } from "../http/filter_state.ts";
import { xxHash64, xxHash64Concat } from "../upstream/lb/hash.ts";

/** One parsed hash policy. */
export type HashPolicy =
  | { kind: "header"; name: string; terminal: boolean }
  | { kind: "cookie"; name: string; ttlSeconds: number | null; path: string; terminal: boolean }
  | { kind: "source_ip"; terminal: boolean }
  | { kind: "query_parameter"; name: string; terminal: boolean }
  | { kind: "filter_state"; key: string; terminal: boolean };

/** What a hash policy may read of a request and its connection. */
export interface HashInput {
  method: string;
  /** Path with query. */
  path: string;
  authority: string;
  scheme: string;
  headers: Headers;
  remote: { hostname: string; port: number };
  local: { hostname: string; port: number };
  /** The request's filter state, when a filter stored objects in it. */
  filterState?: FilterState;
}

type Kind = HashPolicy["kind"];
type Evaluate<K extends Kind> = (
  p: Extract<HashPolicy, { kind: K }>,
  r: HashInput,
  setCookie: (value: string) => void,
) => bigint | undefined;

const M64 = (1n << 64n) - 1n;

function headerValues(r: HashInput, name: string): string[] {
  switch (name) {
    case ":authority":
      return [r.authority];
    case ":path":
      return [r.path];
    case ":method":
      return [r.method];
    case ":scheme":
      return [r.scheme];
  }
  const out: string[] = [];
  r.headers.forEach((v, k) => {
    if (k === name) out.push(v);
  });
  return out;
}

/** The value of cookie `name` in the `cookie` headers (quotes removed), or "" (Envoy). */
export function cookieValue(headers: Headers, name: string): string {
  let found = "";
  headers.forEach((v, k) => {
    if (k !== "cookie" || found !== "") return;
    for (const part of v.split(";")) {
      const kv = part.trimStart();
      const eq = kv.indexOf("=");
      if (eq < 0 || kv.slice(0, eq) !== name) continue;
      let value = kv.slice(eq + 1);
      if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
        value = value.slice(1, -1);
      }
      found = value;
      return;
    }
  });
  return found;
}

/** The first value of query parameter `name` in `path`, undecoded; undefined when absent. */
export function queryParameter(path: string, name: string): string | undefined {
  const q = path.indexOf("?");
  if (q < 0) return undefined;
  for (const part of path.slice(q + 1).split("&")) {
    const eq = part.indexOf("=");
    const k = eq < 0 ? part : part.slice(0, eq);
    if (k === name) return eq < 0 ? "" : part.slice(eq + 1);
  }
  return undefined;
}

function addressText(a: { hostname: string; port: number }): string {
  return a.hostname.includes(":") ? `[${a.hostname}]:${a.port}` : `${a.hostname}:${a.port}`;
}

/** The `set-cookie` value Envoy's router generates for a cookie hash policy with a `ttl`. */
export function generatedCookie(
  p: Extract<HashPolicy, { kind: "cookie" }>,
  r: HashInput,
): { value: string; header: string } {
  const value = xxHash64(addressText(r.remote) + addressText(r.local)).toString(16)
    .padStart(16, "0");
  let header = `${p.name}="${value}"`;
  if (p.ttlSeconds) header += `; Max-Age=${p.ttlSeconds}`;
  if (p.path !== "") header += `; Path=${p.path}`;
  return { value, header: header + "; HttpOnly" };
}

const EVALUATE: { [K in Kind]: Evaluate<K> } = {
  header: (p, r) => {
    const values = headerValues(r, p.name);
    if (values.length === 0) return undefined;
    return xxHash64Concat(values.sort());
  },
  cookie: (p, r, setCookie) => {
    const value = cookieValue(r.headers, p.name);
    if (value !== "") return xxHash64(value);
    if (p.ttlSeconds === null) return undefined;
    const g = generatedCookie(p, r);
    setCookie(g.header);
    return xxHash64(g.value);
  },
  source_ip: (_p, r) => (r.remote.hostname === "" ? undefined : xxHash64(r.remote.hostname)),
  query_parameter: (p, r) => {
    const v = queryParameter(r.path, p.name);
    return v === undefined ? undefined : xxHash64(v);
  },
  filter_state: (p, r) => {
    const o = r.filterState?.get(p.key);
    return o?.hashable ? xxHash64(o.value) : undefined;
  },
};

/**
 * The request's hash under `policies`, or undefined when none produced one; `setCookie` receives
 * each `set-cookie` value a cookie policy generated.
 */
export function requestHash(
  policies: readonly HashPolicy[],
  r: HashInput,
  setCookie: (value: string) => void,
): bigint | undefined {
  let hash: bigint | undefined;
  for (const p of policies) {
    const h = (EVALUATE[p.kind] as Evaluate<Kind>)(p, r, setCookie);
    if (h !== undefined) {
      const old = hash === undefined ? 0n : ((hash << 1n) | (hash >> 63n)) & M64;
      hash = old ^ h;
    }
    if (p.terminal && hash !== undefined) break;
  }
  return hash;
}

const SPECIFIERS = ["header", "cookie", "connection_properties", "query_parameter", "filter_state"];

function nonEmptyName(v: Json | undefined, path: string, errors: Errors): string | null {
  if (typeof v !== "string" || v === "") {
    fail(errors, path, "must be a non-empty string");
    return null;
  }
  return v;
}

function onlyKeys(o: Record<string, unknown>, keys: string[], path: string, errors: Errors) {
  for (const k of Object.keys(o)) {
    if (!keys.includes(k)) fail(errors, `${path}.${k}`, `${k} is not supported in hash_policy`);
  }
}

/** Parses a route's `hash_policy` list (found at `path`). */
export function parseHashPolicies(v: Json | undefined, path: string, errors: Errors): HashPolicy[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) {
    fail(errors, path, "hash_policy must be a list");
    return [];
  }
  const out: HashPolicy[] = [];
  v.forEach((e, i) => {
    const at = `${path}[${i}]`;
    if (!isObject(e)) return fail(errors, at, "must be an object");
    onlyKeys(e, [...SPECIFIERS, "terminal"], at, errors);
    const set = SPECIFIERS.filter((k) => e[k] !== undefined);
    if (set.length !== 1) {
      return fail(errors, at, `needs exactly one of ${SPECIFIERS.join(", ")}`);
    }
    const terminal = unwrap(e.terminal) === true;
    const k = set[0];
    const o = e[k];
    const oat = `${at}.${k}`;
    if (!isObject(o)) return fail(errors, oat, "must be an object");
    if (k === "header") {
      onlyKeys(o, ["header_name"], oat, errors);
      const name = nonEmptyName(o.header_name, `${oat}.header_name`, errors);
      if (name) out.push({ kind: "header", name: name.toLowerCase(), terminal });
    } else if (k === "cookie") {
      onlyKeys(o, ["name", "ttl", "path"], oat, errors);
      const name = nonEmptyName(o.name, `${oat}.name`, errors);
      const ms = o.ttl === undefined ? null : durationMs(o.ttl, `${oat}.ttl`, errors);
      if (o.path !== undefined && typeof o.path !== "string") {
        fail(errors, `${oat}.path`, "must be a string");
      }
      if (name) {
        out.push({
          kind: "cookie",
          name,
          ttlSeconds: ms === null ? null : Math.floor(ms / 1000),
          path: typeof o.path === "string" ? o.path : "",
          terminal,
        });
      }
    } else if (k === "connection_properties") {
      onlyKeys(o, ["source_ip"], oat, errors);
      // As in Envoy, `source_ip: false` adds no policy.
      if (unwrap(o.source_ip) === true) out.push({ kind: "source_ip", terminal });
    } else if (k === "query_parameter") {
      onlyKeys(o, ["name"], oat, errors);
      const name = nonEmptyName(o.name, `${oat}.name`, errors);
      if (name) out.push({ kind: "query_parameter", name, terminal });
    } else {
      onlyKeys(o, ["key"], oat, errors);
      const key = nonEmptyName(o.key, `${oat}.key`, errors);
      if (key) out.push({ kind: "filter_state", key, terminal });
    }
  });
  return out;
}
