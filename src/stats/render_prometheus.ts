/**
 * The Prometheus text exposition format 0.0.4 (`/stats/prometheus`, `format=prometheus`).
 * Families are grouped per type (counters, gauges, text readouts with `text_readouts`,
 * histograms) and sorted by name, members by stat name; every family has one `# HELP` and one
 * `# TYPE` line; untagged samples print `{}` as real Envoy does. Histograms use the cumulative
 * view: `_bucket{...,le="..."}` for every bound and `+Inf`, `_sum`, `_count`. A family name already
 * used by another type is skipped with a comment line, so the output stays valid. Yields chunks.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Store } from "./store.ts";
 * import { renderPrometheus } from "./render_prometheus.ts";
 * const store = new Store();
 * store.gauge("server.concurrency").set(2);
 * assert.equal(
 *   [...renderPrometheus(store, {})].join(""),
 *   "# HELP proxy_server_concurrency server.concurrency\n" +
 *     "# TYPE proxy_server_concurrency gauge\n" +
 *     "proxy_server_concurrency{} 2\n",
 * );
 * ```
 * @module
 */
import type { Store } from "./store.ts";
import type { Family } from "./prometheus_index.ts";
import { chunkDue, type RenderOptions, selects } from "./render_options.ts";
import { formatPrometheus } from "./format_number.ts";
import { escapeLabelValue } from "./naming.ts";
import type { CounterImpl, GaugeImpl, TextReadoutImpl } from "./metrics.ts";
import type { HistogramImpl } from "./histogram.ts";
import type { NamedStat } from "./stat_name.ts";

type Kind = "counter" | "gauge" | "histogram";
type Sampler<T> = (name: string, labels: string, stat: T) => string;

function helpText(s: string): string {
  return s.replace(/[\\\n]/g, (c) => (c === "\n" ? "\\n" : "\\\\"));
}

function* families<T extends NamedStat & { used: boolean }>(
  list: readonly Family<T>[],
  kind: Kind,
  opts: RenderOptions,
  emitted: Map<string, Kind>,
  sample: Sampler<T>,
): Generator<string> {
  let buf = "";
  let visited = 0;
  let fam = list[0];
  let header = false;
  /** Adds `m`'s lines (and the family's header first); false when the family is skipped. */
  const add = (m: T): boolean => {
    if (!selects(opts, m)) return true;
    if (!header) {
      header = true;
      const prior = emitted.get(fam.name);
      if (prior !== undefined) {
        buf += `# ${fam.name}: skipped ${kind} stats, the name is already a ${prior}\n`;
        return false;
      }
      emitted.set(fam.name, kind);
      buf += `# HELP ${fam.name} ${helpText(fam.extractedName)}\n# TYPE ${fam.name} ${kind}\n`;
    }
    buf += sample(fam.name, m.promLabels ?? "", m);
    return true;
  };
  for (fam of list) {
    header = false;
    const part = fam.members.soleGroup();
    if (part === undefined) {
      for (const m of fam.members.sorted()) {
        if (!add(m)) break;
        if (chunkDue(buf.length, ++visited)) yield buf, buf = "";
      }
      continue;
    }
    // A cluster family: each stat is read while its block was just looked at, not through a
    // list of the family made first (the blocks are far apart in memory; one pass, not two).
    const { blocks, leaves } = part;
    blocks: for (const b of blocks) {
      for (let l = 0; l < leaves.length; l++) {
        const m = part.member(b, l);
        if (m === undefined) continue;
        if (!add(m)) break blocks;
        if (chunkDue(buf.length, ++visited)) yield buf, buf = "";
      }
    }
  }
  if (buf !== "") yield buf;
}

/**
 * The lines of one histogram: `_bucket` per bound and `+Inf`, `_sum`, `_count`. What every
 * histogram shares is made once per render: each bound's `le="..."} ` text, each bound's whole
 * tail for a count of 0 (`le="..."} 0` and the newline, most lines of most histograms), and the
 * array the cumulative counts are written into.
 */
function histogramSampler(bounds: readonly number[]): Sampler<HistogramImpl> {
  const n = bounds.length;
  const les = bounds.map((b) => `le="${formatPrometheus(b)}"} `);
  const zeros = les.map((le) => `${le}0\n`);
  const counts = new Float64Array(n);
  return (name, labels, h) => {
    const c = h.cumulative;
    c.cumulativeInto(bounds, counts);
    const pre = labels === "" ? `${name}_bucket{` : `${name}_bucket{${labels},`;
    let out = "";
    for (let k = 0; k < n; k++) {
      const v = counts[k];
      out += v === 0 ? pre + zeros[k] : pre + les[k] + v + "\n";
    }
    out += `${pre}le="+Inf"} ${c.count}\n`;
    out += `${name}_sum{${labels}} ${formatPrometheus(c.sum)}\n`;
    return out + `${name}_count{${labels}} ${c.count}\n`;
  };
}

/**
 * Renders the Prometheus form as chunks.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Store } from "./store.ts";
 * import { renderPrometheus } from "./render_prometheus.ts";
 * const s = new Store();
 * s.counter("a").inc();
 * assert.equal(
 *   [...renderPrometheus(s, { usedOnly: true })].join(""),
 *   "# HELP proxy_a a\n# TYPE proxy_a counter\nproxy_a{} 1\n",
 * );
 * ```
 */
export function* renderPrometheus(store: Store, opts: RenderOptions): Generator<string> {
  const emitted = new Map<string, Kind>();
  const p = store.prometheus;
  const numeric: Sampler<CounterImpl | GaugeImpl> = (name, labels, s) => {
    const v = s.value();
    // Small non-negative integers (nearly every counter and gauge) print as String(v) does.
    const text = v >= 0 && v <= 0x7fffffff && (v | 0) === v ? "" + v : formatPrometheus(v);
    return name + "{" + labels + "} " + text + "\n";
  };
  yield* families(p.counters.families(), "counter", opts, emitted, numeric);
  yield* families(p.gauges.families(), "gauge", opts, emitted, numeric);
  if (opts.textReadouts) {
    const text: Sampler<TextReadoutImpl> = (name, labels, s) =>
      `${name}{${labels}${labels ? "," : ""}text_value="${escapeLabelValue(s.value())}"} 0\n`;
    yield* families(p.texts.families(), "gauge", opts, emitted, text);
  }
  const hist = histogramSampler(store.bucketBounds);
  yield* families(p.histograms.families(), "histogram", opts, emitted, hist);
}
