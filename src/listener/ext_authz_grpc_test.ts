import assert from "node:assert/strict";
import http2 from "node:http2";
import { Buffer } from "node:buffer";
import type { JsonObject } from "../config/bootstrap_types.ts";
import { grpcFrame, grpcUnframe } from "../filters/ext_authz_grpc.ts";
import { decodeCheckRequest, encodeCheckResponse } from "../filters/ext_authz_messages.ts";
import { testCluster } from "../upstream/test_cluster.ts";
import { httpListener, startTestProxy } from "./test_proxy.ts";
import { parseHcm } from "./http_connection_manager.ts";
import type { Errors } from "../config/config_values.ts";

/** A gRPC Authorization server: `decide` maps each CheckRequest (JSON) to a CheckResponse. */
async function authzServer(decide: (req: JsonObject) => JsonObject | "hang" | "unavailable") {
  const seen: JsonObject[] = [];
  const paths: string[] = [];
  const authorities: string[] = [];
  const server = http2.createServer();
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on("session", (s: http2.ServerHttp2Session) => {
    sessions.add(s);
    s.on("close", () => sessions.delete(s));
  });
  server.on("stream", (stream: http2.ServerHttp2Stream, headers) => {
    paths.push(String(headers[":path"]));
    authorities.push(String(headers[":authority"]));
    const chunks: Buffer[] = [];
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.on("end", () => {
      const msg = grpcUnframe(new Uint8Array(Buffer.concat(chunks)));
      const req = msg ? decodeCheckRequest(msg) : {};
      seen.push(req);
      const answer = decide(req);
      if (answer === "hang") return;
      if (answer === "unavailable") {
        stream.respond({ ":status": 200, "content-type": "application/grpc", "grpc-status": "14" });
        stream.end();
        return;
      }
      stream.respond({ ":status": 200, "content-type": "application/grpc" }, {
        waitForTrailers: true,
      });
      stream.on("wantTrailers", () => stream.sendTrailers({ "grpc-status": "0" }));
      stream.end(Buffer.from(grpcFrame(encodeCheckResponse(answer))));
    });
    stream.on("error", () => {});
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    seen,
    paths,
    authorities,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        for (const s of sessions) s.destroy();
      }),
  };
}

function origin() {
  const seen: Headers[] = [];
  const s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    seen.push(new Headers(req.headers));
    return new Response("from origin");
  });
  return { port: s.addr.port, seen, close: () => s.shutdown() };
}

const filter = (extra: JsonObject = {}) => ({
  name: "envoy.filters.http.ext_authz",
  typed_config: {
    "@type": "type.googleapis.com/envoy.extensions.filters.http.ext_authz.v3.ExtAuthz",
    grpc_service: {
      envoy_grpc: { cluster_name: "authz", authority: "authz.example" },
      timeout: "0.5s",
    },
    transport_api_version: "V3",
    ...extra,
  },
});

const decide = (r: JsonObject): JsonObject | "hang" | "unavailable" => {
  const http = (r.attributes as JsonObject).request as JsonObject;
  const h = (http.http as JsonObject).headers as Record<string, string>;
  if (h["x-user"] === "alice") {
    return {
      status: { code: 0 },
      ok_response: {
        headers: [
          { header: { key: "x-auth-user", value: "alice" } },
          { header: { key: "x-tag", value: "b" }, append: true },
        ],
        headers_to_remove: ["x-secret"],
      },
    };
  }
  if (h["x-user"] === "slow") return "hang";
  if (h["x-user"] === "down") return "unavailable";
  return {
    status: { code: 7 },
    denied_response: {
      status: { code: 401 },
      headers: [{ header: { key: "www-authenticate", value: "Bearer" } }],
      body: "who are you",
    },
  };
};

