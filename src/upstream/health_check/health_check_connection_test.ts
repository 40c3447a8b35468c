import assert from "node:assert/strict";
import { Store } from "../../stats/store.ts";
import { HealthChecker } from "./health_checker.ts";
import { healthCheckConfig } from "./health_check_config.ts";
import { testCluster } from "../test_cluster.ts";
import { Host } from "../host.ts";
import type { EffectiveCluster } from "../../config/effective_cluster.ts";

async function waitFor(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (cond()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`never happened: ${what}`);
}

function host(port: number): Host {
  return new Host({
    address: "127.0.0.1",
    port,
    hostname: "",
    weight: 1,
    priority: 0,
    region: "",
    zone: "",
    sub_zone: "",
    metadata: {},
  });
}

function checker(json: Record<string, unknown>, e: EffectiveCluster, random = () => 0) {
  const store = new Store();
  const hc = new HealthChecker(
    { name: "c", effective: e, hadTraffic: () => true, healthChanged() {} },
    healthCheckConfig({
      timeout: "2s",
      interval: "0.02s",
      unhealthy_threshold: 1,
      healthy_threshold: 1,
      ...json,
    } as never),
    store.scope("cluster").scope("c"),
    { random },
  );
  return { hc, attempts: () => store.counter("cluster.c.health_check.attempt").value() };
}

/** A TCP server answering "pong" to each "ping"; counts connections. */
function pongServer() {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns: Deno.Conn[] = [];
  const done = (async () => {
    for await (const c of l) {
      conns.push(c);
      (async () => {
        const buf = new Uint8Array(64);
        try {
          while ((await c.read(buf)) !== null) await c.write(new TextEncoder().encode("pong"));
        } catch { /* closed */ }
      })();
    }
  })();
  return {
    port: l.addr.port,
    connections: () => conns.length,
    async close() {
      l.close();
      for (const c of conns) {
        try {
          c.close();
        } catch { /* closed */ }
      }
      await done.catch(() => {});
    },
  };
}

Deno.test("cluster.objects.core.health-check.initial-jitter: the first check waits a random share of initial_jitter; without it, it starts at once", () => {
  const e = testCluster("c", []);
  const jittered = checker({ initial_jitter: "3600s", tcp_health_check: {} }, e, () => 3_000_000);
  jittered.hc.addHosts([host(1)]);
  assert.equal(jittered.attempts(), 0, "waiting 3_000_000 % 3_600_000 ms");
  jittered.hc.close();
  const at_once = checker({ tcp_health_check: {} }, e, () => 3_000_000);
  at_once.hc.addHosts([host(1)]);
  assert.equal(at_once.attempts(), 1);
  at_once.hc.close();
});

Deno.test("cluster.objects.core.health-check.reuse-connection: TCP checks keep one connection with reuse_connection, and open one per check without it", async () => {
  for (const reuse of [true, false]) {
    const s = pongServer();
    const { hc, attempts } = checker({
      reuse_connection: reuse,
      tcp_health_check: { send: { text: "70696e67" }, receive: [{ text: "706f6e67" }] },
    }, testCluster("c", []));
    const h = host(s.port);
    try {
      hc.addHosts([h]);
      await waitFor(() => attempts() >= 5 && !h.health.failed_active_hc, "five checks");
      if (reuse) assert.equal(s.connections(), 1);
      else assert.ok(s.connections() >= 4, `${s.connections()} connections`);
    } finally {
      hc.close();
      await s.close();
    }
  }
});

const tlsDir = new URL("../../../fixtures/tls/", import.meta.url);

Deno.test("cluster.objects.core.health-check.tls-options: checks over TLS offer tls_options.alpn_protocols", async () => {
  const l = Deno.listenTls({
    hostname: "127.0.0.1",
    port: 0,
    cert: Deno.readTextFileSync(new URL("server.pem", tlsDir)),
    key: Deno.readTextFileSync(new URL("server.key", tlsDir)),
    alpnProtocols: ["check-proto"],
  });
  const negotiated: (string | null)[] = [];
  const accepting = (async () => {
    for await (const c of l) {
      c.handshake().then((i) => negotiated.push(i.alpnProtocol)).catch(() => {})
        .finally(() => c.close());
    }
  })().catch(() => {});
  const e = testCluster("c", [], {
    tls: { sni: "backend.example", trustedCa: [Deno.readTextFileSync(new URL("ca.pem", tlsDir))] },
  });
  const { hc } = checker({
    tls_options: { alpn_protocols: ["check-proto"] },
    tcp_health_check: {},
  }, e);
  try {
    hc.addHosts([host(l.addr.port)]);
    await waitFor(() => negotiated.length > 0, "a TLS check");
    assert.equal(negotiated[0], "check-proto");
  } finally {
    hc.close();
    l.close();
    await accepting;
  }
});
