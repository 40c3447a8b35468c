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
import type { ClusterBlocks, Family, GroupPart } from "./prometheus_index.ts";
import { CLUSTER_LABEL, GroupValues, NO_STAT } from "./group_values.ts";
import { chunkDue, type RenderOptions, selects } from "./render_options.ts";
import { formatPrometheus } from "./format_number.ts";
import { escapeLabelValue } from "./naming.ts";
import type { CounterImpl, GaugeImpl, TextReadoutImpl } from "./metrics.ts";
import type { HistogramImpl } from "./histogram.ts";
import { labelPairOf, type NamedStat, type StatBlock } from "./stat_name.ts";

type Kind = "counter" | "gauge" | "histogram";

/**
 * The lines of one stat of the family `name`: `open` is `name{`, `labels` the stat's label text
 * and `closed` that text followed by `} ` (what most lines hold between the brace and the value),
 * so a line is built of a few pieces made once per family or per cluster, not of six.
 */
type Sampler<T> = (name: string, open: string, labels: string, closed: string, stat: T) => string;

function helpText(s: string): string {
  return s.replace(/[\\\n]/g, (c) => (c === "\n" ? "\\n" : "\\\\"));
}

/**
 * The pieces joined into one flat string. Lines are built of pieces made once per family,
 * cluster or histogram; a piece made with `+` or a template (of 13 characters or more) is a cons
 * string that every line holding it would walk again when its chunk is encoded.
 */
function flat(...pieces: string[]): string {
  return pieces.join("");
}

/** `v` and a newline, for the small integers most counters and gauges hold, made once. */
const SMALL_VALUES = Array.from({ length: 256 }, (_, v) => `${v}\n`);

/** A sample value and the newline that ends its line. */
function valueLine(v: number): string {
  if (v >= 0 && v < SMALL_VALUES.length && (v | 0) === v) return SMALL_VALUES[v];
  // Other non-negative integers below 2^31 print as String(v) does.
  return (v >= 0 && v <= 0x7fffffff && (v | 0) === v ? "" + v : formatPrometheus(v)) + "\n";
}

/** The line of a counter or gauge: `name{`, its label text and `} `, its value. */
function numericLine(open: string, closed: string, v: number): string {
  return open + closed + valueLine(v);
}

/** What one render makes once and shares between families. */
interface RenderCache {
  /**
   * Each block's cluster label followed by `} `, per block array of a group (a cluster's label
   * is its stats' whole label text unless they have labels of their own).
   */
  closes: Map<readonly StatBlock[], Array<string | undefined>>;
  /** The values of a group's counters or gauges (see `group_values.ts`). */
  values: Map<ClusterBlocks<never>, GroupValues>;
}

/** The closed cluster labels of `blocks`, each made when a family of this render first needs it. */
function closedLabels(cache: RenderCache, blocks: readonly StatBlock[]): Array<string | undefined> {
  let closes = cache.closes.get(blocks);
  if (closes === undefined) cache.closes.set(blocks, closes = new Array(blocks.length));
  return closes;
}

/** Block number `bi`'s cluster label followed by `} `. */
function closedLabel(closes: Array<string | undefined>, b: StatBlock, bi: number): string {
  return closes[bi] ??= flat(b.promCluster!, "} ");
}

/** Blocks whose values are read between two chances for the stream to pause. */
const READ_STEP = 64;

/**
 * The values of `part`'s group, read (in steps, yielding `""` between them) unless this render
 * already did, and the column of each of `part`'s leaves; undefined when a leaf has none (it was
 * added to the group after the values were read).
 */
function* groupValues(
  cache: RenderCache,
  part: GroupPart<{ value(): number }>,
): Generator<string, { values: GroupValues; columns: number[] } | undefined> {
  const group = part.group as ClusterBlocks<never> | undefined;
  if (group === undefined) return undefined;
  let values = cache.values.get(group);
  if (values === undefined || values.blocks !== part.blocks) {
    cache.values.set(group, values = new GroupValues(part.blocks, [...group.leaves]));
  }
  const columns: number[] = [];
  for (const leaf of part.leaves) {
    const c = values.columns.get(leaf);
    if (c === undefined) return undefined;
    columns.push(c);
  }
  while (!values.read(READ_STEP)) yield "";
  return { values, columns };
}

