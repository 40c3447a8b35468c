import assert from "node:assert/strict";
import { Store } from "../../stats/store.ts";
import { ClusterManager } from "../cluster_manager.ts";
import { forwardResponse, testCluster, testRequest } from "../test_cluster.ts";
import type { EffectiveCluster } from "../../config/effective_cluster.ts";
import type { JsonObject } from "../../config/bootstrap_types.ts";
import type { Host } from "../host.ts";

/** Polls `cond` (bounded: fails after many rounds); never asserts on time. */
async function waitFor(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (cond()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`never happened: ${what}`);
}

function serve(port: number, handler: Deno.ServeHandler<Deno.NetAddr>) {
  return Deno.serve({ hostname: "127.0.0.1", port, onListen() {} }, handler);
}

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

function hc(over: JsonObject = {}): JsonObject {
  return {
    timeout: "2s",
    interval: "0.02s",
    no_traffic_interval: "0.02s",
    unhealthy_threshold: 2,
    healthy_threshold: 2,
    reuse_connection: true,
    http_health_check: { path: "/healthz" },
    ...over,
  };
}

async function withCluster(
  c: EffectiveCluster,
  fn: (cm: ClusterManager, store: Store) => Promise<void>,
  runtime?: Map<string, string>,
) {
  const store = new Store();
  const cm = new ClusterManager([c], {
    stats: store,
    runtime: runtime ? { get: (k) => runtime.get(k) } : undefined,
  });
  await cm.start();
  try {
    await fn(cm, store);
  } finally {
    await cm.close();
  }
}

const failed = (h: Host) => h.health.failed_active_hc;

Deno.test("cluster.fields.health-checks: an origin that stops listening becomes /failed_active_hc, traffic moves off it, and it comes back", async () => {
  const [pa, pb] = [freePort(), freePort()];
  const handler = (port: number) => (req: Request) =>
    new Response(new URL(req.url).pathname === "/healthz" ? "ok" : `from ${port}`);
  let a = serve(pa, handler(pa));
  const b = serve(pb, handler(pb));
  const c = testCluster("hc", [["127.0.0.1", pa], ["127.0.0.1", pb]], {
    healthChecks: [hc()],
  });
  await withCluster(c, async (cm, store) => {
    const cl = cm.get("hc")!;
    await cl.initialHealthChecks();
    const [ha, hb] = cl.hosts();
    await waitFor(() => !failed(ha) && !failed(hb), "both hosts healthy");
    assert.equal(store.gauge("cluster.hc.health_check.healthy").value(), 2);
    assert.equal(store.gauge("cluster.hc.membership_healthy").value(), 2);
    await a.shutdown();
    await waitFor(() => failed(ha), "A fails its checks");
    assert.ok(store.counter("cluster.hc.health_check.network_failure").value() >= 2);
    assert.equal(store.gauge("cluster.hc.membership_healthy").value(), 1);
    const before = ha.stats.rq_total.value();
    for (let i = 0; i < 10; i++) {
      const r = await forwardResponse(cl, testRequest());
      assert.equal(r.status, 200);
      assert.equal(await r.text(), `from ${pb}`);
    }
    assert.equal(ha.stats.rq_total.value(), before);
    a = serve(pa, handler(pa));
    await waitFor(() => !failed(ha), "A passes its checks again");
    assert.equal(ha.healthy(), true);
    // Checks do not count as requests in the per-host statistics.
    assert.equal(hb.stats.rq_total.value(), 10);
    assert.ok(store.counter("cluster.hc.health_check.attempt").value() > 4);
    assert.ok(store.counter("cluster.hc.health_check.success").value() > 2);
  });
  await a.shutdown();
  await b.shutdown();
});

