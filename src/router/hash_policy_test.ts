import assert from "node:assert/strict";
import {
  cookieValue,
  generatedCookie,
  type HashInput,
  parseHashPolicies,
  queryParameter,
  requestHash,
} from "./hash_policy.ts";
import { xxHash64 } from "../upstream/lb/hash.ts";
import { FilterState } from "../http/filter_state.ts";
import type { Errors } from "../config/config_values.ts";
import type { Json } from "../config/bootstrap_types.ts";

const M64 = (1n << 64n) - 1n;
const rotl1 = (h: bigint) => ((h << 1n) | (h >> 63n)) & M64;

function input(over: Partial<HashInput> & { h?: [string, string][] } = {}): HashInput {
  const headers = new Headers();
  for (const [k, v] of over.h ?? []) headers.append(k, v);
  return {
    method: "GET",
    path: "/p?a=1&b=two&a=3&flag",
    authority: "example.com",
    scheme: "http",
    headers,
    remote: { hostname: "127.0.0.1", port: 40000 },
    local: { hostname: "127.0.0.1", port: 10000 },
    ...over,
  };
}

function parse(v: Json): { ps: ReturnType<typeof parseHashPolicies>; errors: Errors } {
  const errors: Errors = [];
  return { ps: parseHashPolicies(v, "r.route.hash_policy", errors), errors };
}

const none = () => {};

Deno.test("route hash_policy: header, query_parameter and source_ip hash the value with xxHash64", () => {
  const { ps, errors } = parse([{ header: { header_name: "X-User" } }]);
  assert.deepEqual(errors, []);
  assert.equal(requestHash(ps, input({ h: [["x-user", "alice"]] }), none), xxHash64("alice"));
  assert.equal(requestHash(ps, input(), none), undefined);
  const q = parse([{ query_parameter: { name: "a" } }]).ps;
  assert.equal(requestHash(q, input(), none), xxHash64("1"));
  assert.equal(queryParameter("/p?a=1&flag", "flag"), "");
  assert.equal(queryParameter("/p?a=%20", "a"), "%20");
  assert.equal(queryParameter("/p", "a"), undefined);
  const ip = parse([{ connection_properties: { source_ip: true } }]).ps;
  assert.equal(requestHash(ip, input(), none), xxHash64("127.0.0.1"));
  assert.deepEqual(parse([{ connection_properties: { source_ip: false } }]).ps, []);
  const auth = parse([{ header: { header_name: ":authority" } }]).ps;
  assert.equal(requestHash(auth, input(), none), xxHash64("example.com"));
});

Deno.test("route hash_policy: policies combine as rotl1(previous) xor next; terminal stops once a hash exists", () => {
  const both = parse([
    { header: { header_name: "x-a" } },
    { header: { header_name: "x-b" } },
  ]).ps;
  const r = input({ h: [["x-a", "1"], ["x-b", "2"]] });
  assert.equal(requestHash(both, r, none), rotl1(xxHash64("1")) ^ xxHash64("2"));
  // The same policy twice does not cancel out.
  const twice = parse([{ header: { header_name: "x-a" } }, { header: { header_name: "x-a" } }]).ps;
  assert.notEqual(requestHash(twice, r, none), 0n);
  const term = parse([
    { header: { header_name: "x-missing" }, terminal: true },
    { header: { header_name: "x-a" }, terminal: true },
    { header: { header_name: "x-b" } },
  ]).ps;
  assert.equal(requestHash(term, r, none), xxHash64("1"));
});

Deno.test("route hash_policy: cookie hashes its value; with a ttl a missing cookie is generated and set as Envoy sets it", () => {
  const { ps } = parse([{ cookie: { name: "sid", ttl: "60s", path: "/app" } }]);
  const set: string[] = [];
  assert.equal(
    requestHash(ps, input({ h: [["cookie", 'a=b; sid="abc"']] }), (c) => set.push(c)),
    xxHash64("abc"),
  );
  assert.equal(set.length, 0);
  const r = input();
  const h = requestHash(ps, r, (c) => set.push(c));
  const value = xxHash64("127.0.0.1:40000127.0.0.1:10000").toString(16).padStart(16, "0");
  assert.deepEqual(set, [`sid="${value}"; Max-Age=60; Path=/app; HttpOnly`]);
  assert.equal(h, xxHash64(value));
  // The next request carrying the cookie hashes the same.
  assert.equal(requestHash(ps, input({ h: [["cookie", `sid="${value}"`]] }), none), h);
  // ttl 0: a session cookie (no Max-Age); no ttl: no cookie and no hash.
  const zero = parse([{ cookie: { name: "s", ttl: "0s" } }]).ps[0];
  assert.ok(zero.kind === "cookie");
  assert.equal(generatedCookie(zero, r).header, `s="${value}"; HttpOnly`);
  const noTtl = parse([{ cookie: { name: "s" } }]).ps;
  assert.equal(requestHash(noTtl, r, () => assert.fail("no cookie")), undefined);
  assert.equal(cookieValue(new Headers([["cookie", "x=1;y=2"]]), "y"), "2");
});

Deno.test("route hash_policy: bad or unsupported entries are refused with their field path", () => {
  const { errors } = parse([
    { filter_state: { key: "" } },
    { header: {} },
    { header: { header_name: "x" }, cookie: { name: "c" } },
    { cookie: { name: "c", ttl: "soon" } },
    { header: { header_name: "x", regex_rewrite: {} } },
    {},
  ]);
  assert.deepEqual(errors.map((e) => e.path), [
    "r.route.hash_policy[0].filter_state.key",
    "r.route.hash_policy[1].header.header_name",
    "r.route.hash_policy[2]",
    "r.route.hash_policy[3].cookie.ttl",
    "r.route.hash_policy[4].header.regex_rewrite",
    "r.route.hash_policy[5]",
  ]);
  assert.equal(errors[0].message, "must be a non-empty string");
  assert.deepEqual(parse("x").errors.map((e) => e.message), ["hash_policy must be a list"]);
});

Deno.test("route hash_policy: filter_state hashes the hashable object stored under its key, else gives no hash", () => {
  const { ps } = parse([{ filter_state: { key: "user" } }]);
  assert.deepEqual(ps, [{ kind: "filter_state", key: "user", terminal: false }]);
  const filterState = new FilterState();
  const r = input();
  assert.equal(requestHash(ps, { ...r, filterState }, none), undefined);
  filterState.set("user", { value: "alice", hashable: false, readOnly: false });
  assert.equal(requestHash(ps, { ...r, filterState }, none), undefined, "envoy.string has no hash");
  filterState.set("user", { value: "alice", hashable: true, readOnly: false });
  assert.equal(requestHash(ps, { ...r, filterState }, none), xxHash64("alice"));
  assert.equal(requestHash(ps, r, none), undefined, "no filter state at all");
});
