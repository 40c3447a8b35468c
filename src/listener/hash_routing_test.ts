import assert from "node:assert/strict";
import { testCluster } from "../upstream/test_cluster.ts";
import { httpListener, startTestProxy } from "./test_proxy.ts";
import { namedOrigin } from "./test_origins.ts";
import type { JsonObject } from "../config/bootstrap_types.ts";

const routes: JsonObject = {
  name: "rc",
  virtual_hosts: [{
    name: "main",
    domains: ["*"],
    routes: [
      {
        match: { prefix: "/sticky" },
        route: { cluster: "ring", hash_policy: [{ cookie: { name: "sid", ttl: "30s" } }] },
      },
      {
        match: { prefix: "/maglev" },
        route: { cluster: "maglev", hash_policy: [{ header: { header_name: "x-user" } }] },
      },
      {
        match: { prefix: "/" },
        route: { cluster: "ring", hash_policy: [{ header: { header_name: "x-user" } }] },
      },
    ],
  }],
};

async function get(port: number, path: string, headers: Record<string, string> = {}) {
  const r = await fetch(`http://127.0.0.1:${port}${path}`, { headers });
  return { body: await r.text(), cookie: r.headers.get("set-cookie") };
}

Deno.test("cluster.enums.lb-policy: RING_HASH and MAGLEV through a listener: the same header value always reaches the same origin", async () => {
  const a = namedOrigin("a");
  const b = namedOrigin("b");
  const hosts: [string, number][] = [["127.0.0.1", a.addr.port], ["127.0.0.1", b.addr.port]];
  const p = await startTestProxy([httpListener(routes)], [
    testCluster("ring", hosts, { lbPolicy: "RING_HASH" }),
    testCluster("maglev", hosts, { lbPolicy: "MAGLEV" }),
  ]);
  try {
    const port = p.port();
    for (const prefix of ["/", "/maglev"]) {
      const seen = new Set<string>();
      for (let u = 0; u < 16; u++) {
        const first = (await get(port, prefix, { "x-user": `user-${u}` })).body;
        assert.match(first, /^[ab]$/);
        seen.add(first);
        for (let k = 0; k < 3; k++) {
          assert.equal((await get(port, prefix, { "x-user": `user-${u}` })).body, first);
        }
      }
      // Different users are spread over both origins.
      assert.equal(seen.size, 2, `${prefix}: ${[...seen]}`);
    }
    // A cookie policy with a ttl sets the cookie; requests that carry it stay on one origin.
    const first = await get(port, "/sticky");
    assert.match(first.cookie ?? "", /^sid="[0-9a-f]{16}"; Max-Age=30; HttpOnly$/);
    const cookie = first.cookie!.split(";")[0];
    const target = (await get(port, "/sticky", { cookie })).body;
    assert.equal(target, first.body, "the generated cookie hashes as the request that got it");
    for (let k = 0; k < 5; k++) {
      const r = await get(port, "/sticky", { cookie });
      assert.equal(r.body, target);
      assert.equal(r.cookie, null);
    }
  } finally {
    await p.close();
    await a.shutdown();
    await b.shutdown();
  }
});
