/**
 * `internal_redirect_policy` over real sockets: a redirect the policy covers is followed by the
 * proxy (route selection again, body kept or dropped for 303, `x-proxy-original-url` set), up to
 * `max_internal_redirects`; a cross-scheme one or one over the limit goes downstream.
 */
import assert from "node:assert/strict";
import { testCluster } from "../upstream/test_cluster.ts";
import { httpListener, startTestProxy } from "./test_proxy.ts";
import type { JsonObject } from "../config/bootstrap_types.ts";
import { parseRouteConfig } from "../router/route_config.ts";
import type { Errors } from "../config/config_values.ts";

const REDIRECTS: Record<string, [number, string]> = {
  "/redir": [302, "http://final.example/final?q=1"],
  "/loop": [307, "http://a.example/loop"],
  "/cross": [302, "https://a.example/final"],
  "/post303": [303, "http://a.example/final"],
  "/post307": [307, "http://a.example/final"],
  "/relative": [302, "/final"],
};

function origin() {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (r) => {
    const u = new URL(r.url);
    const body = await r.text();
    const redirect = REDIRECTS[u.pathname];
    if (redirect) {
      return new Response("moved", { status: redirect[0], headers: { location: redirect[1] } });
    }
    const orig = r.headers.get("x-proxy-original-url");
    return new Response(
      `${r.method} ${r.headers.get("host")}${u.pathname}${u.search} ${orig} [${body}]`,
    );
  });
}

const policy = (p: JsonObject) => ({ cluster: "c", internal_redirect_policy: p });

const routes: JsonObject = {
  virtual_hosts: [{
    name: "v",
    domains: ["*"],
    routes: [
      { match: { prefix: "/redir" }, route: policy({}) },
      {
        match: { prefix: "/loop" },
        route: policy({ max_internal_redirects: 2, redirect_response_codes: [302, 307] }),
      },
      { match: { prefix: "/cross" }, route: policy({}) },
      { match: { prefix: "/relative" }, route: policy({}) },
      { match: { prefix: "/post303" }, route: policy({ redirect_response_codes: [303] }) },
      { match: { prefix: "/post307" }, route: policy({ redirect_response_codes: [307] }) },
      { match: { prefix: "/" }, route: { cluster: "c" } },
    ],
  }],
};

Deno.test("route internal_redirect_policy: followed by the proxy as Envoy does, up to the limit, same scheme only", async () => {
  const o = origin();
  const p = await startTestProxy([httpListener(routes)], [
    testCluster("c", [["127.0.0.1", o.addr.port]]),
  ]);
  const base = `http://127.0.0.1:${p.port()}`;
  const get = async (path: string, init?: RequestInit) => {
    const r = await fetch(base + path, { redirect: "manual", ...init });
    return `${r.status} ${await r.text()}`;
  };
  const stat = (n: string) =>
    p.store.counter(`cluster.c.upstream_internal_redirect_${n}_total`).value();
  try {
    assert.equal(
      await get("/redir"),
      `200 GET final.example/final?q=1 http://127.0.0.1:${p.port()}/redir []`,
    );
    assert.equal(stat("succeeded"), 1);
    // Two redirects are followed, the third answer goes downstream.
    assert.equal(await get("/loop"), "307 moved");
    assert.equal(stat("succeeded"), 3);
    assert.equal(stat("failed"), 1);
    assert.equal(await get("/cross"), "302 moved");
    assert.equal(await get("/relative"), "302 moved");
    assert.equal(stat("failed"), 3);
    assert.match(
      await get("/post303", { method: "POST", body: "data" }),
      /^200 GET a\.example\/final \S+ \[\]$/,
    );
    assert.match(
      await get("/post307", { method: "POST", body: "data" }),
      /^200 POST a\.example\/final \S+\/post307 \[data\]$/,
    );
    assert.equal(stat("succeeded"), 5);
  } finally {
    await p.close();
    await o.shutdown();
  }
});

Deno.test("route internal_redirect_policy: predicates, and response codes that are never followed, are refused with their path", () => {
  const errors: Errors = [];
  parseRouteConfig(
    {
      virtual_hosts: [{
        name: "v",
        domains: ["*"],
        routes: [{
          match: { prefix: "/" },
          route: policy({
            predicates: [{ name: "envoy.internal_redirect_predicates.previous_routes" }],
            max_internal_redirects: -1,
            redirect_response_codes: [302, 305],
          }),
        }],
      }],
    },
    "rc",
    errors,
    new Set(["c"]),
  );
  const at = "rc.virtual_hosts[0].routes[0].route.internal_redirect_policy";
  const by = Object.fromEntries(errors.map((e) => [e.path, e.message]));
  assert.match(by[`${at}.predicates`], /not supported by this build/);
  assert.match(by[`${at}.max_internal_redirects`], /integer from 0/);
  assert.match(by[`${at}.redirect_response_codes[1]`], /305 is never followed/);
  assert.equal(by[`${at}.redirect_response_codes[0]`], undefined);
});
