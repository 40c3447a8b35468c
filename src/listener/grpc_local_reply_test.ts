/**
 * Local replies to gRPC requests over real sockets (HTTP/1.1 and h2c): every reply the proxy
 * makes itself (no route, no cluster, no healthy upstream, upstream timeout, direct response,
 * redirect, fault abort, local_reply_config mappers) goes out as Envoy's trailers-only gRPC
 * response: `:status` 200, `content-type: application/grpc`, `grpc-status`, a percent-encoded
 * `grpc-message` and no body; the access log and the counters see the 200.
 */
import assert from "node:assert/strict";
import http2 from "node:http2";
import { testCluster } from "../upstream/test_cluster.ts";
import { httpListener, startTestProxy, type TestProxy } from "./test_proxy.ts";
import { trackingOrigin } from "./test_origins.ts";
import type { JsonObject } from "../config/bootstrap_types.ts";

const GRPC = { "content-type": "application/grpc", te: "trailers" };

/** Routes for each kind of local reply; any other path has no route. */
const ROUTES: JsonObject = {
  virtual_hosts: [{
    name: "v",
    domains: ["*"],
    routes: [
      {
        match: { path: "/direct" },
        direct_response: { status: 403, body: { inline_string: "no: 100% sure ~ é" } },
      },
      { match: { path: "/nohost" }, route: { cluster: "empty" } },
      { match: { path: "/nocluster" }, route: { cluster_header: "x-cluster" } },
      { match: { path: "/hang" }, route: { cluster: "c", timeout: "0.2s" } },
      { match: { path: "/redir" }, redirect: { path_redirect: "/elsewhere" } },
    ],
  }],
};

async function withProxy(
  hcm: JsonObject,
  fn: (p: TestProxy) => Promise<void>,
  filters?: JsonObject[],
  routes: JsonObject = ROUTES,
) {
  const o = trackingOrigin(() => null);
  const p = await startTestProxy([httpListener(routes, hcm, filters)], [
    testCluster("c", [["127.0.0.1", o.port]]),
    testCluster("empty", []),
  ]);
  try {
    await fn(p);
  } finally {
    await p.close();
    o.close();
  }
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** h2c only: the response header block ended the stream (a trailers-only response). */
  endStream?: boolean;
}

/** A gRPC-shaped POST over HTTP/1.1. */
async function h1(p: TestProxy, path: string, headers: Record<string, string> = GRPC) {
  const r = await fetch(`http://127.0.0.1:${p.port()}${path}`, {
    method: "POST",
    headers,
    body: "\0\0\0\0\0",
    redirect: "manual",
  });
  return { status: r.status, headers: Object.fromEntries(r.headers), body: await r.text() };
}

/** A gRPC-shaped POST over h2c (node:http2). */
async function h2(p: TestProxy, path: string, headers: Record<string, string> = GRPC) {
  const s = http2.connect(`http://127.0.0.1:${p.port()}`);
  s.on("error", () => {});
  try {
    return await new Promise<Answer>((resolve, reject) => {
      const st = s.request({ ":method": "POST", ":path": path, ...headers });
      const a: Answer = { status: 0, headers: {}, body: "" };
      st.on("response", (h, flags) => {
        a.status = Number(h[":status"]);
        for (const [k, v] of Object.entries(h)) if (!k.startsWith(":")) a.headers[k] = String(v);
        a.endStream = (flags & 1) === 1;
      });
      st.on("data", (d: Uint8Array) => a.body += new TextDecoder().decode(d));
      st.on("error", reject);
      st.on("close", () => resolve(a));
      st.end(new Uint8Array(5));
    });
  } finally {
    s.close();
  }
}

/** The gRPC view of an answer: status, grpc-status, grpc-message (or -), body. */
const grpcView = (a: Answer) =>
  [
    a.status,
    a.headers["content-type"],
    a.headers["grpc-status"],
    a.headers["grpc-message"] ?? "-",
    a.body === "" ? "no body" : a.body,
  ].join(" | ");

