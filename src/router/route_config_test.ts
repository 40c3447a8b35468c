import assert from "node:assert/strict";
import fc from "fast-check";
import type { ConfigError } from "../config/errors.ts";
import type { MatchInput } from "../http/downstream_request.ts";
import { parseRouteConfig, selectRoute, selectVirtualHost } from "./route_config.ts";
import type { JsonObject } from "../config/bootstrap_types.ts";

function input(
  path: string,
  authority = "a.test",
  headers: Record<string, string> = {},
): MatchInput {
  return { path, method: "GET", authority, scheme: "http", headers: new Headers(headers) };
}

function compile(rc: JsonObject) {
  const errors: ConfigError[] = [];
  const c = parseRouteConfig(rc, "rc", errors, null);
  assert.deepEqual(errors, []);
  return c!;
}

const direct = (body: string) => ({
  direct_response: { status: 200, body: { inline_string: body } },
});

Deno.test("route virtual hosts: exact, *.suffix, prefix.*, * and port stripping", () => {
  const rc = compile({
    virtual_hosts: [
      {
        name: "exact",
        domains: ["api.example.com"],
        routes: [{ match: { prefix: "/" }, ...direct("e") }],
      },
      {
        name: "suffix",
        domains: ["*.example.com"],
        routes: [{ match: { prefix: "/" }, ...direct("s") }],
      },
      {
        name: "longer",
        domains: ["*.b.example.com"],
        routes: [{ match: { prefix: "/" }, ...direct("l") }],
      },
      { name: "prefix", domains: ["api.*"], routes: [{ match: { prefix: "/" }, ...direct("p") }] },
      { name: "any", domains: ["*"], routes: [{ match: { prefix: "/" }, ...direct("*") }] },
    ],
  });
  const name = (a: string) => selectVirtualHost(rc, a)?.name;
  assert.equal(name("api.example.com"), "exact");
  assert.equal(name("API.Example.com:8080"), "exact");
  assert.equal(name("x.example.com"), "suffix");
  assert.equal(name("c.b.example.com"), "longer");
  assert.equal(name("api.other.org"), "prefix");
  assert.equal(name("other.org"), "any");
  assert.equal(name("example.com"), "any");
});

Deno.test("route match kinds: prefix, path (query ignored), safe_regex (full match), case_sensitive", () => {
  const rc = compile({
    virtual_hosts: [{
      name: "v",
      domains: ["*"],
      routes: [
        { match: { path: "/exact" }, ...direct("path") },
        { match: { safe_regex: { google_re2: {}, regex: "/v[0-9]+/items" } }, ...direct("regex") },
        { match: { prefix: "/CI", case_sensitive: false }, ...direct("ci") },
        { match: { prefix: "/api" }, ...direct("prefix") },
      ],
    }],
  });
  const kind = (p: string) => {
    const r = selectRoute(rc, input(p));
    return r?.action.kind === "direct" ? r.action.body : null;
  };
  assert.equal(kind("/exact?x=1"), "path");
  assert.equal(kind("/exact/more"), null);
  assert.equal(kind("/v12/items"), "regex");
  assert.equal(kind("/v12/items/x"), null);
  assert.equal(kind("/ci/thing"), "ci");
  assert.equal(kind("/api/x"), "prefix");
  assert.equal(kind("/API/x"), null);
});

Deno.test("route header matchers: exact, present, regex, prefix, suffix, invert", () => {
  const rc = compile({
    virtual_hosts: [{
      name: "v",
      domains: ["*"],
      routes: [
        {
          match: { prefix: "/", headers: [{ name: "x-e", exact_match: "1" }] },
          ...direct("exact"),
        },
        {
          match: { prefix: "/", headers: [{ name: "x-p", present_match: true }] },
          ...direct("present"),
        },
        {
          match: { prefix: "/", headers: [{ name: "x-r", safe_regex_match: { regex: "a+b" } }] },
          ...direct("regex"),
        },
        {
          match: { prefix: "/", headers: [{ name: "x-pre", prefix_match: "ab" }] },
          ...direct("prefix"),
        },
        {
          match: { prefix: "/", headers: [{ name: "x-suf", string_match: { suffix: "yz" } }] },
          ...direct("suffix"),
        },
        {
          match: {
            prefix: "/",
            headers: [{ name: ":method", exact_match: "GET", invert_match: true }],
          },
          ...direct("not-get"),
        },
        { match: { prefix: "/" }, ...direct("default") },
      ],
    }],
  });
  const pick = (h: Record<string, string>, method = "GET") => {
    const r = selectRoute(rc, { ...input("/", "a", h), method });
    return r?.action.kind === "direct" ? r.action.body : null;
  };
  assert.equal(pick({ "x-e": "1" }), "exact");
  assert.equal(pick({ "x-e": "2" }), "default");
  assert.equal(pick({ "x-p": "" }), "present");
  assert.equal(pick({ "x-r": "aaab" }), "regex");
  assert.equal(pick({ "x-r": "aaabc" }), "default");
  assert.equal(pick({ "x-pre": "abc" }), "prefix");
  assert.equal(pick({ "x-suf": "xyz" }), "suffix");
  assert.equal(pick({}, "POST"), "not-get");
  assert.equal(pick({}), "default");
});

Deno.test("route config errors name their path: unknown cluster, bad regex, look-around, duplicate domain", () => {
  const errors: ConfigError[] = [];
  parseRouteConfig(
    {
      virtual_hosts: [
        {
          name: "a",
          domains: ["x"],
          routes: [
            { match: { prefix: "/" }, route: { cluster: "nope" } },
            { match: { safe_regex: { regex: "(" } }, route: { cluster: "c" } },
            { match: { safe_regex: { regex: "a(?=b)" } }, route: { cluster: "c" } },
            {
              match: { prefix: "/", headers: [{ name: "h", safe_regex_match: { regex: "[" } }] },
              route: { cluster: "c" },
            },
          ],
        },
        { name: "b", domains: ["x"], routes: [] },
      ],
    },
    "rc",
    errors,
    new Set(["c"]),
  );
  const paths = errors.map((e) => e.path);
  assert.deepEqual(paths, [
    "rc.virtual_hosts[0].routes[0].route.cluster",
    "rc.virtual_hosts[0].routes[1].match.safe_regex.regex",
    "rc.virtual_hosts[0].routes[2].match.safe_regex.regex",
    "rc.virtual_hosts[0].routes[3].match.headers[0].safe_regex_match.regex",
    "rc.virtual_hosts[1].domains",
  ]);
  assert.match(errors[0].message, /unknown cluster "nope"/);
});

Deno.test("route prefix routes match exactly the paths that start with the prefix (property)", () => {
  fc.assert(
    fc.property(
      fc.stringMatching(/^\/[a-z]{0,6}$/),
      fc.stringMatching(/^\/[a-z\/]{0,10}$/),
      (prefix, path) => {
        const rc = compile({
          virtual_hosts: [{
            name: "v",
            domains: ["*"],
            routes: [{ match: { prefix }, ...direct("x") }],
          }],
        });
        assert.equal(selectRoute(rc, input(path)) !== null, path.startsWith(prefix));
      },
    ),
  );
});
