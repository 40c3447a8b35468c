/**
 * The `reset_high_memory_stream` overload action through a real listener and origin: of two
 * streams waiting on a silent origin, the one whose request body is buffered for retries (256
 * KiB) is reset when the action's pressure rises (its client gets no answer, its upstream
 * connection is closed), the small one (2 KiB) is not and is answered later.
 */
import assert from "node:assert/strict";
import { testCluster } from "../upstream/test_cluster.ts";
import { httpListener, startTestProxy } from "../listener/test_proxy.ts";
import { trackingOrigin } from "../listener/test_origins.ts";
import { OverloadManager, parseOverloadManager } from "./overload_manager.ts";
import { Store } from "../stats/store.ts";

const HEAP = "envoy.resource_monitors.fixed_heap";
const ACTION = "envoy.overload_actions.reset_high_memory_stream";
const enc = new TextEncoder();

/** Sends a POST with `size` body bytes; resolves with everything read until the close. */
async function post(
  port: number,
  size: number,
): Promise<{ conn: Deno.Conn; answer: Promise<string> }> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  await conn.write(
    enc.encode(
      `POST / HTTP/1.1\r\nhost: a\r\ncontent-length: ${size}\r\nconnection: close\r\n\r\n`,
    ),
  );
  await conn.write(new Uint8Array(size).fill(97));
  const answer = (async () => {
    let text = "";
    const buf = new Uint8Array(4096);
    try {
      for (;;) {
        const n = await conn.read(buf);
        if (n === null) break;
        text += new TextDecoder().decode(buf.subarray(0, n));
      }
    } catch { /* reset */ }
    return text;
  })();
  return { conn, answer };
}

Deno.test("OverloadManager.buffer_factory_config reset_high_memory_stream: the stream buffering the most is reset when the pressure rises, counted; a small one is not", async () => {
  const { config, errors } = parseOverloadManager({
    refresh_interval: "1s",
    buffer_factory_config: { minimum_account_to_track_power_of_two: 10 },
    resource_monitors: [{ name: HEAP, typed_config: { max_heap_size_bytes: 1000 } }],
    actions: [{
      name: ACTION,
      triggers: [{ name: HEAP, scaled: { scaling_threshold: 0.5, saturation_threshold: 0.9 } }],
    }],
  }, "overload_manager");
  assert.deepEqual(errors, []);
  const heap = { bytes: 0 };
  const store = new Store();
  const om = new OverloadManager(config, store, () => undefined, () => heap.bytes);
  const o = trackingOrigin();
  const routes = {
    virtual_hosts: [{
      name: "v",
      domains: ["*"],
      routes: [{
        match: { prefix: "/" },
        route: { cluster: "o", timeout: "0s", retry_policy: { retry_on: "5xx" } },
      }],
    }],
  };
  const p = await startTestProxy([httpListener(routes)], [
    testCluster("o", [["127.0.0.1", o.port]]),
  ], { overload: om });
  try {
    const big = await post(p.port(), 256 * 1024);
    const small = await post(p.port(), 2048);
    await o.seenAtLeast(2);
    // Pressure 0.6: the action's value is 0.25, so the two largest classes are cleared.
    heap.bytes = 600;
    om.refresh();
    assert.equal(await big.answer, "");
    await o.closedAtLeast(1);
    assert.equal(
      store.counter(`overload.${ACTION}.count`).value(),
      1,
    );
    assert.equal(p.store.counter("http.test.downstream_rq_rx_reset").value(), 1);
    // The proxy reset the stream toward its client by closing the connection under it.
    assert.equal(p.store.counter("http.test.downstream_rq_tx_reset").value(), 1);
    assert.equal(p.store.counter("cluster.o.upstream_cx_destroy_local_with_active_rq").value(), 1);
    // The value does not change: nothing more is reset.
    om.refresh();
    assert.equal(store.counter(`overload.${ACTION}.count`).value(), 1);
    await o.writeAll("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok");
    assert.match(await small.answer, /^HTTP\/1\.1 200 OK/);
    big.conn.close();
    small.conn.close();
    for (
      let i = 0;
      i < 2000 && p.store.counter("http.test.downstream_cx_destroy").value() < 2;
      i++
    ) {
      await new Promise((r) => setTimeout(r, 5));
    }
    assert.equal(p.store.counter("http.test.downstream_cx_destroy_local").value(), 2);
    assert.equal(p.store.counter("http.test.downstream_cx_destroy_local_active_rq").value(), 1);
    assert.equal(p.store.counter("http.test.downstream_rq_tx_reset").value(), 1);
  } finally {
    om.stop();
    await p.close();
    o.close();
  }
});