const EXPECTED: [string, string][] = [
  ["/none", "200 | application/grpc | 12 | - | no body"],
  ["/nocluster", "200 | application/grpc | 14 | - | no body"],
  ["/nohost", "200 | application/grpc | 14 | no healthy upstream | no body"],
  ["/hang", "200 | application/grpc | 14 | upstream request timeout | no body"],
  ["/direct", "200 | application/grpc | 7 | no: 100%25 sure %7E %C3%A9 | no body"],
  ["/redir", "200 | application/grpc | 2 | - | no body"],
];

Deno.test("grpc local replies: over HTTP/1.1 no route, no cluster, no healthy upstream, upstream timeout, direct response and redirect answer 200 with grpc-status and a percent-encoded grpc-message", async () => {
  await withProxy({}, async (p) => {
    for (const [path, want] of EXPECTED) assert.equal(grpcView(await h1(p, path)), want, path);
    const redirect = await h1(p, "/redir");
    assert.equal(redirect.headers["location"], `http://127.0.0.1:${p.port()}/elsewhere`);
    assert.equal(p.store.counter("cluster.c.upstream_rq_timeout").value(), 1);
    assert.equal(p.store.counter("http.test.no_route").value(), 1);
    // Counted as sent: 2xx.
    assert.equal(p.store.counter("http.test.downstream_rq_2xx").value(), EXPECTED.length + 1);
    assert.equal(p.store.counter("http.test.downstream_rq_4xx").value(), 0);
    assert.equal(p.store.counter("http.test.downstream_rq_5xx").value(), 0);
  });
});

Deno.test("grpc local replies: over h2c each is one header block that ends the stream (trailers-only), with the same grpc-status and grpc-message", async () => {
  await withProxy({}, async (p) => {
    for (const [path, want] of EXPECTED) {
      const a = await h2(p, path);
      assert.equal(grpcView(a), want, path);
      assert.equal(a.endStream, true, path);
    }
    const plus = await h2(p, "/direct", { "content-type": "application/grpc+proto" });
    assert.equal(plus.headers["grpc-status"], "7");
  });
});

Deno.test("grpc local replies: a request that is not gRPC (none, application/grpc-web, application/json) gets the HTTP reply", async () => {
  await withProxy({}, async (p) => {
    for (const ct of ["application/grpc-web", "application/json", "text/plain"]) {
      const a = await h1(p, "/direct", { "content-type": ct });
      assert.equal(
        `${a.status} ${a.headers["grpc-status"] ?? "-"} ${a.body}`,
        "403 - no: 100% sure ~ é",
      );
      const b = await h2(p, "/nohost", { "content-type": ct });
      assert.equal(
        `${b.status} ${b.headers["grpc-status"] ?? "-"} ${b.body}`,
        "503 - no healthy upstream",
      );
    }
  });
});

