/**
 * The paths that use a module the proxy loads on first use (`src/platform/lazy_module.ts`: the
 * protobuf runtime, `node:http2`, `node:inspector`), each through a real proxy process with two
 * workers, so every isolate that needs a module must load it itself and the test process (which
 * never loads the proxy's lazy modules) plays the peer. Load reporting is in `xds_lrs_test.ts`,
 * gzip in `src/cli/envoy_examples_test.ts` (compression), `.pb` / `.pb_text` bootstraps in
 * `src/cli/main_test.ts`.
 *
 * @module
 */
import assert from "node:assert/strict";
import http2 from "node:http2";
import { Buffer } from "node:buffer";
import type { JsonObject } from "../src/config/bootstrap_types.ts";
import { grpcFrame, grpcUnframe } from "../src/filters/ext_authz_grpc.ts";
import { decodeCheckRequest, encodeCheckResponse } from "../src/filters/ext_authz_messages.ts";
import {
  listenerPort,
  proxyBootstrap,
  type ProxyProcess,
  requestOnce,
  startProxyProcess,
  statsOf,
} from "../src/server/testing_proxy_process.ts";
import { startXdsServer } from "./xds_server.ts";
import { adsBootstrap, assignment, edsCluster, origin, until, write } from "./xds_testing.ts";

const TWO_WORKERS = ["--concurrency", "2"];
/** Fresh connections, so the kernel spreads them over both workers' sockets. */
const REQUESTS = 12;

/**
 * The listeners of {@linkcode proxyBootstrap} (one HTTP listener routing to `demo`), their routes
 * not validated at start-up (`demo` comes over CDS).
 */
function listeners(): JsonObject[] {
  const ls = (proxyBootstrap(0).static_resources as JsonObject).listeners as JsonObject[];
  const hcm = ((ls[0].filter_chains as JsonObject[])[0].filters as JsonObject[])[0]
    .typed_config as JsonObject;
  (hcm.route_config as JsonObject).validate_clusters = false;
  return ls;
}

/** The statuses of {@linkcode REQUESTS} requests, each on its own connection. */
async function statuses(p: ProxyProcess, headers = ""): Promise<number[]> {
  const port = await listenerPort(p.admin);
  const out: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    if (headers === "") out.push(await requestOnce(port, "/"));
    else out.push(await rawStatus(port, headers));
  }
  return out;
}

/** The status of one `GET /` with `headers` (CRLF-terminated lines), on its own connection. */
async function rawStatus(port: number, headers: string): Promise<number> {
  const c = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    const req = `GET / HTTP/1.1\r\nhost: x\r\n${headers}connection: close\r\n\r\n`;
    await c.write(new TextEncoder().encode(req));
    let text = "";
    const buf = new Uint8Array(4096);
    for (;;) {
      const n = await c.read(buf);
      if (n === null) break;
      text += new TextDecoder().decode(buf.subarray(0, n));
      if (text.includes("\r\n")) break;
    }
    return Number(text.split(" ")[1]);
  } finally {
    c.close();
  }
}

/** A cleartext HTTP/2 server answering every stream with `answer` (headers, body). */
async function h2Server(
  answer: (
    headers: http2.IncomingHttpHeaders,
    body: Uint8Array,
    s: http2.ServerHttp2Stream,
  ) => void,
) {
  const server = http2.createServer();
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on("session", (s: http2.ServerHttp2Session) => {
    sessions.add(s);
    s.on("close", () => sessions.delete(s));
  });
  server.on("stream", (stream: http2.ServerHttp2Stream, headers) => {
    const chunks: Buffer[] = [];
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.on("end", () => answer(headers, new Uint8Array(Buffer.concat(chunks)), stream));
    stream.on("error", () => {});
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    port: (server.address() as { port: number }).port,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        for (const s of sessions) s.destroy();
      }),
  };
}

/** One gRPC answer: the message framed, `grpc-status` 0 in trailers. */
function grpcAnswer(s: http2.ServerHttp2Stream, message: Uint8Array) {
  s.respond({ ":status": 200, "content-type": "application/grpc" }, { waitForTrailers: true });
  s.on("wantTrailers", () => s.sendTrailers({ "grpc-status": "0" }));
  s.end(Buffer.from(grpcFrame(message)));
}