async function withProxy(
  extra: JsonObject,
  fn: (
    url: (p: string) => string,
    a: Awaited<ReturnType<typeof authzServer>>,
    o: ReturnType<typeof origin>,
    counter: (n: string) => number,
  ) => Promise<void>,
) {
  const a = await authzServer(decide);
  const o = origin();
  const routes: JsonObject[] = [
    {
      match: { prefix: "/ext" },
      route: { cluster: "web" },
      typed_per_filter_config: {
        "envoy.filters.http.ext_authz": {
          "@type":
            "type.googleapis.com/envoy.extensions.filters.http.ext_authz.v3.ExtAuthzPerRoute",
          check_settings: { context_extensions: { tier: "gold" } },
        },
      },
    },
    { match: { prefix: "/" }, route: { cluster: "web" } },
  ];
  const p = await startTestProxy(
    [httpListener({ virtual_hosts: [{ name: "vh", domains: ["*"], routes }] }, {}, [
      filter(extra),
      { name: "envoy.filters.http.router" },
    ])],
    [
      testCluster("web", [["127.0.0.1", o.port]]),
      testCluster("authz", [["127.0.0.1", a.port]], { http2: true }),
    ],
  );
  try {
    await fn(
      (path) => `http://127.0.0.1:${p.port()}${path}`,
      a,
      o,
      (n) => p.store.counter(n).value(),
    );
  } finally {
    await p.close();
    await o.close();
    await a.close();
  }
}

Deno.test("ext_authz filter (gRPC service): Check over HTTP/2 with attributes; OK headers reach the upstream, a denial reaches the client", async () => {
  await withProxy({}, async (url, a, o, counter) => {
    const ok = await fetch(url("/ext/a?q=1"), {
      headers: { "x-user": "alice", "x-secret": "s", "x-tag": "a" },
    });
    assert.equal(ok.status, 200);
    assert.equal(await ok.text(), "from origin");
    assert.equal(a.paths[0], "/envoy.service.auth.v3.Authorization/Check");
    assert.equal(a.authorities[0], "authz.example");
    const attrs = a.seen[0].attributes as JsonObject;
    const http = (attrs.request as JsonObject).http as JsonObject;
    assert.equal(http.method, "GET");
    assert.equal(http.path, "/ext/a?q=1");
    assert.equal(http.host, `127.0.0.1:${new URL(url("/")).port}`);
    assert.equal((http.headers as JsonObject)["x-user"], "alice");
    assert.deepEqual(attrs.context_extensions, { tier: "gold" });
    const src = (attrs.source as JsonObject).address as JsonObject;
    assert.equal((src.socket_address as JsonObject).address, "127.0.0.1");
    const dst = ((attrs.destination as JsonObject).address as JsonObject)
      .socket_address as JsonObject;
    assert.equal(dst.port_value, Number(new URL(url("/")).port));
    const up = o.seen[0];
    assert.equal(up.get("x-auth-user"), "alice");
    assert.equal(up.get("x-secret"), null);
    assert.equal(up.get("x-tag"), "a, b");

    const no = await fetch(url("/other"), { headers: { "x-user": "bob" } });
    assert.equal(no.status, 401);
    assert.equal(no.headers.get("www-authenticate"), "Bearer");
    assert.equal(await no.text(), "who are you");
    assert.equal(
      a.seen[1].attributes && (a.seen[1].attributes as JsonObject).context_extensions,
      undefined,
    );
    assert.equal(o.seen.length, 1);
    assert.equal(counter("http.test.ext_authz.ok"), 1);
    assert.equal(counter("http.test.ext_authz.denied"), 1);
    assert.equal(counter("http.test.ext_authz.error"), 0);
  });
});

