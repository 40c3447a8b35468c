/**
 * What every stats renderer shares: the options of a `/stats` query and the chunking rule. A
 * renderer is a generator of string chunks: it yields a chunk once about {@linkcode CHUNK_CHARS}
 * characters are buffered, and an empty string after every {@linkcode VISIT_BATCH} stats it looked
 * at, so a caller can pause between chunks even when a filter matches nothing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { selects } from "./render_options.ts";
 * assert.equal(selects({ usedOnly: true }, { name: "a", used: false }), false);
 * ```
 * @module
 */

/** Histogram bucket display modes of `histogram_buckets`. */
export type BucketMode = "cumulative" | "disjoint";

/** Options of one render. */
export interface RenderOptions {
  /** Only stats written at least once (`usedonly`). */
  usedOnly?: boolean;
  /** Only stats whose full name passes (`filter`). */
  filter?: (name: string) => boolean;
  /** Histograms as buckets instead of quantiles (text and JSON). */
  histogramBuckets?: BucketMode;
  /** Include text readouts (Prometheus `text_readouts`). */
  textReadouts?: boolean;
}

/** Characters buffered before a chunk is yielded. */
export const CHUNK_CHARS = 64 * 1024;

/** Stats looked at between two yields. */
export const VISIT_BATCH = 2048;

/**
 * Whether a renderer yields now: {@linkcode CHUNK_CHARS} are buffered, or `visited` (the count of
 * stats looked at so far, this one included) completes a batch of {@linkcode VISIT_BATCH}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { chunkDue, VISIT_BATCH } from "./render_options.ts";
 * assert.equal(chunkDue(10, VISIT_BATCH), true);
 * assert.equal(chunkDue(10, 1), false);
 * ```
 */
export function chunkDue(buffered: number, visited: number): boolean {
  return buffered >= CHUNK_CHARS || visited % VISIT_BATCH === 0;
}

/**
 * Whether a stat is selected by `usedonly` and `filter`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { selects } from "./render_options.ts";
 * assert.equal(selects({ filter: (n) => n.startsWith("a") }, { name: "ab", used: false }), true);
 * ```
 */
export function selects(opts: RenderOptions, stat: { name: string; used: boolean }): boolean {
  if (opts.usedOnly && !stat.used) return false;
  return opts.filter === undefined || opts.filter(stat.name);
}