Deno.test("DynamicResources.ads_config: a proxy process with two workers takes its clusters and endpoints over ADS (gRPC) and routes to them", async () => {
  const a = origin("a");
  const dir = await Deno.makeTempDir();
  write(dir, "all.yaml", [edsCluster("demo"), assignment("demo", a.addr.port)]);
  const cp = await startXdsServer({ dir, port: 0, watch: false, log: () => {} });
  const bootstrap = adsBootstrap(cp.port, {
    extra: {
      node: { id: "ads-proc", cluster: "edge" },
      static_resources: { listeners: listeners() },
    },
  });
  const p = await startProxyProcess(bootstrap, TWO_WORKERS);
  try {
    assert.deepEqual(await statuses(p), new Array(REQUESTS).fill(200));
    const stats = await statsOf(p.admin);
    assert.equal(stats.get("cluster_manager.cds.update_success"), 1);
    assert.equal(stats.get("cluster.demo.upstream_rq_200"), REQUESTS);
  } finally {
    await p.stop();
    await cp.close();
    await a.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("core.ConfigSource.api_config_source: a proxy process with two workers polls CDS and EDS over REST and routes to what it got", async () => {
  const a = origin("a");
  const dir = await Deno.makeTempDir();
  const rest = { api_type: "REST", cluster_names: ["xds"], refresh_delay: "0.1s" };
  const restEds = edsCluster("demo", {
    eds_cluster_config: { eds_config: { api_config_source: rest } },
  });
  write(dir, "all.yaml", [restEds, assignment("demo", a.addr.port)]);
  const cp = await startXdsServer({ dir, port: 0, restPort: 0, watch: false, log: () => {} });
  const xds = proxyBootstrap(cp.restPort!);
  const xdsCluster = ((xds.static_resources as JsonObject).clusters as JsonObject[])[0];
  const bootstrap = {
    admin: xds.admin,
    node: { id: "rest-proc", cluster: "edge" },
    dynamic_resources: { cds_config: { api_config_source: rest } },
    static_resources: {
      listeners: listeners(),
      clusters: [{
        ...xdsCluster,
        name: "xds",
        load_assignment: { ...(xdsCluster.load_assignment as JsonObject), cluster_name: "xds" },
      }],
    },
  };
  const p = await startProxyProcess(bootstrap, TWO_WORKERS);
  try {
    assert.deepEqual(await statuses(p), new Array(REQUESTS).fill(200));
    const stats = await statsOf(p.admin);
    assert.ok((stats.get("cluster_manager.cds.update_success") ?? 0) >= 1);
    assert.equal(stats.get("cluster.demo.upstream_rq_200"), REQUESTS);
  } finally {
    await p.stop();
    await cp.close();
    await a.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cluster.fields.http2-protocol-options: a proxy process with two workers forwards to a cleartext HTTP/2 upstream", async () => {
  const up = await h2Server((_h, _b, s) => {
    s.respond({ ":status": 200, "content-type": "text/plain" });
    s.end("over h2");
  });
  const p = await startProxyProcess(
    proxyBootstrap(up.port, { http2_protocol_options: {} }),
    TWO_WORKERS,
  );
  try {
    assert.deepEqual(await statuses(p), new Array(REQUESTS).fill(200));
    const stats = await statsOf(p.admin);
    assert.ok((stats.get("cluster.demo.upstream_cx_http2_total") ?? 0) >= 1);
    assert.equal(stats.get("cluster.demo.upstream_cx_http1_total"), 0);
    assert.equal(stats.get("cluster.demo.upstream_rq_200"), REQUESTS);
  } finally {
    await p.stop();
    await up.close();
  }
});

Deno.test("cluster.objects.core.health-check.http-health-check.codec-client-type, cluster.objects.core.health-check.grpc-health-check: a proxy process checks its hosts over HTTP/2 and gRPC", async () => {
  const checks: string[] = [];
  const up = await h2Server((h, _b, s) => {
    const path = String(h[":path"]);
    checks.push(path);
    if (path === "/grpc.health.v1.Health/Check") {
      return grpcAnswer(s, new Uint8Array([8, 1])); // HealthCheckResponse { status: SERVING }
    }
    s.respond({ ":status": 200 });
    s.end(path === "/healthz" ? "" : "over h2");
  });
  const hc = (check: JsonObject) => ({
    timeout: "1s",
    interval: "0.1s",
    unhealthy_threshold: 1,
    healthy_threshold: 1,
    ...check,
  });
  const base = proxyBootstrap(up.port, {
    http2_protocol_options: {},
    common_lb_config: { healthy_panic_threshold: { value: 0 } },
    health_checks: [hc({ http_health_check: { path: "/healthz", codec_client_type: "HTTP2" } })],
  });
  // A second cluster on the same server, checked over gRPC.
  const sr = base.static_resources as { clusters: JsonObject[] };
  sr.clusters.push({
    ...sr.clusters[0],
    name: "grpc",
    load_assignment: { ...(sr.clusters[0].load_assignment as JsonObject), cluster_name: "grpc" },
    health_checks: [hc({ grpc_health_check: { service_name: "svc" } })],
  });
  const p = await startProxyProcess(base, TWO_WORKERS);
  try {
    // Without traffic a cluster is checked every no_traffic_interval (60 s): its first check.
    const passed = async (cluster: string) =>
      ((await statsOf(p.admin)).get(`cluster.${cluster}.health_check.success`) ?? 0) >= 1;
    await until(() => passed("demo"), "passing HTTP/2 checks");
    await until(() => passed("grpc"), "passing gRPC checks");
    const stats = await statsOf(p.admin);
    for (const c of ["demo", "grpc"]) {
      assert.equal(stats.get(`cluster.${c}.health_check.failure`), 0);
      assert.equal(stats.get(`cluster.${c}.membership_healthy`), 1);
    }
    assert.ok(checks.includes("/healthz"));
    assert.ok(checks.includes("/grpc.health.v1.Health/Check"));
    assert.deepEqual(await statuses(p), new Array(REQUESTS).fill(200));
  } finally {
    await p.stop();
    await up.close();
  }
});

Deno.test("ext_authz filter (gRPC service): a proxy process with two workers asks the Authorization service over gRPC and follows its answer", async () => {
  const a = origin("a");
  const users: string[] = [];
  const authz = await h2Server((_h, body, s) => {
    const msg = grpcUnframe(body);
    const req = msg ? decodeCheckRequest(msg) : {};
    const http = ((req.attributes as JsonObject).request as JsonObject).http as JsonObject;
    const user = (http.headers as Record<string, string>)["x-user"] ?? "";
    users.push(user);
    grpcAnswer(
      s,
      encodeCheckResponse(
        user === "alice"
          ? { status: { code: 0 } }
          : { status: { code: 7 }, denied_response: { status: { code: 401 } } },
      ),
    );
  });
  const base = proxyBootstrap(a.addr.port);
  const sr = base.static_resources as { listeners: JsonObject[]; clusters: JsonObject[] };
  const hcm = ((sr.listeners[0].filter_chains as JsonObject[])[0].filters as JsonObject[])[0]
    .typed_config as JsonObject;
  hcm.http_filters = [{
    name: "envoy.filters.http.ext_authz",
    typed_config: {
      "@type": "type.googleapis.com/envoy.extensions.filters.http.ext_authz.v3.ExtAuthz",
      grpc_service: { envoy_grpc: { cluster_name: "authz" }, timeout: "2s" },
      transport_api_version: "V3",
    },
  }, ...(hcm.http_filters as JsonObject[])];
  sr.clusters.push({
    name: "authz",
    connect_timeout: "1s",
    http2_protocol_options: {},
    load_assignment: {
      cluster_name: "authz",
      endpoints: [{
        lb_endpoints: [{
          endpoint: {
            address: { socket_address: { address: "127.0.0.1", port_value: authz.port } },
          },
        }],
      }],
    },
  });
  const p = await startProxyProcess(base, TWO_WORKERS);
  try {
    assert.deepEqual(await statuses(p, "x-user: alice\r\n"), new Array(REQUESTS).fill(200));
    assert.deepEqual(await statuses(p, "x-user: mallory\r\n"), new Array(REQUESTS).fill(401));
    assert.equal(users.filter((u) => u === "alice").length, REQUESTS);
    assert.equal(users.filter((u) => u === "mallory").length, REQUESTS);
  } finally {
    await p.stop();
    await authz.close();
    await a.shutdown();
  }
});

Deno.test("admin.endpoints.cpuprofiler, admin.endpoints.heapprofiler: a proxy process writes both profiles to admin.profile_path", async () => {
  const dir = await Deno.makeTempDir({ prefix: "proxyspec_prof_" });
  const a = origin("a");
  const base = proxyBootstrap(a.addr.port);
  const bootstrap = {
    ...base,
    admin: { ...(base.admin as JsonObject), profile_path: `${dir}/proxy.prof` },
  };
  const p = await startProxyProcess(bootstrap, TWO_WORKERS);
  const post = async (path: string) => {
    const r = await fetch(`${p.admin}${path}`, { method: "POST" });
    return `${r.status} ${await r.text()}`;
  };
  try {
    assert.equal(await post("/cpuprofiler?enable=y"), "200 OK\n");
    assert.deepEqual(await statuses(p), new Array(REQUESTS).fill(200));
    assert.equal(await post("/cpuprofiler?enable=n"), "200 OK\n");
    const profile = JSON.parse(await Deno.readTextFile(`${dir}/proxy.prof`));
    assert.ok(Array.isArray(profile.nodes) && profile.nodes.length > 0);
    assert.equal(await post("/heapprofiler?enable=y"), "200 Starting heap profiler");
    assert.match(await post("/heapprofiler?enable=n"), /^200 Heap profiler stopped/);
    assert.ok("head" in JSON.parse(await Deno.readTextFile(`${dir}/proxy.prof.heapprofile`)));
  } finally {
    await p.stop();
    await a.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
