import assert from "node:assert/strict";
import { Store } from "../stats/store.ts";
import { ClusterManager } from "./cluster_manager.ts";
import { forwardResponse, testCluster, testRequest } from "./test_cluster.ts";

/**
 * An origin that answers each connection's first request keep-alive (no `Connection: close`)
 * and then closes the connection; `closed` counts the connections it closed.
 */
function closingOrigin() {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const state = { closed: 0 };
  const serve = async (c: Deno.Conn) => {
    const b = new Uint8Array(4096);
    let head = "";
    while (!head.includes("\r\n\r\n")) {
      const n = await c.read(b).catch(() => null);
      if (n === null) break;
      head += new TextDecoder().decode(b.subarray(0, n));
    }
    await c.write(new TextEncoder().encode("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi"))
      .catch(() => {});
    c.close();
    state.closed++;
  };
  (async () => {
    for await (const c of l) serve(c);
  })().catch(() => {});
  return { port: l.addr.port, state, close: () => l.close() };
}

async function until(ok: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
}

Deno.test("cluster.fields.common-http-protocol-options: an idle upstream connection the origin closed is dropped from the pool (cx_destroy_remote), so the next request gets a new connection, not a 503", async () => {
  const o = closingOrigin();
  const store = new Store();
  const cm = new ClusterManager([testCluster("c", [["127.0.0.1", o.port]])], { stats: store });
  await cm.start();
  try {
    const cl = cm.get("c")!;
    const first = await forwardResponse(cl, testRequest());
    assert.equal(first.status, 200);
    assert.equal(await first.text(), "hi");
    const destroyedRemote = () => store.counter("cluster.c.upstream_cx_destroy_remote").value();
    await until(() => o.state.closed === 1 && destroyedRemote() === 1);
    assert.equal(destroyedRemote(), 1, "the pool saw the origin close the idle connection");
    assert.equal(store.gauge("cluster.c.upstream_cx_active").value(), 0);
    for (let i = 0; i < 3; i++) {
      const r = await forwardResponse(cl, testRequest());
      assert.equal(r.status, 200);
      assert.equal(await r.text(), "hi");
      await until(() => destroyedRemote() === i + 2);
    }
    assert.equal(store.counter("cluster.c.upstream_cx_total").value(), 4);
    assert.equal(store.counter("cluster.c.upstream_rq_200").value(), 4);
  } finally {
    await cm.close();
    o.close();
  }
});
