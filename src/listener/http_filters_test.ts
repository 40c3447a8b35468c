import assert from "node:assert/strict";
import { gunzipSync } from "node:zlib";
import type { JsonObject } from "../config/bootstrap_types.ts";
import { testCluster } from "../upstream/test_cluster.ts";
import { httpListener, startTestProxy, type TestProxy } from "./test_proxy.ts";
import { parseHcm } from "./http_connection_manager.ts";
import type { Errors } from "../config/config_values.ts";

const ROUTER = { name: "envoy.filters.http.router" };

interface Seen {
  path: string;
  headers: Headers;
}

interface Origin {
  port: number;
  seen: Seen[];
  bodies: string[];
  close(): Promise<void>;
}

function startOrigin(handler?: (req: Request) => Response | Promise<Response>): Origin {
  const seen: Seen[] = [];
  const bodies: string[] = [];
  const s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const u = new URL(req.url);
    seen.push({ path: u.pathname + u.search, headers: new Headers(req.headers) });
    bodies.push(await req.text());
    if (handler) return handler(req);
    return new Response("x".repeat(200), { headers: { "content-type": "text/plain" } });
  });
  return { port: s.addr.port, seen, bodies, close: () => s.shutdown() };
}

async function withFilters(
  filters: JsonObject[],
  routes: JsonObject[],
  fn: (p: TestProxy, origin: Origin, authz: Origin) => Promise<void>,
  vhost: JsonObject = {},
  authzHandler?: (req: Request) => Response | Promise<Response>,
) {
  const origin = startOrigin();
  const authz = startOrigin(authzHandler ?? (() => new Response(null, { status: 200 })));
  const p = await startTestProxy(
    [httpListener({ virtual_hosts: [{ name: "vh", domains: ["*"], routes, ...vhost }] }, {}, [
      ...filters,
      ROUTER,
    ])],
    [
      testCluster("web", [["127.0.0.1", origin.port]]),
      testCluster("authz", [["127.0.0.1", authz.port]]),
    ],
  );
  try {
    await fn(p, origin, authz);
  } finally {
    await p.close();
    await origin.close();
    await authz.close();
  }
}

const url = (p: TestProxy, path: string) => `http://127.0.0.1:${p.port()}${path}`;
const counter = (p: TestProxy, name: string) => p.store.counter(name).value();

Deno.test("cors filter: preflight answered from the route policy, simple requests get allow-origin, others untouched", async () => {
  const cors = {
    allow_origin_string_match: [{ exact: "https://ok.example" }],
    allow_methods: "GET, POST",
    allow_headers: "x-a",
    expose_headers: "x-b",
    max_age: "600",
    allow_credentials: true,
  };
  const routes: JsonObject[] = [
    { match: { prefix: "/open" }, route: { cluster: "web" }, typed_per_filter_config: {} },
    { match: { prefix: "/" }, route: { cluster: "web", cors } },
  ];
  await withFilters([{ name: "envoy.filters.http.cors" }], routes, async (p, origin) => {
    const pre = await fetch(url(p, "/a"), {
      method: "OPTIONS",
      headers: { origin: "https://ok.example", "access-control-request-method": "POST" },
    });
    await pre.body?.cancel();
    assert.equal(pre.status, 200);
    assert.equal(pre.headers.get("access-control-allow-origin"), "https://ok.example");
    assert.equal(pre.headers.get("access-control-allow-methods"), "GET, POST");
    assert.equal(pre.headers.get("access-control-allow-headers"), "x-a");
    assert.equal(pre.headers.get("access-control-max-age"), "600");
    assert.equal(pre.headers.get("access-control-allow-credentials"), "true");
    assert.equal(origin.seen.length, 0);
    const simple = await fetch(url(p, "/a"), { headers: { origin: "https://ok.example" } });
    await simple.body?.cancel();
    assert.equal(simple.headers.get("access-control-allow-origin"), "https://ok.example");
    assert.equal(simple.headers.get("access-control-expose-headers"), "x-b");
    const bad = await fetch(url(p, "/a"), { headers: { origin: "https://evil.example" } });
    await bad.body?.cancel();
    assert.equal(bad.headers.get("access-control-allow-origin"), null);
    const open = await fetch(url(p, "/open"), { headers: { origin: "https://ok.example" } });
    await open.body?.cancel();
    assert.equal(open.headers.get("access-control-allow-origin"), null);
    assert.equal(counter(p, "http.test.cors.origin_valid"), 2);
    assert.equal(counter(p, "http.test.cors.origin_invalid"), 1);
  });
});

