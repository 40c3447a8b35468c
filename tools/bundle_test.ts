/**
 * The bundle (`tools/bundle.ts`) runs the proxy as the sources do: built once, fresh after, and
 * serving through a real process with two workers (the workers' entry), the off-thread regex
 * worker (the other entry), log lines whose call sites and function names are the sources'
 * (source maps), and a lazily loaded admin endpoint (a split chunk).
 */
import assert from "node:assert/strict";
import { ensureBundle } from "./bundle.ts";
import { WORKER_ENTRIES } from "../src/platform/entry_url.ts";
import {
  listenerPort,
  proxyBootstrap,
  requestOnce,
  startProxyProcess,
} from "../src/server/testing_proxy_process.ts";

Deno.test("bundle: built, then fresh; the proxy runs from it with its workers, maps and chunks", async () => {
  const out = `.build/test-${Deno.pid}`;
  const root = new URL("../", import.meta.url);
  const origin = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("from origin"),
  );
  try {
    const first = await ensureBundle({ out, force: true });
    assert.equal(first.built, true);
    const again = await ensureBundle({ out });
    assert.equal(again.built, false, "a second build of the same tree found the first fresh");
    // Paths relative to a module (`new URL("../../", import.meta.url)`) hold in the chunks, two
    // levels below the root as the sources' modules are; the entries deeper down must have none.
    for (const source of Object.values(WORKER_ENTRIES)) {
      const entry = source.replace(/\.ts$/, ".js");
      const text = await Deno.readTextFile(new URL(entry, first.dir));
      assert.ok(!text.includes("import.meta.url"), `${entry} resolves paths from its own URL`);
    }

    const p = await startProxyProcess(
      proxyBootstrap(origin.addr.port),
      ["--concurrency", "2", "--log-format", "[%g:%#] {%!} %v"],
      {},
      30_000,
      first.entry.pathname,
    );
    let stderr = "";
    try {
      const port = await listenerPort(p.admin);
      assert.equal(await requestOnce(port, "/"), 200);
      // Served by a worker: their entry loaded from the bundle.
      const ws = await (await fetch(`${p.admin}/stats?filter=worker`)).text();
      assert.match(ws, /^listener_manager\.workers_started: 2$/m);
      const served = [...ws.matchAll(/worker_\d\.downstream_cx_total: (\d+)/g)];
      assert.equal(served.reduce((n, m) => n + Number(m[1]), 0), 1, ws);
      // The ECMAScript engine runs a stats filter on the regex worker, the bundle's other entry.
      const rt = await fetch(
        `${p.admin}/runtime_modify?envoy.reloadable_features.admin_stats_filter_use_re2=false`,
        { method: "POST" },
      );
      assert.equal(rt.status, 200, await rt.text());
      const live = await fetch(`${p.admin}/stats?filter=^server\\.live$`);
      assert.equal(await live.text(), "server.live: 1\n");
      // A lazily loaded admin endpoint: its own chunk.
      const clusters = await fetch(`${p.admin}/clusters`);
      assert.equal(clusters.status, 200);
      assert.match(await clusters.text(), /^demo::/m);
    } finally {
      assert.equal(await p.stop(), 0);
      stderr = (await p.exited).stderr;
    }
    // Call sites and function names through the source maps, `#private` methods included.
    assert.match(stderr, /^\[src\/server\/server\.ts:\d+\] \{startServer\} starting proxyspec/m);
    assert.match(
      stderr,
      /^\[src\/server\/workers\.ts:\d+\] \{WorkerPool\.start\} started 2 workers/m,
    );
    assert.match(
      stderr,
      /^\[src\/server\/shutdown\.ts:\d+\] \{Shutdown\.#sequence\} shutdown complete/m,
    );
  } finally {
    await origin.shutdown();
    await Deno.remove(new URL(`${out}/`, root), { recursive: true }).catch(() => {});
  }
});
