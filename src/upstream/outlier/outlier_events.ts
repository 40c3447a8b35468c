/**
 * Outlier detection across data-plane workers: one detector per cluster for the whole process,
 * as in Envoy. A worker's cluster copy has no detector; it records the events a detector
 * consumes (each answer's status code, each local-origin result) per host, in order, and sends
 * them in batches ({@linkcode OutlierEventRecorder.take}); the main thread replays each batch
 * into its cluster's detector ({@linkcode replayOutlierEvents}), which ejects and returns hosts;
 * the ejection reaches every worker with the host set's health.
 *
 * A batch keeps each host's events in order as runs (`[event, count]`): an HTTP status code as
 * itself, a local-origin result as a negative code. Consecutive-failure counts therefore follow
 * each worker's order exactly; between workers, events interleave batch by batch.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { OutlierEventRecorder } from "./outlier_events.ts";
 * const r = new OutlierEventRecorder();
 * const sink = r.sink("demo");
 * const host = { key: "127.0.0.1:80" };
 * sink.putHttpResponseCode(host, 503);
 * sink.putHttpResponseCode(host, 503);
 * sink.putResult(host, "LOCAL_ORIGIN_CONNECT_FAILED");
 * assert.deepEqual(r.take(), [["demo", [["127.0.0.1:80", [[503, 2], [-1, 1]]]]]]);
 * assert.equal(r.take(), null);
 * ```
 * @module
 */
import type { LocalResult } from "./outlier_detector.ts";

/** Where a cluster's data path reports what outlier detection consumes. */
export interface OutlierSink<H> {
  putHttpResponseCode(h: H, code: number): void;
  putResult(h: H, r: LocalResult): void;
}

/** The negative code of each local-origin result in a batch. */
const LOCAL_CODE: Readonly<Record<LocalResult, number>> = {
  LOCAL_ORIGIN_CONNECT_FAILED: -1,
  LOCAL_ORIGIN_TIMEOUT: -2,
  LOCAL_ORIGIN_CONNECT_SUCCESS: -3,
  LOCAL_ORIGIN_CONNECT_SUCCESS_FINAL: -4,
};

const LOCAL_BY_CODE = new Map<number, LocalResult>(
  (Object.entries(LOCAL_CODE) as [LocalResult, number][]).map(([r, c]) => [c, r]),
);

/** Events by cluster, then by host key, as runs `[event, count]` in order. */
export type OutlierEventBatch = Array<[string, Array<[string, Array<[number, number]>]>]>;

/** Records a worker's outlier events until they are taken for sending. */
export class OutlierEventRecorder {
  #pending = new Map<string, Map<string, Array<[number, number]>>>();
  #count = 0;

  /**
   * @param onFirst Called when the first event after a {@linkcode take} is recorded (the worker
   *   schedules the next batch then).
   */
  constructor(readonly onFirst: () => void = () => {}) {}

  /** Events recorded since the last take. */
  get size(): number {
    return this.#count;
  }

  #record(cluster: string, key: string, event: number): void {
    if (this.#count++ === 0) this.onFirst();
    let hosts = this.#pending.get(cluster);
    if (!hosts) this.#pending.set(cluster, hosts = new Map());
    let runs = hosts.get(key);
    if (!runs) hosts.set(key, runs = []);
    const last = runs[runs.length - 1];
    if (last && last[0] === event) last[1]++;
    else runs.push([event, 1]);
  }

  /** The sink of cluster `cluster`'s copy. */
  sink(cluster: string): OutlierSink<{ readonly key: string }> {
    return {
      putHttpResponseCode: (h, code) => this.#record(cluster, h.key, code),
      putResult: (h, r) => this.#record(cluster, h.key, LOCAL_CODE[r]),
    };
  }

  /** The events recorded since the last take, or null when there are none. */
  take(): OutlierEventBatch | null {
    if (this.#count === 0) return null;
    const out: OutlierEventBatch = [];
    for (const [cluster, hosts] of this.#pending) out.push([cluster, [...hosts]]);
    this.#pending = new Map();
    this.#count = 0;
    return out;
  }
}

/**
 * Replays `batch` into the detectors: `detector(cluster)` is the cluster's detector and host
 * lookup (undefined: the cluster is gone or has no detection, its events are dropped); events of
 * hosts no longer in the cluster are dropped.
 */
export function replayOutlierEvents<H>(
  batch: OutlierEventBatch,
  detector: (
    cluster: string,
  ) => { sink: OutlierSink<H>; host(key: string): H | undefined } | undefined,
): void {
  for (const [cluster, hosts] of batch) {
    const d = detector(cluster);
    if (!d) continue;
    for (const [key, runs] of hosts) {
      const h = d.host(key);
      if (h === undefined) continue;
      for (const [event, count] of runs) {
        const local = LOCAL_BY_CODE.get(event);
        for (let i = 0; i < count; i++) {
          if (local) d.sink.putResult(h, local);
          else d.sink.putHttpResponseCode(h, event);
        }
      }
    }
  }
}
