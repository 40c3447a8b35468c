/**
 * Stats at scale: a store with 10,000 clusters × ~100 stats (Envoy's cluster stat set), rendered
 * as text, JSON and Prometheus through the `/stats` handlers over a real `Deno.serve` on
 * 127.0.0.1. Prints:
 *
 * - the memory the store costs per cluster: process RSS over the cluster count (the figure of
 *   issue #19, 48 KB before) and the store's own heap and external growth, with ratios to the
 *   figure before and to the target (20 KB), just built and once its indexes are settled (what
 *   the server does after loading);
 * - for each format, the first request on a freshly built store (nothing sorted or indexed yet),
 *   in wall time and the server process's CPU time (the body is read by `curl` in another
 *   process when curl is installed, else by `fetch` in this one), with the slowest `/ready`
 *   answered meanwhile; ratios to the target (1 s, `/ready` 50 ms) and, for Prometheus,
 *   to the figure before (3.6 s);
 * - later renders: render time, bytes, peak RSS, `/ready` latency during a big `/stats`.
 *
 * Run: `deno task bench stats [clusters]` (default 10000), which runs it with the V8 flags of the
 * `proxy` task (the young generation size the proxy runs with) and `--expose-gc`.
 *
 * @example
 * ```sh
 * deno run -A --v8-flags=--expose-gc bench/stats_bench.ts 1000
 * ```
 * @module
 */
import { Store } from "../src/stats/store.ts";
import { fakeStatsContext } from "../src/admin/stats_test_context.ts";
import { STATS_HANDLERS } from "../src/admin/stats_handler.ts";
import { parseQuery } from "../src/admin/query.ts";
import { loadNote } from "./load_note.ts";
import process from "node:process";
import { buildClusters } from "./stats_clusters.ts";

/** Figures of issue #19, measured before the store was reworked. */
const BEFORE = { kbPerCluster: 48, prometheusFirstMs: 3600 };
/** Targets of issue #19. */
const TARGET = { kbPerCluster: 20, firstMs: 1000, readyMs: 50 };

const clusters = Number(Deno.args[0] ?? 10_000);
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
const ratio = (v: number, ref: number) => `${(v / ref).toFixed(2)}×`;
const gc = () => (globalThis as { gc?: () => void }).gc?.();

/** A store holding `clusters` clusters' stats, counters and gauges set, histograms recorded. */
function build(): Store {
  return buildClusters(new Store(), clusters);
}

function serve(store: Store): { base: string; server: Deno.HttpServer<Deno.NetAddr> } {
  const ctx = fakeStatsContext({ store });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/ready") return new Response("LIVE\n");
    const handler = STATS_HANDLERS[url.pathname];
    if (!handler) return new Response("no\n", { status: 404 });
    const { params, pairs } = parseQuery(url.search.slice(1));
    return handler({ method: "GET", path: url.pathname, params, pairs, raw: req }, ctx);
  });
  return { base: `http://127.0.0.1:${server.addr.port}`, server };
}

/** Whether curl is there to read big responses in a process of its own. */
const CURL = await new Deno.Command("curl", { args: ["--version"], stdout: "null", stderr: "null" })
  .output().then((o) => o.success, () => false);

interface Rendered {
  ms: number;
  cpuMs: number;
  bytes: number;
  rssBefore: number;
  peak: number;
  latencies: number[];
}

async function fetchAll(base: string, path: string, probe: boolean): Promise<Rendered> {
  gc();
  const rssBefore = Deno.memoryUsage().rss;
  let peak = rssBefore;
  const latencies: number[] = [];
  let streaming = true;
  const prober = probe
    ? (async () => {
      while (streaming) {
        const s = performance.now();
        const r = await fetch(`${base}/ready`);
        await r.text();
        latencies.push(performance.now() - s);
        await new Promise((r) => setTimeout(r, 20));
      }
    })()
    : Promise.resolve();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let bytes = 0;
  if (CURL) {
    // The big response is read by another process, as a scraper would: the server's CPU
    // figure is then the server's alone.
    const sampler = setInterval(() => peak = Math.max(peak, Deno.memoryUsage().rss), 10);
    try {
      const out = await new Deno.Command("curl", {
        args: ["-sS", "-o", "/dev/null", "-w", "%{size_download}", `${base}${path}`],
        stdout: "piped",
      }).output();
      if (!out.success) throw new Error(`curl ${path} failed`);
      bytes = Number(new TextDecoder().decode(out.stdout));
    } finally {
      clearInterval(sampler);
    }
  } else {
    const res = await fetch(`${base}${path}`);
    const reader = res.body!.getReader();
    let chunks = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (++chunks % 16 === 0) peak = Math.max(peak, Deno.memoryUsage().rss);
    }
  }
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  streaming = false;
  await prober;
  peak = Math.max(peak, Deno.memoryUsage().rss);
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000, bytes, rssBefore, peak, latencies };
}

