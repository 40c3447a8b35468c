import assert from "node:assert/strict";
import {
  listenerPort,
  proxyBootstrap,
  requestOnce,
  startProxyProcess,
  statsOf,
} from "./testing_proxy_process.ts";

/** Reads JSON lines from `reader` until `n` arrived (or the stream ended); bounded by `ms`. */
async function readLines(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  n: number,
  ms: number,
): Promise<unknown[]> {
  const out: unknown[] = [];
  let text = "";
  const timer = setTimeout(() => void reader.cancel(), ms);
  try {
    while (out.length < n) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
      let nl;
      while ((nl = text.indexOf("\n")) >= 0) {
        out.push(JSON.parse(text.slice(0, nl)));
        text = text.slice(nl + 1);
      }
    }
  } finally {
    clearTimeout(timer);
  }
  return out;
}

Deno.test("cli.options.concurrency: with --concurrency 2 a /tap stream gets the traces of every worker", async () => {
  const origin = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("ok\n"),
  );
  const b = proxyBootstrap(origin.addr.port);
  const text = JSON.stringify(b).replace(
    '"http_filters":[{"name":"envoy.filters.http.router"}]',
    JSON.stringify({
      http_filters: [
        {
          name: "envoy.filters.http.tap",
          typed_config: {
            "@type": "type.googleapis.com/envoy.extensions.filters.http.tap.v3.Tap",
            common_config: { admin_config: { config_id: "t" } },
          },
        },
        { name: "envoy.filters.http.router" },
      ],
    }).slice(1, -1),
  );
  assert.ok(text.includes("envoy.filters.http.tap"));
  const p = await startProxyProcess(JSON.parse(text), ["--concurrency", "2"]);
  try {
    const port = await listenerPort(p.admin);
    const res = await fetch(`${p.admin}/tap`, {
      method: "POST",
      body: JSON.stringify({
        config_id: "t",
        tap_config: {
          match: {
            http_request_headers_match: { headers: [{ name: ":path", exact_match: "/x" }] },
          },
          output_config: { sinks: [{ streaming_admin: {} }], format: "JSON_BODY_AS_STRING" },
        },
      }),
    });
    assert.equal(res.status, 200);
    const reader = res.body!.getReader();
    // An admin request syncs the workers: each has the session before the traffic starts.
    await statsOf(p.admin);
    const N = 24;
    const statuses = await Promise.all(
      Array.from({ length: N }, (_, i) => requestOnce(port, i % 2 ? "/x" : "/y")),
    );
    assert.deepEqual(statuses, new Array(N).fill(200));
    const traces = await readLines(reader, N / 2, 20_000) as {
      http_buffered_trace: { request: { headers: { key: string; value: string }[] } };
    }[];
    assert.equal(traces.length, N / 2);
    for (const t of traces) {
      const path = t.http_buffered_trace.request.headers.find((h) => h.key === ":path")?.value;
      assert.equal(path, "/x");
    }
    const stats = await statsOf(p.admin);
    const l = `listener.127.0.0.1_${port}`;
    const w0 = stats.get(`${l}.worker_0.downstream_cx_total`) ?? 0;
    const w1 = stats.get(`${l}.worker_1.downstream_cx_total`) ?? 0;
    assert.ok(w0 > 0 && w1 > 0, `connections spread over both workers: ${w0} and ${w1}`);
    assert.equal(stats.get("server.concurrency"), 2);
    await reader.cancel();
    assert.equal(await p.stop(), 0);
  } finally {
    await p.stop();
    await origin.shutdown();
  }
});