Deno.test("cors filter: the virtual host policy applies, a route's typed_per_filter_config overrides it", async () => {
  const routes: JsonObject[] = [
    {
      match: { prefix: "/strict" },
      route: { cluster: "web" },
      typed_per_filter_config: {
        "envoy.filters.http.cors": {
          "@type": "type.googleapis.com/envoy.config.route.v3.CorsPolicy",
          allow_origin_string_match: [{ prefix: "https://only" }],
        },
      },
    },
    { match: { prefix: "/" }, route: { cluster: "web" } },
  ];
  const vhost = { cors: { allow_origin_string_match: [{ safe_regex: { regex: ".*" } }] } };
  await withFilters([{ name: "envoy.filters.http.cors" }], routes, async (p) => {
    const a = await fetch(url(p, "/x"), { headers: { origin: "https://any" } });
    await a.body?.cancel();
    assert.equal(a.headers.get("access-control-allow-origin"), "https://any");
    const b = await fetch(url(p, "/strict"), { headers: { origin: "https://any" } });
    await b.body?.cancel();
    assert.equal(b.headers.get("access-control-allow-origin"), null);
  }, vhost);
});

Deno.test("fault filter: abort at 100%, header-controlled abort and delay, per-route override, stats and flags", async () => {
  const fault = {
    name: "envoy.filters.http.fault",
    typed_config: {
      "@type": "type.googleapis.com/envoy.extensions.filters.http.fault.v3.HTTPFault",
      abort: { header_abort: {}, percentage: { numerator: 100 } },
      delay: { header_delay: {}, percentage: { numerator: 100 } },
    },
  };
  const routes: JsonObject[] = [
    {
      match: { prefix: "/always" },
      route: { cluster: "web" },
      typed_per_filter_config: {
        "envoy.filters.http.fault": {
          "@type": "type.googleapis.com/envoy.extensions.filters.http.fault.v3.HTTPFault",
          abort: { http_status: 503, percentage: { numerator: 100 } },
        },
      },
    },
    { match: { prefix: "/" }, route: { cluster: "web" } },
  ];
  await withFilters([fault], routes, async (p, origin) => {
    const a = await fetch(url(p, "/always"));
    assert.equal(a.status, 503);
    assert.equal(await a.text(), "fault filter abort");
    const plain = await fetch(url(p, "/x"));
    assert.equal(plain.status, 200);
    await plain.body?.cancel();
    const h = await fetch(url(p, "/x"), { headers: { "x-envoy-fault-abort-request": "429" } });
    assert.equal(h.status, 429);
    await h.body?.cancel();
    const none = await fetch(url(p, "/x"), {
      headers: {
        "x-proxy-fault-abort-request": "500",
        "x-proxy-fault-abort-request-percentage": "0",
      },
    });
    assert.equal(none.status, 200);
    await none.body?.cancel();
    const d = await fetch(url(p, "/x"), { headers: { "x-proxy-fault-delay-request": "30" } });
    assert.equal(d.status, 200);
    await d.body?.cancel();
    assert.equal(origin.seen.length, 3);
    assert.equal(counter(p, "http.test.fault.aborts_injected"), 2);
    assert.equal(counter(p, "http.test.fault.delays_injected"), 1);
    assert.equal(p.store.gauge("http.test.fault.active_faults").value(), 0);
  });
});

Deno.test("per-route FilterConfig: disabled skips the filter on that route; config wraps the per-route configuration", async () => {
  const fault = {
    name: "envoy.filters.http.fault",
    typed_config: { abort: { http_status: 500, percentage: { numerator: 100 } } },
  };
  const FC = "type.googleapis.com/envoy.config.route.v3.FilterConfig";
  const routes: JsonObject[] = [
    {
      match: { prefix: "/off" },
      route: { cluster: "web" },
      typed_per_filter_config: { "envoy.filters.http.fault": { "@type": FC, disabled: true } },
    },
    {
      match: { prefix: "/teapot" },
      route: { cluster: "web" },
      typed_per_filter_config: {
        "envoy.filters.http.fault": {
          "@type": FC,
          config: { abort: { http_status: 418, percentage: { numerator: 100 } } },
        },
        "envoy.filters.http.lua": { "@type": FC, is_optional: true, config: {} },
      },
    },
    { match: { prefix: "/" }, route: { cluster: "web" } },
  ];
  await withFilters([fault], routes, async (p) => {
    const codes: number[] = [];
    for (const path of ["/off", "/teapot", "/x"]) {
      const r = await fetch(url(p, path));
      await r.body?.cancel();
      codes.push(r.status);
    }
    assert.deepEqual(codes, [200, 418, 500]);
  });
});

