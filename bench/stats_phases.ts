/**
 * Where the first `/stats` request's time goes, in process and without HTTP: building the store,
 * settling the Prometheus families (what a first scrape waits for), settling the name order (what
 * a first text or JSON render waits for), and rendering each format (all chunks
 * joined into nothing, only their lengths summed), each phase timed alone. Also the memory per
 * stat kind: heap+external growth while creating counters, gauges and histograms of `clusters`
 * clusters. Run under `--cpu-prof` to see a phase's profile.
 *
 * Run: `deno run -A --v8-flags=--expose-gc bench/stats_phases.ts [clusters] [--no-memory]`
 * (default 10000 clusters).
 *
 * @example
 * ```sh
 * deno run -A --v8-flags=--expose-gc bench/stats_phases.ts 1000
 * ```
 * @module
 */
import { Store } from "../src/stats/store.ts";
import { renderText } from "../src/stats/render_text.ts";
import { renderJson } from "../src/stats/render_json.ts";
import { renderPrometheus } from "../src/stats/render_prometheus.ts";
import { buildClusters, CB, COUNTERS, GAUGES, HISTOGRAMS } from "./stats_clusters.ts";

const clusters = Number(Deno.args[0] ?? 10_000);
const gc = () => (globalThis as { gc?: () => void }).gc?.();
const kb = (n: number) => `${(n / clusters / 1024).toFixed(2)} KB per cluster`;
const own = () => {
  const m = Deno.memoryUsage();
  return m.heapUsed + m.external;
};

function time<T>(label: string, f: () => T): T {
  const t0 = performance.now();
  const r = f();
  console.log(`${label.padEnd(28)} ${(performance.now() - t0).toFixed(0).padStart(6)} ms`);
  return r;
}

function drain(it: Iterable<string>): number {
  let n = 0;
  for (const c of it) n += c.length;
  return n;
}

// Memory by kind: one store, each kind created for every cluster in turn.
if (!Deno.args.includes("--no-memory")) {
  gc();
  const store = new Store();
  const scopes = Array.from({ length: clusters }, (_, c) => store.scope("cluster").scope(`s_${c}`));
  gc();
  let before = own();
  const step = (
    label: string,
    per: number,
    f: (s: ReturnType<Store["scope"]>, c: number) => void,
  ) => {
    for (const [c, s] of scopes.entries()) f(s, c);
    gc();
    const after = own();
    console.log(
      `memory ${label.padEnd(21)} ${kb(after - before)}, ${
        ((after - before) / clusters / per).toFixed(0)
      } B per stat`,
    );
    before = after;
  };
  step("counters", COUNTERS.length, (s, c) => {
    for (const [i, n] of COUNTERS.entries()) s.counter(n).inc((c + i) % 7);
  });
  step("gauges", GAUGES.length, (s, c) => {
    for (const [i, n] of GAUGES.entries()) s.gauge(n).set((c * i) % 11);
  });
  step("circuit breaker gauges", 10, (s) => {
    for (const p of ["default", "high"]) {
      for (const n of CB) {
        s.scope("circuit_breakers").scope(p).gauge(n);
      }
    }
  });
  step("histograms", HISTOGRAMS.length, (s, c) => {
    for (const n of HISTOGRAMS) {
      const h = s.histogram(n, "milliseconds");
      for (let k = 0; k < 5; k++) h.record((c * 31 + k * 17) % 5000);
    }
  });
  step("flush", HISTOGRAMS.length, () => {});
  store.flush();
  gc();
  console.log(`memory after flush          ${kb(own() - before)} more`);
  before = own();
  store.settle(Infinity, false);
  gc();
  console.log(`memory name order           ${kb(own() - before)}`);
  before = own();
  store.settle(Infinity, true);
  gc();
  console.log(`memory Prometheus index     ${kb(own() - before)}`);
}
gc();

const store = time("build", () => buildClusters(new Store(), clusters));
time("settle prometheus", () => store.settle(Infinity, "only"));
time("settle names", () => store.settle(Infinity, false));
for (let round = 0; round < 2; round++) {
  time(`render text (${round})`, () => drain(renderText(store, {})));
  time(`render json (${round})`, () => drain(renderJson(store, {})));
  time(`render prometheus (${round})`, () => drain(renderPrometheus(store, {})));
}