function readyNote(latencies: number[]): string {
  if (latencies.length === 0) return "";
  const max = Math.max(...latencies);
  const median = [...latencies].sort((a, b) => a - b)[latencies.length >> 1];
  return `; /ready during stream: n=${latencies.length} max ${max.toFixed(1)} ms (${
    ratio(max, TARGET.readyMs)
  } target) median ${median.toFixed(1)} ms`;
}

// Memory: the store's own growth, and process RSS over the cluster count (issue #19's figure).
gc();
const m0 = Deno.memoryUsage();
const t0 = performance.now();
let store = build();
const buildMs = performance.now() - t0;
gc();
const m1 = Deno.memoryUsage();
const perCluster = (n: number) => n / clusters / 1024;
const rssKb = perCluster(m1.rss);
const ownKb = perCluster(m1.heapUsed + m1.external - m0.heapUsed - m0.external);
console.log(
  `store: ${clusters} clusters, ${store.size} stats, built in ${
    buildMs.toFixed(0)
  } ms (${loadNote()})`,
);
console.log(
  `memory: RSS ${mb(m1.rss)} = ${
    rssKb.toFixed(1)
  } KB per cluster (before ${BEFORE.kbPerCluster} KB: ${
    ratio(rssKb, BEFORE.kbPerCluster)
  }; target ${TARGET.kbPerCluster} KB: ${ratio(rssKb, TARGET.kbPerCluster)}); ` +
    `the store's heap+external growth ${ownKb.toFixed(1)} KB per cluster (${
      ratio(ownKb, TARGET.kbPerCluster)
    } target), RSS growth ${perCluster(m1.rss - m0.rss).toFixed(1)} KB per cluster`,
);

// What the server holds once it settled the indexes after loading (`settleInBackground`).
await store.settleInBackground(true);
gc();
const m2 = Deno.memoryUsage();
console.log(
  `memory once settled (as the server settles after loading): RSS ${mb(m2.rss)} = ${
    perCluster(m2.rss).toFixed(1)
  } KB per cluster (target ${TARGET.kbPerCluster} KB: ${
    ratio(perCluster(m2.rss), TARGET.kbPerCluster)
  }); the store's heap+external growth ${
    perCluster(m2.heapUsed + m2.external - m0.heapUsed - m0.external).toFixed(1)
  } KB per cluster`,
);

// First requests: each format on a store of its own, before anything was sorted or indexed.
const FIRST: Array<[string, string]> = [
  ["text", "/stats"],
  ["json", "/stats?format=json"],
  ["prometheus", "/stats/prometheus"],
];
for (const [label, path] of FIRST) {
  store = undefined as unknown as Store;
  gc();
  store = build();
  const { base, server } = serve(store);
  try {
    const r = await fetchAll(base, path, true);
    const before = label === "prometheus"
      ? `, before ${BEFORE.prometheusFirstMs} ms: ${ratio(r.ms, BEFORE.prometheusFirstMs)}`
      : "";
    console.log(
      `first ${label.padEnd(11)} ${r.ms.toFixed(0).padStart(6)} ms (target ${TARGET.firstMs} ms: ${
        ratio(r.ms, TARGET.firstMs)
      }${before}), server CPU ${r.cpuMs.toFixed(0)} ms, ${mb(r.bytes)} body${
        readyNote(r.latencies)
      } (${loadNote()})`,
    );
  } finally {
    await server.shutdown();
  }
}

// Later requests on the last store.
const { base, server } = serve(store);
async function render(label: string, path: string, probe = false) {
  const r = await fetchAll(base, path, probe);
  console.log(
    `${label.padEnd(26)} ${r.ms.toFixed(0).padStart(6)} ms  ${mb(r.bytes).padStart(7)} body  ` +
      `RSS ${mb(r.rssBefore)} → peak ${mb(r.peak)} (+${mb(r.peak - r.rssBefore)})${
        readyNote(r.latencies)
      } (${loadNote()})`,
  );
}

try {
  await render("text", "/stats");
  await render("text usedonly", "/stats?usedonly");
  await render("text filter", "/stats?filter=service_42.*rq_2");
  await render("json", "/stats?format=json");
  await render("prometheus", "/stats/prometheus");
  await render("text + /ready probes", "/stats", true);
  await render("prometheus + /ready probes", "/stats/prometheus", true);
} finally {
  await server.shutdown();
}
