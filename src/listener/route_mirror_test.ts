import assert from "node:assert/strict";
import { testCluster } from "../upstream/test_cluster.ts";
import { httpListener, startTestProxy } from "./test_proxy.ts";
import type { JsonObject } from "../config/bootstrap_types.ts";
import { parseMirrorPolicies, shadowHost } from "../router/mirror_policy.ts";

function recorder(answer: string) {
  const seen: { host: string | null; body: string; path: string }[] = [];
  let notify = () => {};
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (r) => {
    seen.push({ host: r.headers.get("host"), body: await r.text(), path: new URL(r.url).pathname });
    notify();
    return new Response(answer);
  });
  const next = () => new Promise<void>((res) => notify = res);
  return { server, seen, next };
}

Deno.test("route request_mirror_policies: a shadow copy with its body goes to the mirror cluster with -shadow on the host; the answer is the main cluster's", async () => {
  const main = recorder("main");
  const mirror = recorder("mirror");
  const rc: JsonObject = {
    virtual_hosts: [{
      name: "v",
      domains: ["*"],
      routes: [
        {
          match: { prefix: "/never" },
          route: {
            cluster: "main",
            request_mirror_policies: [{
              cluster: "mirror",
              runtime_fraction: { default_value: { numerator: 0 } },
            }],
          },
        },
        {
          match: { prefix: "/" },
          route: {
            cluster: "main",
            request_mirror_policies: [{
              cluster: "mirror",
              runtime_fraction: { default_value: { numerator: 100 } },
            }],
          },
        },
      ],
    }],
  };
  const p = await startTestProxy([httpListener(rc)], [
    testCluster("main", [["127.0.0.1", main.server.addr.port]]),
    testCluster("mirror", [["127.0.0.1", mirror.server.addr.port]]),
  ]);
  try {
    const shadowed = mirror.next();
    const r = await fetch(`http://127.0.0.1:${p.port()}/a`, {
      method: "POST",
      body: "copy me",
    });
    assert.equal(await r.text(), "main");
    await shadowed;
    assert.deepEqual(mirror.seen, [{
      host: `127.0.0.1-shadow:${p.port()}`,
      body: "copy me",
      path: "/a",
    }]);
    assert.deepEqual(main.seen, [{ host: `127.0.0.1:${p.port()}`, body: "copy me", path: "/a" }]);
    for (let i = 0; i < 5; i++) await (await fetch(`http://127.0.0.1:${p.port()}/never`)).text();
    assert.equal(mirror.seen.length, 1);
    assert.equal(main.seen.length, 6);
  } finally {
    await p.close();
    await main.server.shutdown();
    await mirror.server.shutdown();
  }
});

Deno.test("route request_mirror_policies errors name their path; shadow hosts keep the port", () => {
  const errors: { path: string; message: string; rule: string }[] = [];
  parseMirrorPolicies(
    [{ cluster: "nope" }, { cluster: "c", runtime_fraction: { runtime_key: "k" } }, {}],
    undefined,
    "r",
    errors,
    new Set(["c"]),
  );
  assert.deepEqual(errors.map((e) => e.path), [
    "r.request_mirror_policies[0].cluster",
    "r.request_mirror_policies[1].runtime_fraction.runtime_key",
    "r.request_mirror_policies[2]",
  ]);
  assert.equal(shadowHost("a.test"), "a.test-shadow");
  assert.equal(shadowHost("[::1]:80"), "[::1]-shadow:80");
});