Deno.test("cluster.objects.core.health-check.http-health-check: status, expected_statuses, headers to add and remove, host, degraded and immediate-failure headers", async () => {
  const port = freePort();
  let answer: { status: number; headers?: Record<string, string> } = { status: 200 };
  const seen: Headers[] = [];
  const o = serve(port, (req) => {
    seen.push(req.headers);
    return new Response(answer.status === 204 ? null : "x", answer);
  });
  const c = testCluster("h", [["127.0.0.1", port]], {
    healthChecks: [hc({
      unhealthy_threshold: 3,
      healthy_threshold: 1,
      http_health_check: {
        path: "/healthz",
        host: "svc.example",
        expected_statuses: [{ start: 200, end: 205 }],
        retriable_statuses: [{ start: 429, end: 430 }],
        request_headers_to_add: [{ header: { key: "x-check", value: "1" } }],
        request_headers_to_remove: ["user-agent"],
      },
    })],
  });
  await withCluster(c, async (cm, store) => {
    const cl = cm.get("h")!;
    await cl.initialHealthChecks();
    const h = cl.hosts()[0];
    await waitFor(() => !failed(h), "passes its first checks");
    const last = seen[seen.length - 1];
    assert.equal(last.get("host"), "svc.example");
    assert.equal(last.get("x-check"), "1");
    assert.equal(last.get("user-agent"), null);
    answer = { status: 204 };
    await waitFor(() => store.counter("cluster.h.health_check.success").value() > 3, "204 passes");
    assert.equal(failed(h), false);
    answer = { status: 429 }; // retriable: counts towards unhealthy_threshold
    await waitFor(() => failed(h), "three 429s fail the host");
    answer = { status: 200, headers: { "x-envoy-degraded": "" } };
    await waitFor(() => !failed(h) && h.degraded(), "degraded");
    assert.equal(store.gauge("cluster.h.health_check.degraded").value(), 1);
    assert.equal(store.gauge("cluster.h.membership_degraded").value(), 1);
    answer = { status: 503, headers: { "x-proxy-immediate-health-check-fail": "true" } };
    await waitFor(() => failed(h), "a 503 fails the host at once");
    await waitFor(() => h.excluded(), "the immediate-failure header excludes it");
    assert.equal(store.gauge("cluster.h.membership_excluded").value(), 1);
    answer = { status: 200 };
    await waitFor(() => !failed(h) && !h.excluded() && !h.degraded(), "back to healthy");
  });
  await o.shutdown();
});

Deno.test("cluster.objects.core.health-check.tcp-health-check cluster.objects.core.health-check.payload.binary: send and receive hex payloads; binary payloads (base64); garbage answers fail by timeout; connect-only", async () => {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let reply = "PONG";
  const conns: Deno.Conn[] = [];
  (async () => {
    for await (const conn of l) {
      conns.push(conn);
      (async () => {
        const buf = new Uint8Array(64);
        try {
          while (true) {
            const n = await conn.read(buf);
            if (n === null) break;
            if (new TextDecoder().decode(buf.subarray(0, n)).includes("PING")) {
              await conn.write(new TextEncoder().encode(`xx${reply}yy`));
            }
          }
        } catch { /* closed */ }
      })();
    }
  })();
  const port = (l.addr as Deno.NetAddr).port;
  const tcp = {
    timeout: "0.3s",
    http_health_check: undefined,
    tcp_health_check: { send: { text: "50494e47" }, receive: [{ text: "504f" }, { text: "4e47" }] },
  } as unknown as JsonObject;
  const c = testCluster("t", [["127.0.0.1", port]], { healthChecks: [hc(tcp)] });
  await withCluster(c, async (cm, store) => {
    const cl = cm.get("t")!;
    await cl.initialHealthChecks();
    const h = cl.hosts()[0];
    await waitFor(() => !failed(h), "passes its first checks");
    reply = "NOPE";
    await waitFor(() => failed(h), "wrong answers fail the host");
    assert.ok(store.counter("cluster.t.health_check.network_failure").value() >= 2);
    reply = "PONG";
    await waitFor(() => !failed(h), "right answers again");
  });
  const connectOnly = testCluster("co", [["127.0.0.1", port]], {
    healthChecks: [
      hc({ http_health_check: undefined, tcp_health_check: {} } as unknown as JsonObject),
    ],
  });
  await withCluster(connectOnly, async (cm) => {
    await cm.get("co")!.initialHealthChecks();
    await waitFor(() => !failed(cm.get("co")!.hosts()[0]), "connects");
  });
  reply = "PONG";
  const binary = testCluster("bin", [["127.0.0.1", port]], {
    healthChecks: [hc({
      http_health_check: undefined,
      tcp_health_check: { send: { binary: btoa("PING") }, receive: [{ binary: btoa("PONG") }] },
    } as unknown as JsonObject)],
  });
  await withCluster(binary, async (cm) => {
    const h = cm.get("bin")!.hosts()[0];
    await cm.get("bin")!.initialHealthChecks();
    await waitFor(() => !failed(h), "binary payloads pass");
    reply = "NOPE";
    await waitFor(() => failed(h), "a binary receive payload that does not match fails");
  });
  l.close();
  for (const c of conns) {
    try {
      c.close();
    } catch { /* closed */ }
  }
});