Deno.test("grpc local replies: the access log shows %RESPONSE_CODE% 200 with the reply's details and flags", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/access.log`;
  const hcm = {
    access_log: [{
      name: "envoy.access_loggers.file",
      typed_config: {
        "@type": "type.googleapis.com/envoy.extensions.access_loggers.file.v3.FileAccessLog",
        path,
        log_format: {
          text_format_source: {
            inline_string:
              "%REQ(:PATH)% %RESPONSE_CODE% %RESPONSE_CODE_DETAILS% %RESPONSE_FLAGS%\n",
          },
        },
      },
    }],
  };
  try {
    await withProxy(hcm, async (p) => {
      await h1(p, "/none");
      await h2(p, "/nohost");
      await h1(p, "/direct");
    });
    const lines = (await Deno.readTextFile(path)).trim().split("\n").sort();
    assert.deepEqual(lines, [
      "/direct 200 direct_response -",
      "/nohost 200 no_healthy_upstream UH",
      "/none 200 route_not_found NR",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("HttpConnectionManager.local_reply_config: mappers apply before the gRPC conversion: the mapped status and body give grpc-status and grpc-message, a grpc-status header they add is kept, a JSON body loses its newline", async () => {
  const hcm: JsonObject = {
    local_reply_config: {
      mappers: [
        {
          filter: {
            status_code_filter: {
              comparison: { op: "EQ", value: { default_value: 404, runtime_key: "k" } },
            },
          },
          status_code: 401,
          body: { inline_string: "who are you" },
        },
        {
          filter: {
            status_code_filter: {
              comparison: { op: "EQ", value: { default_value: 403, runtime_key: "k" } },
            },
          },
          headers_to_add: [{ header: { key: "grpc-status", value: "9" }, append: false }],
        },
        {
          filter: { response_flag_filter: { flags: ["UH"] } },
          body_format_override: {
            json_format: { error: "%LOCAL_REPLY_BODY%", code: "%RESPONSE_CODE%" },
          },
        },
      ],
    },
  };
  await withProxy(hcm, async (p) => {
    for (const ask of [h1, h2]) {
      assert.equal(
        grpcView(await ask(p, "/none")),
        "200 | application/grpc | 16 | who are you | no body",
      );
      assert.equal(
        grpcView(await ask(p, "/direct")),
        "200 | application/grpc | 9 | no: 100%25 sure %7E %C3%A9 | no body",
      );
      const uh = await ask(p, "/nohost");
      assert.equal(uh.headers["grpc-status"], "14");
      const msg = uh.headers["grpc-message"];
      assert.doesNotMatch(msg, /%0A$/);
      assert.deepEqual(JSON.parse(decodeURIComponent(msg)), {
        error: "no healthy upstream",
        code: 503,
      });
    }
  });
});

Deno.test("grpc local replies: a fault abort with grpc_status sends that grpc-status to a gRPC request, and HTTP 200 to another", async () => {
  const fault = {
    name: "envoy.filters.http.fault",
    typed_config: {
      "@type": "type.googleapis.com/envoy.extensions.filters.http.fault.v3.HTTPFault",
      abort: { grpc_status: 8, percentage: { numerator: 100 } },
    },
  };
  await withProxy({}, async (p) => {
    for (const ask of [h1, h2]) {
      assert.equal(
        grpcView(await ask(p, "/hang")),
        "200 | application/grpc | 8 | fault filter abort | no body",
      );
      const plain = await ask(p, "/hang", { "content-type": "text/plain" });
      assert.equal(
        `${plain.status} ${plain.headers["grpc-status"] ?? "-"} ${plain.body}`,
        "200 - fault filter abort",
      );
    }
    assert.equal(p.store.counter("http.test.fault.aborts_injected").value(), 4);
  }, [fault, { name: "envoy.filters.http.router" }]);
});

Deno.test("grpc local replies: the stream duration limit answers DEADLINE_EXCEEDED (4) to a gRPC request", async () => {
  const hcm = { common_http_protocol_options: { max_stream_duration: "0.2s" } };
  const routes = {
    virtual_hosts: [{
      name: "v",
      domains: ["*"],
      routes: [{ match: { prefix: "/" }, route: { cluster: "c", timeout: "0s" } }],
    }],
  };
  await withProxy(
    hcm,
    async (p) => {
      for (const ask of [h1, h2]) {
        assert.equal(
          grpcView(await ask(p, "/")),
          "200 | application/grpc | 4 | downstream duration timeout | no body",
        );
      }
      assert.equal(p.store.counter("http.test.downstream_rq_max_duration_reached").value(), 2);
    },
    undefined,
    routes,
  );
});

Deno.test("grpc local replies: the stream idle timeout (request complete: 504) answers UNAVAILABLE with its body as grpc-message, over HTTP/1.1 and h2c", async () => {
  const routes = {
    virtual_hosts: [{
      name: "v",
      domains: ["*"],
      routes: [{ match: { prefix: "/" }, route: { cluster: "c", timeout: "0s" } }],
    }],
  };
  await withProxy(
    { stream_idle_timeout: "0.2s" },
    async (p) => {
      for (const ask of [h1, h2]) {
        assert.equal(
          grpcView(await ask(p, "/")),
          "200 | application/grpc | 14 | stream timeout | no body",
        );
      }
      const plain = await h1(p, "/", { "content-type": "text/plain" });
      assert.equal(`${plain.status} ${plain.body}`, "504 stream timeout");
    },
    undefined,
    routes,
  );
});

Deno.test("grpc local replies: an ext_authz denial is a local reply: a gRPC request gets the service's status as grpc-status (403: PERMISSION_DENIED), its body as grpc-message and its headers", async () => {
  const service = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("not you", { status: 403, headers: { "x-why": "no" } }),
  );
  const authz = {
    name: "envoy.filters.http.ext_authz",
    typed_config: {
      "@type": "type.googleapis.com/envoy.extensions.filters.http.ext_authz.v3.ExtAuthz",
      http_service: { server_uri: { uri: "http://authz", cluster: "authz", timeout: "1s" } },
    },
  };
  const p = await startTestProxy(
    [httpListener(ROUTES, {}, [authz, { name: "envoy.filters.http.router" }])],
    [
      testCluster("authz", [["127.0.0.1", service.addr.port]]),
      testCluster("empty", []),
      testCluster("c", [["127.0.0.1", 9]]),
    ],
  );
  try {
    for (const ask of [h1, h2]) {
      const a = await ask(p, "/nohost");
      assert.equal(grpcView(a), "200 | application/grpc | 7 | not you | no body");
      assert.equal(a.headers["x-why"], "no");
    }
    const plain = await h1(p, "/nohost", { "content-type": "text/plain" });
    assert.equal(`${plain.status} ${plain.body}`, "403 not you");
    assert.equal(p.store.counter("http.test.ext_authz.denied").value(), 3);
  } finally {
    await p.close();
    await service.shutdown();
  }
});

Deno.test("grpc local replies: a local rate limit refusal is UNAVAILABLE (429), or RESOURCE_EXHAUSTED with rate_limited_as_resource_exhausted", async () => {
  const limit = (exhausted: boolean) => ({
    name: "envoy.filters.http.local_ratelimit",
    typed_config: {
      "@type":
        "type.googleapis.com/envoy.extensions.filters.http.local_ratelimit.v3.LocalRateLimit",
      stat_prefix: "rl",
      token_bucket: { max_tokens: 1, tokens_per_fill: 1, fill_interval: "3600s" },
      filter_enabled: { default_value: { numerator: 100 } },
      filter_enforced: { default_value: { numerator: 100 } },
      rate_limited_as_resource_exhausted: exhausted,
    },
  });
  for (const [exhausted, status] of [[false, "14"], [true, "8"]] as const) {
    await withProxy({}, async (p) => {
      await h1(p, "/direct");
      for (const ask of [h1, h2]) {
        assert.equal(
          grpcView(await ask(p, "/direct")),
          `200 | application/grpc | ${status} | local_rate_limited | no body`,
        );
      }
      const plain = await h1(p, "/direct", { "content-type": "text/plain" });
      assert.equal(`${plain.status} ${plain.body}`, "429 local_rate_limited");
    }, [limit(exhausted), { name: "envoy.filters.http.router" }]);
  }
});

Deno.test("grpc local replies: the health check filter's answers are local replies: a gRPC health check gets grpc-status 2 (200) or 14 (503, failing)", async () => {
  const hc = {
    name: "envoy.filters.http.health_check",
    typed_config: {
      "@type": "type.googleapis.com/envoy.extensions.filters.http.health_check.v3.HealthCheck",
      pass_through_mode: false,
      headers: [{ name: ":path", string_match: { exact: "/healthz" } }],
    },
  };
  await withProxy({}, async (p) => {
    assert.equal(grpcView(await h2(p, "/healthz")), "200 | application/grpc | 2 | - | no body");
    assert.equal((await h1(p, "/healthz", { "content-type": "text/plain" })).status, 200);
    p.state.failed = true;
    const failing = await h1(p, "/healthz");
    assert.equal(grpcView(failing), "200 | application/grpc | 14 | - | no body");
    assert.equal(failing.headers["x-proxy-immediate-health-check-fail"], "true");
  }, [hc, { name: "envoy.filters.http.router" }]);
});

Deno.test("grpc local replies: path normalization's redirect and refusal are local replies too (UNKNOWN for 307, INTERNAL for 400)", async () => {
  await withProxy({ path_with_escaped_slashes_action: "UNESCAPE_AND_REDIRECT" }, async (p) => {
    const a = await h2(p, "/a%2Fb");
    assert.equal(grpcView(a), "200 | application/grpc | 2 | - | no body");
    assert.equal(a.headers["location"], "/a/b");
  });
  await withProxy({ path_with_escaped_slashes_action: "REJECT_REQUEST" }, async (p) => {
    assert.equal(grpcView(await h1(p, "/a%2Fb")), "200 | application/grpc | 13 | - | no body");
  });
});
