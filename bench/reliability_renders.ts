/**
 * The `reliability` bench's large-render scenario: a proxy with 10,000 static clusters renders
 * `/config_dump` and `/stats` in each format (text, JSON, Prometheus) while `/ready` and a
 * proxied request are polled back to back (first for 3 s with no render, while the stats index
 * built at start-up settles); the figure is the worst latency of each, printed against the target
 * of 50 ms (issue 18: admin work that can be large yields so proxied
 * requests and `/ready` keep answering within 50 ms). A figure, never a test.
 *
 * @module
 */
import {
  listenerPort,
  proxyBootstrap,
  startProxyProcess,
} from "../src/server/testing_proxy_process.ts";

/** The latency target of `/ready` and proxied requests while a large render runs. */
export const TARGET_MS = 50;

/** The renders measured, by name. */
export const RENDERS: Readonly<Record<string, string>> = {
  "config_dump": "/config_dump",
  "stats text": "/stats",
  "stats json": "/stats?format=json",
  "stats prometheus": "/stats?format=prometheus",
};

/**
 * A bootstrap with `n` static clusters (all on `originPort`): the test proxy's bootstrap, whose
 * listener routes to its cluster `demo`, plus `n - 1` more clusters beside it.
 */
export function manyClusters(originPort: number, n: number): Record<string, unknown> {
  const bootstrap = proxyBootstrap(originPort);
  const resources = bootstrap.static_resources as { clusters: Record<string, unknown>[] };
  const [demo] = resources.clusters;
  for (let i = 1; i < n; i++) {
    const name = `c${i}`;
    resources.clusters.push({
      ...demo,
      name,
      load_assignment: { ...demo.load_assignment as object, cluster_name: name },
    });
  }
  return bootstrap;
}

/** What one render did to the requests polled beside it. */
export interface RenderFigure {
  render: string;
  /** Size of the render's body in bytes and how long it took (ms). */
  bytes: number;
  renderMs: number;
  /** Worst and count of the `/ready` and proxied requests made while it ran. */
  readyWorstMs: number;
  readyCount: number;
  proxiedWorstMs: number;
  proxiedCount: number;
  /** Requests that did not answer 200. */
  failed: number;
}

/** Polls `url` back to back until `done()`; resolves with the worst latency and the count. */
async function poll(
  url: string,
  client: Deno.HttpClient,
  done: () => boolean,
): Promise<{ worst: number; count: number; failed: number }> {
  let worst = 0, count = 0, failed = 0;
  while (!done()) {
    const t = performance.now();
    try {
      const r = await fetch(url, { client, signal: AbortSignal.timeout(30_000) });
      await r.arrayBuffer();
      if (r.status !== 200) failed++;
    } catch {
      failed++;
    }
    worst = Math.max(worst, performance.now() - t);
    count++;
  }
  return { worst, count, failed };
}

const READER = `self.onmessage = async (e) => {
  try {
    const r = await fetch(e.data, { signal: AbortSignal.timeout(120000) });
    let n = 0;
    for await (const c of r.body) n += c.length;
    self.postMessage(n);
  } catch (err) {
    self.postMessage(-1);
  }
};`;

/** GETs `url` in a worker thread; resolves with the body's size (-1: it failed). */
function readInWorker(url: string): Promise<number> {
  const w = new Worker(`data:application/javascript,${encodeURIComponent(READER)}`, {
    type: "module",
  });
  return new Promise<number>((resolve) => {
    w.onmessage = (e) => {
      w.terminate();
      resolve(e.data as number);
    };
    w.postMessage(url);
  });
}

/** Runs each render once against `admin` while polling `/ready` and `proxied`. */
export async function measureRenders(admin: string, proxied: string): Promise<RenderFigure[]> {
  const out: RenderFigure[] = [];
  const client = Deno.createHttpClient({});
  try {
    // First no render at all: the 3 s after start-up, while the stats index settles.
    const phases: [string, string | null][] = [
      ["none (3 s after start-up)", null],
      ...Object.entries(RENDERS),
    ];
    for (const [render, path] of phases) {
      let finished = false;
      const t = performance.now();
      // The render is read in a worker thread, so reading its megabytes does not delay the
      // polls measured on this thread.
      const body = (async () => {
        try {
          if (path === null) {
            await new Promise((r) => setTimeout(r, 3000));
            return 0;
          }
          return await readInWorker(`${admin}${path}`);
        } finally {
          finished = true;
        }
      })();
      const [bytes, ready, prox] = await Promise.all([
        body,
        poll(`${admin}/ready`, client, () => finished),
        poll(proxied, client, () => finished),
      ]);
      out.push({
        render,
        bytes,
        renderMs: performance.now() - t,
        readyWorstMs: ready.worst,
        readyCount: ready.count,
        proxiedWorstMs: prox.worst,
        proxiedCount: prox.count,
        failed: ready.failed + prox.failed,
      });
    }
  } finally {
    client.close();
  }
  return out;
}

/** Starts a proxy with `clusters` clusters on `originPort` and measures every render. */
export async function renderScenario(
  originPort: number,
  clusters = 10_000,
): Promise<RenderFigure[]> {
  const p = await startProxyProcess(
    manyClusters(originPort, clusters),
    [
      "--concurrency",
      "1",
    ],
    {},
    120_000,
  );
  try {
    const port = await listenerPort(p.admin);
    return await measureRenders(p.admin, `http://127.0.0.1:${port}/ok`);
  } finally {
    await p.stop();
  }
}

/** The figures as a table, each worst latency also as a ratio to {@linkcode TARGET_MS}. */
export function formatRenders(figures: readonly RenderFigure[], clusters: number): string {
  const ms = (n: number) => `${n.toFixed(1)} ms (${(n / TARGET_MS).toFixed(2)}x)`;
  let s = `\nlarge admin renders at ${clusters} clusters (worst latency; ratio to the ` +
    `${TARGET_MS} ms target):\n`;
  s += "| render | bytes | render ms | /ready worst (n) | proxied worst (n) | failed |\n";
  s += "|---|---:|---:|---|---|---:|\n";
  for (const f of figures) {
    s += `| ${f.render} | ${f.bytes} | ${f.renderMs.toFixed(0)} | ${
      ms(f.readyWorstMs)
    } (${f.readyCount}) | ${ms(f.proxiedWorstMs)} (${f.proxiedCount}) | ${f.failed} |\n`;
  }
  return s;
}
