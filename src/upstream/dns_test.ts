import assert from "node:assert/strict";
import { Store } from "../stats/store.ts";
import { ConfigLoadError } from "../config/errors.ts";
import type { EffectiveCluster } from "../config/effective_cluster.ts";
import { ClusterManager } from "./cluster_manager.ts";
import { type Resolver, systemResolver } from "./dns.ts";
import { forwardResponse, testCluster, testRequest } from "./test_cluster.ts";
import type { UpstreamRequest } from "./upstream_request.ts";

const req = (): UpstreamRequest => testRequest();

async function withDns(
  c: EffectiveCluster,
  resolver: Resolver | undefined,
  fn: (cm: ClusterManager, n: (s: string) => number) => Promise<void> | void,
  start = true,
) {
  const store = new Store();
  const cm = new ClusterManager([c], { stats: store, dnsResolver: resolver });
  try {
    if (start) await cm.start();
    await fn(cm, (s) => store.counter(`cluster.${c.name}.${s}`).value());
  } finally {
    await cm.close();
  }
}

async function until(cond: () => boolean, what: string) {
  for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(cond(), `timed out waiting for ${what}`);
}

const dnsCluster = (type: "STRICT_DNS" | "LOGICAL_DNS", over: Partial<EffectiveCluster> = {}) =>
  testCluster("d", [["svc.test", 8080]], { type, dnsRefreshRateMs: 20, ...over });

Deno.test("cluster.fields.dns-refresh-rate: STRICT_DNS makes one host per address and follows changes", async () => {
  let answer = ["10.0.0.1", "10.0.0.2"];
  const asked: string[] = [];
  const resolver: Resolver = (name, family) => {
    asked.push(`${name} ${family}`);
    return Promise.resolve(answer);
  };
  await withDns(dnsCluster("STRICT_DNS"), resolver, async (cm, n) => {
    const cl = cm.get("d")!;
    assert.deepEqual(cl.hosts().map((h) => h.key), ["10.0.0.1:8080", "10.0.0.2:8080"]);
    assert.equal(cl.hosts()[0].hostname, "svc.test");
    assert.equal(asked[0], "svc.test AUTO");
    assert.equal(n("membership_change"), 1);
    const kept = cl.hosts()[1];
    answer = ["10.0.0.2", "10.0.0.3"];
    await until(() => cl.hosts().some((h) => h.address === "10.0.0.3"), "a refresh");
    assert.equal(cl.hosts()[0], kept);
    assert.equal(n("membership_change"), 2);
    await until(() => n("update_no_rebuild") > 0, "an unchanged refresh");
  });
});

Deno.test("cluster.fields.dns-refresh-rate: a failed resolution keeps the previous hosts", async () => {
  let fail = false;
  const resolver: Resolver = () =>
    fail ? Promise.reject(new Error("SERVFAIL")) : Promise.resolve(["10.0.0.1"]);
  await withDns(dnsCluster("STRICT_DNS"), resolver, async (cm, n) => {
    fail = true;
    await until(() => n("update_failure") > 0, "a failed refresh");
    assert.deepEqual(cm.get("d")!.hosts().map((h) => h.address), ["10.0.0.1"]);
  });
});

Deno.test("cluster.enums.discovery-type: LOGICAL_DNS keeps one host, the first address", async () => {
  const resolver: Resolver = () => Promise.resolve(["10.0.0.7", "10.0.0.8"]);
  await withDns(dnsCluster("LOGICAL_DNS"), resolver, (cm) => {
    assert.deepEqual(cm.get("d")!.hosts().map((h) => h.key), ["10.0.0.7:8080"]);
  });
});

Deno.test("cluster.enums.discovery-type: a DNS cluster before its first resolution answers 503", async () => {
  let release = () => {};
  const gate = new Promise<void>((r) => release = r);
  const resolver: Resolver = async () => {
    await gate;
    return ["10.0.0.1"];
  };
  await withDns(dnsCluster("STRICT_DNS", { dnsRefreshRateMs: 60_000 }), resolver, async (cm) => {
    const started = cm.start();
    const r = await forwardResponse(cm.get("d")!, req());
    assert.equal(r.status, 503);
    assert.equal(await r.text(), "no healthy upstream");
    release();
    await started;
    assert.equal(cm.get("d")!.hosts().length, 1);
  }, false);
});

Deno.test("cluster.fields.dns-lookup-family: the system resolver finds localhost and traffic flows", async () => {
  assert.ok((await systemResolver("localhost", "V4_ONLY")).includes("127.0.0.1"));
  await using origin = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("dns ok"),
  );
  const c = testCluster("d", [["localhost", origin.addr.port]], {
    type: "STRICT_DNS",
    dnsLookupFamily: "V4_ONLY",
  });
  await withDns(c, undefined, async (cm) => {
    const r = await forwardResponse(cm.get("d")!, req());
    assert.equal(await r.text(), "dns ok");
  });
});

Deno.test("cluster.fields.respect-dns-ttl: respect_dns_ttl and dns_resolvers are refused, not ignored", () => {
  assert.throws(
    () =>
      new ClusterManager([
        dnsCluster("STRICT_DNS", {
          respectDnsTtl: true,
          config: { name: "d", respect_dns_ttl: true },
        }),
      ], { stats: new Store() }),
    (e) => e instanceof ConfigLoadError && /respect_dns_ttl/.test(e.message),
  );
  const withResolvers = dnsCluster("STRICT_DNS", { config: { name: "d", dns_resolvers: [{}] } });
  assert.throws(
    () => new ClusterManager([withResolvers], { stats: new Store() }),
    (e) => e instanceof ConfigLoadError && /dns_resolvers/.test(e.message),
  );
});