Deno.test("local_ratelimit filter: a bucket of 2 refuses the third request with 429, headers and stats", async () => {
  const rl = {
    name: "envoy.filters.http.local_ratelimit",
    typed_config: {
      "@type":
        "type.googleapis.com/envoy.extensions.filters.http.local_ratelimit.v3.LocalRateLimit",
      stat_prefix: "http_local_rate_limiter",
      token_bucket: { max_tokens: 2, tokens_per_fill: 1, fill_interval: "3600s" },
      filter_enabled: {
        runtime_key: "e",
        default_value: { numerator: 100, denominator: "HUNDRED" },
      },
      filter_enforced: {
        runtime_key: "f",
        default_value: { numerator: 100, denominator: "HUNDRED" },
      },
      response_headers_to_add: [{
        append_action: "OVERWRITE_IF_EXISTS_OR_ADD",
        header: { key: "x-local-rate-limit", value: "true" },
      }],
      enable_x_ratelimit_headers: "DRAFT_VERSION_03",
    },
  };
  const routes: JsonObject[] = [
    {
      match: { prefix: "/free" },
      route: { cluster: "web" },
      typed_per_filter_config: {
        "envoy.filters.http.local_ratelimit": {
          "@type":
            "type.googleapis.com/envoy.extensions.filters.http.local_ratelimit.v3.LocalRateLimit",
          stat_prefix: "free",
        },
      },
    },
    { match: { prefix: "/" }, route: { cluster: "web" } },
  ];
  await withFilters([rl], routes, async (p) => {
    const codes: number[] = [];
    let last: Response | null = null;
    for (let i = 0; i < 3; i++) {
      last = await fetch(url(p, "/x"));
      codes.push(last.status);
      if (i < 2) await last.body?.cancel();
    }
    assert.deepEqual(codes, [200, 200, 429]);
    assert.equal(await last!.text(), "local_rate_limited");
    assert.equal(last!.headers.get("x-local-rate-limit"), "true");
    assert.equal(last!.headers.get("x-ratelimit-limit"), "2");
    assert.equal(last!.headers.get("x-ratelimit-remaining"), "0");
    const free = await fetch(url(p, "/free"));
    assert.equal(free.status, 200);
    await free.body?.cancel();
    const s = "http_local_rate_limiter.http_local_rate_limit";
    assert.equal(counter(p, `${s}.enabled`), 3);
    assert.equal(counter(p, `${s}.ok`), 2);
    assert.equal(counter(p, `${s}.rate_limited`), 1);
    assert.equal(counter(p, `${s}.enforced`), 1);
  });
});

Deno.test("buffer filter: a body over max_request_bytes is answered 413; a smaller one arrives whole with its length", async () => {
  const buffer = {
    name: "envoy.filters.http.buffer",
    typed_config: {
      "@type": "type.googleapis.com/envoy.extensions.filters.http.buffer.v3.Buffer",
      max_request_bytes: 16,
    },
  };
  const routes: JsonObject[] = [
    {
      match: { prefix: "/big" },
      route: { cluster: "web" },
      typed_per_filter_config: { "envoy.filters.http.buffer": { disabled: true } },
    },
    { match: { prefix: "/" }, route: { cluster: "web" } },
  ];
  await withFilters([buffer], routes, async (p, origin) => {
    const big = await fetch(url(p, "/x"), { method: "POST", body: "y".repeat(17) });
    assert.equal(big.status, 413);
    assert.equal(await big.text(), "Payload Too Large");
    const chunked = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode("0123456789"));
        c.enqueue(new TextEncoder().encode("0123456789"));
        c.close();
      },
    });
    const big2 = await fetch(url(p, "/x"), { method: "POST", body: chunked });
    assert.equal(big2.status, 413);
    await big2.body?.cancel();
    const ok = await fetch(url(p, "/x"), { method: "POST", body: "0123456789" });
    assert.equal(ok.status, 200);
    await ok.body?.cancel();
    assert.equal(origin.seen.at(-1)!.headers.get("content-length"), "10");
    const through = await fetch(url(p, "/big"), { method: "POST", body: "y".repeat(100) });
    assert.equal(through.status, 200);
    await through.body?.cancel();
    assert.deepEqual(origin.bodies, ["0123456789", "y".repeat(100)]);
  });
});

