/**
 * The values of a group's counters or gauges (see `prometheus_index.ts`), read block by block for
 * one Prometheus render. A render lists a group family by family, each family over every block,
 * so reading stats in that order visits each of 10,000 blocks (and each stat's object and counter
 * slot, far apart in memory) once per family; reading them here visits each block once, its stats
 * in the order they were made (near one another in memory), and the families then read two typed
 * arrays in order. The blocks are read in steps, so a render can return to the event loop between
 * them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LeafTable, LeafTemplate } from "./leaf_table.ts";
 * import { GroupValues } from "./group_values.ts";
 * const t = new LeafTable<{ value(): number }>(new LeafTemplate(), "cluster.a.");
 * t.promCluster = 'proxy_cluster_name="a"';
 * t.add("x", { value: () => 7 });
 * const v = new GroupValues([t], ["w", "x"]);
 * assert.equal(v.read(100), true);
 * assert.equal(v.state[v.cell(0, 0)], 0); // no stat of leaf "w"
 * assert.equal(v.values[v.cell(1, 0)], 7);
 * ```
 * @module
 */
import type { KeyedBlock } from "./prometheus_index.ts";
import { labelPairOf } from "./stat_name.ts";

/** {@linkcode GroupValues.state} of a cell whose block has no stat of the leaf. */
export const NO_STAT = 0;
/** State of a cell whose stat's label text is its block's cluster label alone; value read. */
export const CLUSTER_LABEL = 1;
/** State of a cell whose stat has labels of its own: a render reads the stat itself. */
export const OWN_LABELS = 2;

/**
 * The values of the stats of `leaves` in `blocks` (one group's blocks in head order), cell
 * `leaf * blocks.length + block`.
 */
export class GroupValues {
  /** Each cell's value, for cells in state {@linkcode CLUSTER_LABEL}. */
  readonly values: Float64Array;
  /** Each cell's state: {@linkcode NO_STAT}, {@linkcode CLUSTER_LABEL} or {@linkcode OWN_LABELS}. */
  readonly state: Uint8Array;
  /** The column of each leaf. */
  readonly columns: Map<string, number>;
  /** Blocks read so far. */
  #done = 0;

  /** Values of `leaves` in `blocks`, none read yet. */
  constructor(
    readonly blocks: readonly KeyedBlock<{ value(): number }>[],
    readonly leaves: readonly string[],
  ) {
    const cells = blocks.length * leaves.length;
    this.values = new Float64Array(cells);
    this.state = new Uint8Array(cells);
    this.columns = new Map(leaves.map((l, c) => [l, c]));
  }

  /** The cell of leaf column `column` in block number `block`. */
  cell(column: number, block: number): number {
    return column * this.blocks.length + block;
  }

  /** Reads up to `count` more blocks; true when every block is read. */
  read(count: number): boolean {
    const { blocks, leaves, values, state } = this;
    const n = blocks.length, end = Math.min(n, this.#done + count);
    for (let bi = this.#done; bi < end; bi++) {
      const b = blocks[bi];
      const size = b.size;
      for (let c = 0; c < leaves.length; c++) {
        // Blocks built alike hold the leaves in the order the group first saw them.
        const at = c < size && b.leafAt(c) === leaves[c] ? c : b.indexOf(leaves[c]);
        if (at < 0) continue;
        const cell = c * n + bi;
        if (labelPairOf(b, at) < 0) {
          state[cell] = CLUSTER_LABEL;
          values[cell] = b.at(at).value();
        } else state[cell] = OWN_LABELS;
      }
    }
    this.#done = end;
    return end === n;
  }
}
