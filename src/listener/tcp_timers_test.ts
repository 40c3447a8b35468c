import assert from "node:assert/strict";
import { testCluster } from "../upstream/test_cluster.ts";
import { startTestProxy } from "./test_proxy.ts";
import type { JsonObject } from "../config/bootstrap_types.ts";
import { parseTcpProxy } from "./tcp_proxy.ts";
import type { Errors } from "../config/config_values.ts";
import { TCP_IDLE_TIMEOUT_DEFAULT_MS } from "./tcp_timers.ts";

function tcpListener(name: string, cluster: string, extra: JsonObject): JsonObject {
  return {
    name,
    address: { socket_address: { address: "127.0.0.1", port_value: 0 } },
    filter_chains: [{
      filters: [{
        name: "envoy.filters.network.tcp_proxy",
        typed_config: {
          "@type": "type.googleapis.com/envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy",
          stat_prefix: name,
          cluster,
          ...extra,
        },
      }],
    }],
  };
}

/** An origin that echoes, and reports each accepted connection's end (its read of EOF). */
function origin() {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns: Deno.Conn[] = [];
  const ended: Promise<void>[] = [];
  const done = (async () => {
    for await (const c of l) {
      conns.push(c);
      ended.push((async () => {
        const buf = new Uint8Array(1024);
        try {
          for (;;) {
            const n = await c.read(buf);
            if (n === null) break;
            await c.write(buf.subarray(0, n));
          }
        } catch { /* reset */ }
      })());
    }
  })();
  return {
    port: l.addr.port,
    ended,
    async close() {
      l.close();
      for (const c of conns) {
        try {
          c.close();
        } catch { /* closed */ }
      }
      await Promise.all(ended);
      await done;
    },
  };
}

async function echoOnce(c: Deno.Conn, text: string): Promise<string> {
  const b = new TextEncoder().encode(text);
  await c.write(b);
  const out = new Uint8Array(b.length);
  let got = 0;
  while (got < b.length) {
    const n = await c.read(out.subarray(got));
    if (n === null) break;
    got += n;
  }
  return new TextDecoder().decode(out.subarray(0, got));
}

/** Reads until the peer closes (or resets); true when it did. */
async function closedByPeer(c: Deno.Conn): Promise<boolean> {
  const buf = new Uint8Array(1024);
  try {
    for (;;) if (await c.read(buf) === null) return true;
  } catch {
    return true;
  }
}

Deno.test("TcpProxy.idle_timeout: a silent connection is closed on both sides and counted", async () => {
  const o = origin();
  const p = await startTestProxy([tcpListener("quiet", "o", { idle_timeout: "0.2s" })], [
    testCluster("o", [["127.0.0.1", o.port]]),
  ]);
  try {
    const c = await Deno.connect({ hostname: "127.0.0.1", port: p.port() });
    assert.equal(await echoOnce(c, "hello"), "hello");
    // Both the client and the origin now stay silent.
    assert.equal(await closedByPeer(c), true);
    c.close();
    await o.ended[0];
    assert.equal(p.store.counter("tcp.quiet.idle_timeout").value(), 1);
    assert.equal(p.store.counter("tcp.quiet.max_downstream_connection_duration").value(), 0);
  } finally {
    await p.close();
    await o.close();
  }
});

Deno.test("TcpProxy.idle_timeout: 0 disables it while another listener's silent connection times out", async () => {
  const o = origin();
  const p = await startTestProxy([
    tcpListener("forever", "o", { idle_timeout: "0s" }),
    tcpListener("short", "o", { idle_timeout: "0.1s" }),
  ], [testCluster("o", [["127.0.0.1", o.port]])]);
  try {
    // Opened first, so it stays silent longer than the other one's idle timeout.
    const kept = await Deno.connect({ hostname: "127.0.0.1", port: p.port(0) });
    assert.equal(await echoOnce(kept, "a"), "a");
    const timed = await Deno.connect({ hostname: "127.0.0.1", port: p.port(1) });
    assert.equal(await echoOnce(timed, "b"), "b");
    assert.equal(await closedByPeer(timed), true);
    timed.close();
    assert.equal(p.store.counter("tcp.short.idle_timeout").value(), 1);
    assert.equal(await echoOnce(kept, "still open"), "still open");
    assert.equal(p.store.counter("tcp.forever.idle_timeout").value(), 0);
    kept.close();
  } finally {
    await p.close();
    await o.close();
  }
});

/** The file's text once it is not empty (the line is written as the connection ends). */
async function written(path: string): Promise<string> {
  for (let i = 0; i < 500; i++) {
    const text = await Deno.readTextFile(path).catch(() => "");
    if (text !== "") return text;
    await new Promise((r) => setTimeout(r, 20));
  }
  return "";
}

Deno.test("TcpProxy.max_downstream_connection_duration: a connection is closed on both sides at the limit and counted, flag DT", async () => {
  const dir = await Deno.makeTempDir();
  const o = origin();
  const p = await startTestProxy(
    [
      tcpListener("capped", "o", {
        idle_timeout: "0s",
        max_downstream_connection_duration: "0.2s",
        access_log: [{
          name: "envoy.access_loggers.file",
          typed_config: {
            "@type": "type.googleapis.com/envoy.extensions.access_loggers.file.v3.FileAccessLog",
            path: `${dir}/tcp.log`,
            log_format: { text_format_source: { inline_string: "%RESPONSE_FLAGS%\n" } },
          },
        }],
      }),
    ],
    [testCluster("o", [["127.0.0.1", o.port]])],
    { fileFlushIntervalMs: 0 },
  );
  try {
    const c = await Deno.connect({ hostname: "127.0.0.1", port: p.port() });
    assert.equal(await echoOnce(c, "x"), "x");
    assert.equal(await closedByPeer(c), true);
    c.close();
    await o.ended[0];
    assert.equal(p.store.counter("tcp.capped.max_downstream_connection_duration").value(), 1);
    assert.equal(p.store.counter("tcp.capped.idle_timeout").value(), 0);
    assert.equal(await written(`${dir}/tcp.log`), "DT\n");
  } finally {
    await p.close();
    await o.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("TcpProxy.idle_timeout: unset is Envoy's hour; bad durations are refused with their path", () => {
  const errors: Errors = [];
  const base = { stat_prefix: "s", cluster: "c" };
  const unset = parseTcpProxy(base, "f", errors, null);
  assert.equal(unset?.timeouts.idleTimeoutMs, TCP_IDLE_TIMEOUT_DEFAULT_MS);
  assert.equal(unset?.timeouts.maxDurationMs, 0);
  assert.equal(
    parseTcpProxy({ ...base, idle_timeout: "0s" }, "f", errors, null)?.timeouts.idleTimeoutMs,
    0,
  );
  assert.equal(errors.length, 0);
  assert.equal(parseTcpProxy({ ...base, idle_timeout: "soon" }, "f", errors, null), null);
  assert.equal(
    parseTcpProxy({ ...base, max_downstream_connection_duration: "0s" }, "f", errors, null),
    null,
  );
  assert.deepEqual(errors.map((e) => e.path), [
    "f.idle_timeout",
    "f.max_downstream_connection_duration",
  ]);
});