function* families<T extends NamedStat & { used: boolean }>(
  list: readonly Family<T>[],
  kind: Kind,
  opts: RenderOptions,
  emitted: Map<string, Kind>,
  sample: Sampler<T>,
  cache: RenderCache,
  numeric = false,
): Generator<string> {
  const every = !opts.usedOnly && opts.filter === undefined;
  let buf = "";
  let visited = 0;
  let started = false;
  /** Adds the header of `fam` (or the comment that skips it); false when it is skipped. */
  const begin = (fam: Family<T>): boolean => {
    started = true;
    const prior = emitted.get(fam.name);
    if (prior !== undefined) {
      buf += `# ${fam.name}: skipped ${kind} stats, the name is already a ${prior}\n`;
      return false;
    }
    emitted.set(fam.name, kind);
    buf += `# HELP ${fam.name} ${helpText(fam.extractedName)}\n# TYPE ${fam.name} ${kind}\n`;
    return true;
  };
  for (const fam of list) {
    const name = fam.name, open = flat(name, "{");
    started = false;
    const part = fam.members.soleGroup();
    if (part === undefined) {
      for (const m of fam.members.sorted()) {
        if (every || selects(opts, m)) {
          if (!started && !begin(fam)) break;
          const labels = m.promLabels ?? "";
          buf += sample(name, open, labels, `${labels}} `, m);
        }
        if (chunkDue(buf.length, ++visited)) yield buf, buf = "";
      }
      continue;
    }
    // A cluster family: its stats are read block by block (see `group_values.ts`), or, with
    // options that pick stats, each while its block was just looked at.
    const { blocks, leaves } = part;
    const closes = closedLabels(cache, blocks);
    const read = numeric && every
      ? yield* groupValues(cache, part as unknown as GroupPart<{ value(): number }>)
      : undefined;
    blocks: for (let bi = 0; bi < blocks.length; bi++) {
      const b = blocks[bi];
      for (let l = 0; l < leaves.length; l++) {
        if (read !== undefined) {
          const cell = read.values.cell(read.columns[l], bi);
          const state = read.values.state[cell];
          if (state === NO_STAT) continue;
          if (!started && !begin(fam)) break blocks;
          if (state === CLUSTER_LABEL) {
            buf += numericLine(open, closedLabel(closes, b, bi), read.values.values[cell]);
          } else {
            const m = part.member(b, l)!, labels = m.promLabels!;
            buf += sample(name, open, labels, `${labels}} `, m);
          }
        } else {
          const m = part.member(b, l);
          if (m === undefined) continue;
          if (every || selects(opts, m)) {
            if (!started && !begin(fam)) break blocks;
            if (labelPairOf(b, m.index) < 0) {
              buf += sample(name, open, b.promCluster!, closedLabel(closes, b, bi), m);
            } else {
              const labels = m.promLabels!;
              buf += sample(name, open, labels, `${labels}} `, m);
            }
          }
        }
        if (chunkDue(buf.length, ++visited)) yield buf, buf = "";
      }
    }
  }
  if (buf !== "") yield buf;
  // The groups of one type are not listed by families of another.
  cache.values.clear();
}

/**
 * The lines of one histogram: `_bucket` per bound and `+Inf`, `_sum`, `_count`. What every
 * histogram shares is made once per render: each bound's `le="..."} ` text, each bound's whole
 * tail for small counts (`le="..."} 0` and the newline: most lines of most histograms), and the
 * array the cumulative counts are written into; what a family's histograms share (the names of
 * their three kinds of lines) once per family.
 */
function histogramSampler(bounds: readonly number[]): Sampler<HistogramImpl> {
  const n = bounds.length;
  const les = bounds.map((b) => flat('le="', formatPrometheus(b), '"} '));
  const SMALL = 16;
  const tails = les.map((le) => Array.from({ length: SMALL }, (_, v) => flat(le, `${v}\n`)));
  const counts = new Float64Array(n);
  let family = "", bucket = "", sum = "", count = "";
  return (name, _open, labels, closed, h) => {
    if (name !== family) {
      family = name;
      bucket = flat(name, "_bucket{"), sum = flat(name, "_sum{"), count = flat(name, "_count{");
    }
    const c = h.cumulative;
    c.cumulativeInto(bounds, counts);
    const pre = labels === "" ? bucket : flat(bucket, labels, ",");
    let out = "";
    for (let k = 0; k < n; k++) {
      const v = counts[k];
      out += v < SMALL && (v | 0) === v ? pre + tails[k][v] : pre + les[k] + v + "\n";
    }
    out += `${pre}le="+Inf"} ${c.count}\n`;
    out += sum + closed + formatPrometheus(c.sum) + "\n";
    return out + count + closed + c.count + "\n";
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
  const cache: RenderCache = { closes: new Map(), values: new Map() };
  const numeric: Sampler<CounterImpl | GaugeImpl> = (_name, open, _labels, closed, s) =>
    numericLine(open, closed, s.value());
  yield* families(p.counters.families(), "counter", opts, emitted, numeric, cache, true);
  yield* families(p.gauges.families(), "gauge", opts, emitted, numeric, cache, true);
  if (opts.textReadouts) {
    const text: Sampler<TextReadoutImpl> = (_name, open, labels, _closed, s) =>
      `${open}${labels}${labels ? "," : ""}text_value="${escapeLabelValue(s.value())}"} 0\n`;
    yield* families(p.texts.families(), "gauge", opts, emitted, text, cache);
  }
  const hist = histogramSampler(store.bucketBounds);
  yield* families(p.histograms.families(), "histogram", opts, emitted, hist, cache);
}