Deno.test("compressor filter: gzip when accepted and compressible; not for small, unaccepted or encoded bodies", async () => {
  const compressor = {
    name: "envoy.filters.http.compressor",
    typed_config: {
      "@type": "type.googleapis.com/envoy.extensions.filters.http.compressor.v3.Compressor",
      response_direction_config: {
        common_config: { min_content_length: 100, content_type: ["text/plain"] },
      },
      compressor_library: {
        name: "text_optimized",
        typed_config: {
          "@type": "type.googleapis.com/envoy.extensions.compression.gzip.compressor.v3.Gzip",
          memory_level: 3,
          window_bits: 10,
          compression_level: "BEST_COMPRESSION",
        },
      },
    },
  };
  const routes: JsonObject[] = [
    {
      match: { prefix: "/small" },
      direct_response: { status: 200, body: { inline_string: "tiny" } },
    },
    { match: { prefix: "/" }, route: { cluster: "web" } },
  ];
  await withFilters([compressor], routes, async (p) => {
    const res = await fetch(url(p, "/x"), { headers: { "accept-encoding": "gzip" } });
    assert.equal(res.headers.get("content-encoding"), "gzip");
    assert.equal(res.headers.get("vary"), "Accept-Encoding");
    assert.equal(res.headers.get("content-length"), null);
    const raw = new Uint8Array(await res.arrayBuffer());
    // fetch may already have decoded it; either way the text is the origin's.
    const text = raw[0] === 0x1f && raw[1] === 0x8b
      ? new TextDecoder().decode(gunzipSync(raw))
      : new TextDecoder().decode(raw);
    assert.equal(text, "x".repeat(200));
    const plain = await fetch(url(p, "/x"), { headers: { "accept-encoding": "identity" } });
    assert.equal(plain.headers.get("content-encoding"), null);
    assert.equal(await plain.text(), "x".repeat(200));
    const small = await fetch(url(p, "/small"), { headers: { "accept-encoding": "gzip" } });
    assert.equal(small.headers.get("content-encoding"), null);
    assert.equal(await small.text(), "tiny");
    const s = "http.test.compressor.text_optimized.gzip.response";
    assert.equal(counter(p, `${s}.compressed`), 1);
    assert.equal(counter(p, `${s}.not_compressed`), 2);
    assert.equal(counter(p, `${s}.content_length_too_small`), 1);
    assert.ok(
      counter(p, `${s}.total_compressed_bytes`) < counter(p, `${s}.total_uncompressed_bytes`),
    );
  });
});

