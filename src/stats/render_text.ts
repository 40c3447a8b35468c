/**
 * The text form of `/stats`: text readouts first (`name: "value"`), then counters and gauges
 * together sorted by name (`name: value`), then histograms sorted by name (quantiles, or buckets
 * with `histogram_buckets`). Yields chunks (see `render_options.ts`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Store } from "./store.ts";
 * import { renderText } from "./render_text.ts";
 * const store = new Store();
 * store.counter("c1").inc(10);
 * assert.equal([...renderText(store, {})].join(""), "c1: 10\n");
 * ```
 * @module
 */
import type { Store } from "./store.ts";
import { chunkDue, type RenderOptions, selects } from "./render_options.ts";
import { bucketSummary, quantileSummary } from "./histogram_format.ts";

/**
 * Renders the text form of `/stats` as chunks.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Store } from "./store.ts";
 * import { renderText } from "./render_text.ts";
 * const s = new Store();
 * s.textReadout("t").set("x");
 * assert.equal([...renderText(s, {})].join(""), 't: "x"\n');
 * ```
 */
export function* renderText(store: Store, opts: RenderOptions): Generator<string> {
  let buf = "";
  let visited = 0;
  for (const t of store.sortedTextReadouts()) {
    if (selects(opts, t)) buf += `${t.name}: ${JSON.stringify(t.value())}\n`;
    if (chunkDue(buf.length, ++visited)) yield buf, buf = "";
  }
  for (const s of store.sortedNumeric()) {
    if (selects(opts, s)) buf += `${s.name}: ${s.value()}\n`;
    if (chunkDue(buf.length, ++visited)) yield buf, buf = "";
  }
  const mode = opts.histogramBuckets;
  for (const h of store.sortedHistograms()) {
    if (selects(opts, h)) {
      const body = mode ? bucketSummary(h, store.bucketBounds, mode) : quantileSummary(h);
      buf += `${h.name}: ${body}\n`;
    }
    if (chunkDue(buf.length, ++visited)) yield buf, buf = "";
  }
  if (buf !== "") yield buf;
}