Deno.test("ext_authz filter (gRPC service): a gRPC error status and a timeout answer 403, or go on with failure_mode_allow", async () => {
  await withProxy({}, async (url, _a, o, counter) => {
    const down = await fetch(url("/"), { headers: { "x-user": "down" } });
    assert.equal(down.status, 403);
    await down.body?.cancel();
    const slow = await fetch(url("/"), { headers: { "x-user": "slow" } });
    assert.equal(slow.status, 403);
    await slow.body?.cancel();
    assert.equal(o.seen.length, 0);
    assert.equal(counter("http.test.ext_authz.error"), 2);
    assert.equal(counter("http.test.ext_authz.failure_mode_allowed"), 0);
  });
  await withProxy({ failure_mode_allow: true }, async (url, _a, o, counter) => {
    const down = await fetch(url("/"), { headers: { "x-user": "down" } });
    assert.equal(down.status, 200);
    await down.body?.cancel();
    const slow = await fetch(url("/"), { headers: { "x-user": "slow" } });
    assert.equal(slow.status, 200);
    await slow.body?.cancel();
    assert.equal(o.seen.length, 2);
    assert.equal(counter("http.test.ext_authz.error"), 2);
    assert.equal(counter("http.test.ext_authz.failure_mode_allowed"), 2);
  });
});

Deno.test("ext_authz filter (gRPC service): configuration errors name their path", () => {
  const hcm = (f: JsonObject): Errors => {
    const errors: Errors = [];
    parseHcm(
      {
        stat_prefix: "s",
        route_config: {
          virtual_hosts: [{
            name: "v",
            domains: ["*"],
            routes: [{ match: { prefix: "/" }, route: { cluster: "web" } }],
          }],
        },
        http_filters: [{ name: "envoy.filters.http.ext_authz", typed_config: f }, {
          name: "envoy.filters.http.router",
        }],
      },
      "hcm",
      errors,
      new Set(["web", "authz"]),
    );
    return errors;
  };
  const at = "hcm.http_filters[0].typed_config";
  assert.deepEqual(
    hcm({ grpc_service: { envoy_grpc: { cluster_name: "nope" } } })[0].path,
    `${at}.grpc_service.envoy_grpc.cluster_name`,
  );
  assert.deepEqual(hcm({ grpc_service: { google_grpc: { target_uri: "x" } } }).map((e) => e.path), [
    `${at}.grpc_service.google_grpc`,
    `${at}.grpc_service.envoy_grpc`,
  ]);
  assert.equal(
    hcm({ grpc_service: { envoy_grpc: { cluster_name: "authz" }, timeout: "x" } })[0].path,
    `${at}.grpc_service.timeout`,
  );
  assert.deepEqual(hcm({ grpc_service: { envoy_grpc: { cluster_name: "authz" } } }), []);
  assert.equal(
    hcm({ grpc_service: { envoy_grpc: { cluster_name: "authz", authority: "a\nb" } } })[0].path,
    `${at}.grpc_service.envoy_grpc.authority`,
  );
  assert.equal(
    hcm({
      grpc_service: { envoy_grpc: { cluster_name: "authz" } },
      transport_api_version: "V2",
    })[0].path,
    `${at}.transport_api_version`,
  );
});

Deno.test("ext_authz filter: a route's check_settings.context_extensions with an http_service filter (which would not send them) is refused with its path", () => {
  const errors: Errors = [];
  parseHcm(
    {
      stat_prefix: "s",
      route_config: {
        virtual_hosts: [{
          name: "v",
          domains: ["*"],
          routes: [{
            match: { prefix: "/" },
            route: { cluster: "web" },
            typed_per_filter_config: {
              "envoy.filters.http.ext_authz": {
                "@type":
                  "type.googleapis.com/envoy.extensions.filters.http.ext_authz.v3.ExtAuthzPerRoute",
                check_settings: { context_extensions: { tier: "gold" } },
              },
            },
          }],
        }],
      },
      http_filters: [{
        name: "envoy.filters.http.ext_authz",
        typed_config: {
          "@type": "type.googleapis.com/envoy.extensions.filters.http.ext_authz.v3.ExtAuthz",
          http_service: { server_uri: { uri: "http://authz", cluster: "authz", timeout: "1s" } },
        },
      }, { name: "envoy.filters.http.router" }],
    },
    "hcm",
    errors,
    new Set(["web", "authz"]),
  );
  assert.deepEqual(errors.map((e) => e.path), [
    "hcm.route_config.virtual_hosts[0].routes[0].typed_per_filter_config." +
    "envoy.filters.http.ext_authz.check_settings.context_extensions",
  ]);
});
