import assert from "node:assert/strict";
import type { JsonObject } from "../config/bootstrap_types.ts";
import { parseRedirect, redirectLocation } from "../router/redirect.ts";
import type { MatchedPrefix } from "../router/path_rewrite.ts";
import { testCluster } from "../upstream/test_cluster.ts";
import { httpListener, startTestProxy } from "./test_proxy.ts";

function loc(
  d: JsonObject,
  path: string,
  authority = "example.com",
  proto = "http",
  matched: MatchedPrefix = null,
): string {
  const errors: { path: string; message: string; rule: string }[] = [];
  const r = parseRedirect(d, "r", errors);
  assert.deepEqual(errors, []);
  return redirectLocation(r!, {
    path,
    authority,
    scheme: proto,
    headers: new Headers({ "x-forwarded-proto": proto }),
  }, matched);
}

Deno.test("route redirect location: scheme, host, port, path, prefix and regex rewrites, strip_query, as Envoy builds it", () => {
  assert.equal(
    loc({ https_redirect: true }, "/a?b=1", "example.com:80"),
    "https://example.com/a?b=1",
  );
  assert.equal(
    loc({ https_redirect: true }, "/a", "example.com:8080"),
    "https://example.com:8080/a",
  );
  assert.equal(
    loc({ scheme_redirect: "http" }, "/a", "example.com:443", "https"),
    "http://example.com/a",
  );
  assert.equal(
    loc({ host_redirect: "other.test" }, "/a", "example.com:8080"),
    "http://other.test/a",
  );
  assert.equal(loc({ port_redirect: 8443 }, "/a", "example.com:8080"), "http://example.com:8443/a");
  assert.equal(loc({ port_redirect: 8443 }, "/a", "[::1]:80"), "http://[::1]:8443/a");
  assert.equal(loc({ path_redirect: "/new" }, "/old?q=1"), "http://example.com/new?q=1");
  assert.equal(loc({ path_redirect: "/new?x=2" }, "/old?q=1"), "http://example.com/new?x=2");
  assert.equal(
    loc({ path_redirect: "/new?x=2", strip_query: true }, "/old?q=1"),
    "http://example.com/new?x=2",
  );
  assert.equal(loc({ strip_query: true }, "/old?q=1"), "http://example.com/old");
  assert.equal(
    loc({ prefix_rewrite: "/v2/" }, "/v1/users?a", "example.com", "http", {
      kind: "prefix",
      length: 4,
    }),
    "http://example.com/v2/users?a",
  );
  assert.equal(
    loc(
      { regex_rewrite: { pattern: { regex: "^/(\\w+)/(\\w+)$" }, substitution: "/\\2/\\1" } },
      "/a/b?c",
    ),
    "http://example.com/b/a?c",
  );
});

Deno.test("route redirect errors name their path: response code, one path kind, one scheme kind, unknown fields", () => {
  const errors: { path: string; message: string; rule: string }[] = [];
  parseRedirect({ response_code: "GONE" }, "a", errors);
  parseRedirect({ path_redirect: "/x", prefix_rewrite: "/y" }, "b", errors);
  parseRedirect({ https_redirect: true, scheme_redirect: "https" }, "c", errors);
  parseRedirect({ port_redirect: 70000, bogus: 1 }, "d", errors);
  assert.deepEqual(errors.map((e) => e.path), [
    "a.response_code",
    "b",
    "c",
    "d.bogus",
    "d.port_redirect",
  ]);
});

Deno.test("route redirect and rewrites through a listener: 302 with location, regex_rewrite, host_rewrite_header, host_rewrite_path_regex, auto_host_rewrite", async () => {
  const o = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (r) =>
      new Response(
        JSON.stringify({
          path: new URL(r.url).pathname + new URL(r.url).search,
          host: r.headers.get("host"),
        }),
      ),
  );
  const rc: JsonObject = {
    virtual_hosts: [{
      name: "v",
      domains: ["*"],
      routes: [
        {
          match: { prefix: "/go/" },
          redirect: { prefix_rewrite: "/went/", response_code: "FOUND", https_redirect: true },
        },
        {
          match: { prefix: "/re/" },
          route: {
            cluster: "c",
            regex_rewrite: { pattern: { regex: "^/re/(\\d+)/x$" }, substitution: "/num/\\1" },
          },
        },
        { match: { prefix: "/hh" }, route: { cluster: "c", host_rewrite_header: "x-host" } },
        { match: { prefix: "/auto" }, route: { cluster: "c", auto_host_rewrite: true } },
        {
          match: { prefix: "/hp/" },
          route: {
            cluster: "c",
            host_rewrite_path_regex: {
              pattern: { regex: "^/hp/([^/]+)/.*$" },
              substitution: "\\1.internal",
            },
          },
        },
      ],
    }],
  };
  const c = testCluster("c", [["127.0.0.1", o.addr.port]]);
  c.hosts[0].hostname = "named.test";
  const p = await startTestProxy([httpListener(rc)], [c]);
  try {
    const base = `http://127.0.0.1:${p.port()}`;
    const r = await fetch(`${base}/go/a?b`, { redirect: "manual" });
    await r.body?.cancel();
    assert.equal(r.status, 302);
    assert.equal(r.headers.get("location"), `https://127.0.0.1:${p.port()}/went/a?b`);
    assert.deepEqual((await (await fetch(`${base}/re/42/x?q`)).json()).path, "/num/42?q");
    assert.deepEqual(
      (await (await fetch(`${base}/hh`, { headers: { "x-host": "from.header" } })).json()).host,
      "from.header",
    );
    assert.deepEqual((await (await fetch(`${base}/hh`)).json()).host, `127.0.0.1:${p.port()}`);
    assert.deepEqual((await (await fetch(`${base}/hp/svc/y`)).json()).host, "svc.internal");
    assert.deepEqual((await (await fetch(`${base}/auto`)).json()).host, "named.test");
  } finally {
    await p.close();
    await o.shutdown();
  }
});
