/**
 * The JSON form of `/stats` (`format=json`): `{"stats":[...]}` with text readouts (string
 * values), then counters and gauges sorted by name (numbers), then, only when at least one
 * histogram is shown, one last element `{"histograms":...}`: quantiles
 * (`supported_quantiles`, `computed_quantiles`) or, with `histogram_buckets`, an array of
 * `{name, buckets}`. Compact, as real Envoy writes it. Yields chunks.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Store } from "./store.ts";
 * import { renderJson } from "./render_json.ts";
 * assert.equal([...renderJson(new Store(), {})].join(""), '{"stats":[]}');
 * ```
 * @module
 */
import type { Store } from "./store.ts";
import { chunkDue, type RenderOptions, selects } from "./render_options.ts";
import { jsonBuckets, jsonQuantiles } from "./histogram_format.ts";
import { JSON_QUANTILES } from "./histogram_settings.ts";
import { jsonNameQuoter } from "./json_name.ts";

/**
 * Renders the JSON form of `/stats` as chunks.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Store } from "./store.ts";
 * import { renderJson } from "./render_json.ts";
 * const s = new Store();
 * s.gauge("g").set(2);
 * assert.equal([...renderJson(s, {})].join(""), '{"stats":[{"name":"g","value":2}]}');
 * ```
 */
export function* renderJson(store: Store, opts: RenderOptions): Generator<string> {
  let buf = '{"stats":[';
  let first = true;
  let visited = 0;
  const sep = () => (first ? (first = false, "") : ",");
  const quote = jsonNameQuoter();
  for (const t of store.sortedTextReadouts()) {
    if (selects(opts, t)) {
      buf += `${sep()}{"name":${quote(t)},"value":${JSON.stringify(t.value())}}`;
    }
    if (chunkDue(buf.length, ++visited)) yield buf, buf = "";
  }
  for (const s of store.sortedNumeric()) {
    if (selects(opts, s)) {
      // One element per stat, the most of the body: written without a closure or a template.
      buf += (first ? '{"name":' : ',{"name":') + quote(s) + ',"value":' + s.value() + "}";
      first = false;
    }
    if (chunkDue(buf.length, ++visited)) yield buf, buf = "";
  }
  const mode = opts.histogramBuckets;
  let opened = false;
  for (const h of store.sortedHistograms()) {
    if (selects(opts, h)) {
      if (!opened) {
        opened = true;
        buf += sep() +
          (mode
            ? '{"histograms":['
            : `{"histograms":{"supported_quantiles":${
              JSON.stringify(JSON_QUANTILES)
            },"computed_quantiles":[`);
      } else buf += ",";
      buf += mode ? jsonBuckets(h, store.bucketBounds, mode) : jsonQuantiles(h, quote(h));
    }
    if (chunkDue(buf.length, ++visited)) yield buf, buf = "";
  }
  if (opened) buf += mode ? "]}" : "]}}";
  yield buf + "]}";
}