Deno.test("ext_authz filter (HTTP service): 200 lets the request on with allowed headers, 403 is passed to the client, errors answer 403", async () => {
  const authz = {
    name: "envoy.filters.http.ext_authz",
    typed_config: {
      "@type": "type.googleapis.com/envoy.extensions.filters.http.ext_authz.v3.ExtAuthz",
      http_service: {
        server_uri: { uri: "http://authz", cluster: "authz", timeout: "1s" },
        path_prefix: "/check",
        authorization_request: { allowed_headers: { patterns: [{ exact: "x-user" }] } },
        authorization_response: {
          allowed_upstream_headers: { patterns: [{ exact: "x-auth-user" }] },
        },
      },
    },
  };
  const routes: JsonObject[] = [
    {
      match: { prefix: "/public" },
      route: { cluster: "web" },
      typed_per_filter_config: { "envoy.filters.http.ext_authz": { disabled: true } },
    },
    { match: { prefix: "/" }, route: { cluster: "web" } },
  ];
  const decide = (req: Request) => {
    const u = req.headers.get("x-user");
    if (u === "alice") {
      return new Response(null, { status: 200, headers: { "x-auth-user": "alice" } });
    }
    if (u === "boom") return new Response("oops", { status: 500 });
    return new Response("denied", { status: 403, headers: { "x-why": "no" } });
  };
  await withFilters(
    [authz],
    routes,
    async (p, origin, service) => {
      const ok = await fetch(url(p, "/a?q=1"), { headers: { "x-user": "alice", "x-other": "1" } });
      assert.equal(ok.status, 200);
      await ok.body?.cancel();
      const check = service.seen[0];
      assert.equal(check.path, "/check/a?q=1");
      assert.equal(check.headers.get("x-user"), "alice");
      assert.equal(check.headers.get("x-other"), null);
      assert.equal(origin.seen[0].headers.get("x-auth-user"), "alice");
      const no = await fetch(url(p, "/a"), { headers: { "x-user": "bob" } });
      assert.equal(no.status, 403);
      assert.equal(no.headers.get("x-why"), "no");
      assert.equal(await no.text(), "denied");
      const err = await fetch(url(p, "/a"), { headers: { "x-user": "boom" } });
      assert.equal(err.status, 403);
      await err.body?.cancel();
      const pub = await fetch(url(p, "/public"));
      assert.equal(pub.status, 200);
      await pub.body?.cancel();
      assert.equal(origin.seen.length, 2);
      assert.equal(service.seen.length, 3);
      assert.equal(counter(p, "http.test.ext_authz.ok"), 1);
      assert.equal(counter(p, "http.test.ext_authz.denied"), 1);
      assert.equal(counter(p, "http.test.ext_authz.error"), 1);
    },
    {},
    decide,
  );
});

Deno.test("http_filters: unknown filters are refused with the supported list; is_optional ones are skipped with a warning", () => {
  const hcm = (filters: JsonObject[], routeExtra: JsonObject = {}): [Errors, string[]] => {
    const errors: Errors = [];
    const c = parseHcm(
      {
        stat_prefix: "s",
        route_config: {
          virtual_hosts: [{
            name: "v",
            domains: ["*"],
            routes: [{ match: { prefix: "/" }, route: { cluster: "web" }, ...routeExtra }],
          }],
        },
        http_filters: [...filters, ROUTER],
      },
      "hcm",
      errors,
      new Set(["web"]),
    );
    return [errors, c?.warnings ?? []];
  };
  const [e1] = hcm([{ name: "envoy.filters.http.lua" }]);
  assert.equal(e1[0].path, "hcm.http_filters[0].name");
  assert.match(e1[0].message, /envoy\.filters\.http\.cors.*envoy\.filters\.http\.ext_authz/);
  assert.match(e1[0].message, /LuaJIT/);
  const [e2, w2] = hcm([{ name: "envoy.filters.http.lua", is_optional: true }]);
  assert.deepEqual(e2, []);
  assert.match(w2[0], /optional HTTP filter envoy\.filters\.http\.lua .* skipped/);
  const [e3] = hcm([{
    name: "envoy.filters.http.fault",
    typed_config: { abort: { http_status: 99 }, bogus: 1 },
  }]);
  assert.deepEqual(e3.map((e) => e.path), [
    "hcm.http_filters[0].typed_config.bogus",
    "hcm.http_filters[0].typed_config.abort.http_status",
  ]);
  const [e4] = hcm([], { typed_per_filter_config: { "envoy.filters.http.lua": {} } });
  assert.equal(
    e4[0].path,
    "hcm.route_config.virtual_hosts[0].routes[0].typed_per_filter_config.envoy.filters.http.lua",
  );
  const [e5] = hcm([{
    name: "envoy.filters.http.ext_authz",
    typed_config: { http_service: { server_uri: { uri: "x", cluster: "nope", timeout: "1s" } } },
  }]);
  assert.equal(e5[0].path, "hcm.http_filters[0].typed_config.http_service.server_uri.cluster");
  const [e6] = hcm([{
    name: "envoy.filters.http.compressor",
    typed_config: {
      compressor_library: {
        name: "b",
        typed_config: {
          "@type": "type.googleapis.com/envoy.extensions.compression.brotli.compressor.v3.Brotli",
        },
      },
    },
  }]);
  assert.equal(e6[0].path, "hcm.http_filters[0].typed_config.compressor_library.typed_config");
});