Deno.test("cluster.objects.core.health-check.event-log-path cluster.objects.core.health-check.always-log-health-check-failures: JSON lines as Envoy writes them", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/hc.log`;
  const port = freePort();
  let status = 200;
  const o = serve(port, () => new Response("", { status }));
  const c = testCluster("ev", [["127.0.0.1", port]], {
    healthChecks: [hc({ event_log_path: path, unhealthy_threshold: 1, healthy_threshold: 1 })],
  });
  await withCluster(c, async (cm) => {
    const cl = cm.get("ev")!;
    await cl.initialHealthChecks();
    status = 500;
    await waitFor(() => failed(cl.hosts()[0]), "fails");
  });
  await o.shutdown();
  const lines = (await Deno.readTextFile(path)).trim().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(lines[0].add_healthy_event, { first_check: true });
  assert.equal(lines[0].health_checker_type, "HTTP");
  assert.equal(lines[0].cluster_name, "ev");
  assert.deepEqual(lines[0].host.socket_address, {
    protocol: "TCP",
    address: "127.0.0.1",
    resolver_name: "",
    ipv4_compat: false,
    port_value: port,
  });
  assert.ok(!Number.isNaN(Date.parse(lines[0].timestamp)));
  assert.deepEqual(lines[1].eject_unhealthy_event, { failure_type: "ACTIVE" });
  await Deno.remove(dir, { recursive: true });
});

Deno.test("cluster.fields.health-checks: the first round of checks holds the cluster's initialization", async () => {
  const port = freePort();
  let release!: () => void;
  const gate = new Promise<void>((r) => release = r);
  const o = serve(port, async () => {
    await gate;
    return new Response("ok");
  });
  const c = testCluster("init", [["127.0.0.1", port]], {
    healthChecks: [hc({ timeout: "5s" })],
  });
  await withCluster(c, async (cm) => {
    const cl = cm.get("init")!;
    let done = false;
    const first = cl.initialHealthChecks().then(() => done = true);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(done, false);
    assert.equal(cl.hosts()[0].pendingActiveHc, true);
    release();
    await first;
    assert.equal(cl.hosts()[0].pendingActiveHc, false);
    assert.equal(failed(cl.hosts()[0]), false);
  });
  await o.shutdown();
});

Deno.test("cluster.fields.health-checks: a host added later (a discovery update) starts failed and pending until its first check passes, and gets no traffic meanwhile", async () => {
  const [pa, pb] = [freePort(), freePort()];
  let release!: () => void;
  const gate = new Promise<void>((r) => release = r);
  const oa = serve(pa, () => new Response(String(pa)));
  const ob = serve(pb, async (req) => {
    if (new URL(req.url).pathname === "/healthz") await gate;
    return new Response(String(pb));
  });
  // No merge window: the new host's health reaches the balancer with its first check.
  const c = testCluster("late", [["127.0.0.1", pa]], {
    healthChecks: [hc({ timeout: "5s" })],
    updateMergeWindowMs: 0,
  });
  await withCluster(c, async (cm) => {
    const cl = cm.get("late")!;
    await cl.initialHealthChecks();
    assert.deepEqual(cl.updateHosts([...c.hosts, { ...c.hosts[0], port: pb }]), {
      added: 1,
      removed: 0,
    });
    const b = cl.hosts().find((h) => h.port === pb)!;
    assert.equal(b.pendingActiveHc, true);
    assert.equal(failed(b), true);
    for (let i = 0; i < 6; i++) {
      assert.equal(await (await forwardResponse(cl, testRequest())).text(), String(pa));
    }
    release();
    await waitFor(() => !failed(b), "the new host passes its first check");
    assert.equal(b.pendingActiveHc, false);
    const seen = new Set<string>();
    for (let i = 0; i < 8; i++) seen.add(await (await forwardResponse(cl, testRequest())).text());
    assert.ok(seen.has(String(pb)), "the new host gets traffic once healthy");
  });
  await oa.shutdown();
  await ob.shutdown();
});

Deno.test("cluster.objects.common-lb-config.healthy-panic-threshold cluster.fields.health-checks: panic mode routes to all hosts when too few pass; priorities fail over", async () => {
  const handler = (port: number) => (req: Request) =>
    new URL(req.url).pathname === "/healthz"
      ? new Response("down", { status: 500 })
      : new Response(String(port));
  const [p1, p2] = [freePort(), freePort()];
  const [o1, o2] = [serve(p1, handler(p1)), serve(p2, handler(p2))];
  const c = testCluster("p", [["127.0.0.1", p1], ["127.0.0.1", p2]], { healthChecks: [hc()] });
  await withCluster(c, async (cm, store) => {
    const cl = cm.get("p")!;
    await cl.initialHealthChecks();
    assert.ok(cl.hosts().every(failed));
    const ports = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const r = await forwardResponse(cl, testRequest());
      assert.equal(r.status, 200);
      ports.add(await r.text());
    }
    assert.deepEqual([...ports].sort(), [String(p1), String(p2)].sort());
    assert.equal(store.counter("cluster.p.lb_healthy_panic").value(), 6);
  });
  // Priority 0 failing its checks, priority 1 healthy: all traffic to priority 1.
  const p3 = freePort();
  const o3 = serve(p3, () => new Response(String(p3)));
  const base = testCluster("f", [["127.0.0.1", p1], ["127.0.0.1", p3]], { healthChecks: [hc()] });
  base.hosts[1].priority = 1;
  await withCluster(base, async (cm) => {
    const cl = cm.get("f")!;
    await cl.initialHealthChecks();
    for (let i = 0; i < 6; i++) {
      assert.equal(await (await forwardResponse(cl, testRequest())).text(), String(p3));
    }
  });
  // Only priority-1 hosts, no health checking: served.
  const only1 = testCluster("only1", [["127.0.0.1", p3]]);
  only1.hosts[0].priority = 1;
  await withCluster(only1, async (cm) => {
    assert.equal((await forwardResponse(cm.get("only1")!, testRequest())).status, 200);
  });
  await Promise.all([o1.shutdown(), o2.shutdown(), o3.shutdown()]);
});

const tlsDir = new URL("../../../fixtures/tls/", import.meta.url);

Deno.test("cluster.fields.health-checks cluster.fields.upstream-bind-config: checks go over the cluster's TLS, from its source address", async () => {
  const peers: string[] = [];
  const o = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    cert: Deno.readTextFileSync(new URL("server.pem", tlsDir)),
    key: Deno.readTextFileSync(new URL("server.key", tlsDir)),
    onListen() {},
  }, (_req, info) => {
    peers.push(info.remoteAddr.hostname);
    return new Response("ok");
  });
  const c = testCluster("tls", [["127.0.0.1", o.addr.port]], {
    healthChecks: [hc({ timeout: "5s" })],
    tls: {
      sni: "backend.example",
      trustedCa: [Deno.readTextFileSync(new URL("ca.pem", tlsDir))],
    },
    upstreamBind: { address: "127.0.0.2", port: 0 },
  });
  await withCluster(c, async (cm) => {
    const cl = cm.get("tls")!;
    await cl.initialHealthChecks();
    await waitFor(() => !failed(cl.hosts()[0]), "passes its first checks");
    assert.ok(peers.length > 0);
    assert.ok(peers.every((p) => p === "127.0.0.2"));
  });
  await o.shutdown();
});

for (
  const header of ["x-envoy-immediate-health-check-fail", "x-proxy-immediate-health-check-fail"]
) {
  Deno.test(`cluster.fields.health-checks: an answer carrying ${header} fails the host at once (passive failure)`, async () => {
    let fail = false;
    const o = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      (req) =>
        new URL(req.url).pathname === "/healthz" ? new Response("ok") : new Response("bye", {
          headers: fail ? { [header]: "true" } : {},
        }),
    );
    const c = testCluster("pf", [["127.0.0.1", o.addr.port]], {
      healthChecks: [hc({ interval: "10s", no_traffic_interval: "10s", unhealthy_threshold: 5 })],
    });
    await withCluster(c, async (cm, store) => {
      const cl = cm.get("pf")!;
      await cl.initialHealthChecks();
      const h = cl.hosts()[0];
      await waitFor(() => !failed(h), "passes its first checks");
      await (await forwardResponse(cl, testRequest())).text();
      assert.equal(failed(h), false);
      fail = true;
      await (await forwardResponse(cl, testRequest())).text();
      assert.equal(failed(h), true);
      assert.equal(store.counter("cluster.pf.health_check.passive_failure").value(), 1);
    });
    await o.shutdown();
  });
}

Deno.test("cluster.objects.core.health-check.http-health-check.codec-client-type: HTTP2 checks over one reused session", async () => {
  let status = 200;
  const versions = new Set<string>();
  const authorities = new Set<string>();
  const o = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    versions.add(req.headers.get("x-check") ?? "");
    authorities.add(new URL(req.url).host);
    return new Response("", { status });
  });
  const c = testCluster("h2c", [["127.0.0.1", o.addr.port]], {
    healthChecks: [hc({
      unhealthy_threshold: 1,
      http_health_check: {
        path: "/healthz",
        codec_client_type: "HTTP2",
        request_headers_to_add: [{ header: { key: "x-check", value: "h2" } }],
      },
    })],
  });
  await withCluster(c, async (cm) => {
    const cl = cm.get("h2c")!;
    await cl.initialHealthChecks();
    const h = cl.hosts()[0];
    await waitFor(() => !failed(h), "passes its first checks");
    status = 500;
    await waitFor(() => failed(h), "a 500 fails the host");
    status = 200;
    await waitFor(() => !failed(h), "healthy again");
  });
  await o.shutdown();
  assert.deepEqual([...versions], ["h2"]);
  assert.deepEqual([...authorities], ["h2c"]);
});

Deno.test("cluster.objects.core.health-check.grpc-health-check: grpc.health.v1.Health/Check over HTTP/2; SERVING passes, anything else fails at once", async () => {
  const { createServer } = await import("node:http2");
  let serving = 1;
  const seen: { path: string; authority: string; body: number[] }[] = [];
  const server = createServer((req, res) => {
    const body: number[] = [];
    req.on("data", (b: Uint8Array) => body.push(...b));
    req.on("end", () => {
      seen.push({ path: req.url, authority: String(req.headers[":authority"]), body });
      res.writeHead(200, { "content-type": "application/grpc" });
      res.addTrailers({ "grpc-status": "0" });
      res.end(new Uint8Array([0, 0, 0, 0, 2, 8, serving]));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const port = (server.address() as { port: number }).port;
  const c = testCluster("g", [["127.0.0.1", port]], {
    http2: true,
    healthChecks: [hc({
      unhealthy_threshold: 3,
      http_health_check: undefined,
      grpc_health_check: { service_name: "svc", authority: "grpc.example" },
    } as unknown as JsonObject)],
  });
  await withCluster(c, async (cm, store) => {
    const cl = cm.get("g")!;
    await cl.initialHealthChecks();
    const h = cl.hosts()[0];
    await waitFor(() => !failed(h), "passes its first checks");
    const failures = () => store.counter("cluster.g.health_check.failure").value();
    const before = failures();
    let atFlip = -1;
    cl.healthChecker!.onCheckComplete(() => {
      if (failed(h) && atFlip < 0) atFlip = failures() - before;
    });
    serving = 2; // NOT_SERVING: fails at once despite unhealthy_threshold 3
    await waitFor(() => failed(h), "NOT_SERVING fails the host");
    assert.equal(atFlip, 1);
    serving = 1;
    await waitFor(() => !failed(h), "SERVING again");
  });
  await new Promise((r) => server.close(r));
  assert.equal(seen[0].path, "/grpc.health.v1.Health/Check");
  assert.equal(seen[0].authority, "grpc.example");
  // A gRPC frame of HealthCheckRequest { service: "svc" }.
  assert.deepEqual(seen[0].body, [0, 0, 0, 0, 5, 0x0a, 3, 0x73, 0x76, 0x63]);
});

Deno.test("cluster.objects.cluster.outlier-detection.successful-active-health-check-uneject-host: a passing active check returns an ejected host", async () => {
  const o = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) =>
      new URL(req.url).pathname === "/healthz"
        ? new Response("ok")
        : new Response("no", { status: 503 }),
  );
  const od: JsonObject = { consecutive_5xx: 1, base_ejection_time: "3600s", interval: "3600s" };
  const c = testCluster("un", [["127.0.0.1", o.addr.port], ["127.0.0.1", o.addr.port]], {
    healthChecks: [hc()],
    outlierDetection: od,
  });
  await withCluster(c, async (cm) => {
    const cl = cm.get("un")!;
    await cl.initialHealthChecks();
    await waitFor(() => cl.hosts().every((h) => !failed(h)), "both pass their checks");
    await (await forwardResponse(cl, testRequest())).text();
    await waitFor(() => cl.hosts().every((h) => !h.health.failed_outlier_check), "unejected");
    assert.ok(cl.outlier!.counter("ejections_enforced_consecutive_5xx").value() >= 1);
  });
  await o.shutdown();
});
