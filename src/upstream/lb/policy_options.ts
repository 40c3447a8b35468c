/**
 * The per-policy settings a cluster's configuration gives its balancer beyond the effective
 * cluster: MAGLEV's `maglev_lb_config.table_size`, LEAST_REQUEST's `active_request_bias`, and the
 * `slow_start_config` of ROUND_ROBIN (`round_robin_lb_config`) and LEAST_REQUEST
 * (`least_request_lb_config`). `core.RuntimeDouble` values take a numeric runtime value under
 * their `runtime_key` over their `default_value`, read when the balancer reads them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { policyOptions } from "./policy_options.ts";
 * const o = policyOptions({ lb_policy: "MAGLEV", maglev_lb_config: { table_size: 101 } });
 * assert.equal(o.maglevTableSize, 101);
 * ```
 * @module
 */
import type { JsonObject } from "../../config/bootstrap_types.ts";
import { valueOf } from "../../config/defaults.ts";
import type { LbOptions } from "./load_balancer.ts";
import type { SlowStartOptions } from "./slow_start.ts";

/** Reads runtime values by key. */
export interface RuntimeValues {
  get(key: string): string | undefined;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? v as Obj : undefined;

/** A `core.RuntimeDouble`: the runtime's numeric value under its key, else its default. */
export function runtimeDouble(
  rd: Obj,
  runtime: RuntimeValues | undefined,
  fallback: number,
): () => number {
  const dflt = typeof rd.default_value === "number" ? rd.default_value : fallback;
  const key = typeof rd.runtime_key === "string" ? rd.runtime_key : "";
  return () => {
    const v = key ? runtime?.get(key) : undefined;
    const n = v === undefined || v.trim() === "" ? NaN : Number(v);
    return Number.isFinite(n) ? n : dflt;
  };
}

/** The slow start settings of `ssc` (a `Cluster.SlowStartConfig`). */
export function slowStartOptions(
  ssc: Obj,
  runtime?: RuntimeValues,
  now: () => number = () => performance.now(),
): SlowStartOptions {
  const aggr = obj(ssc.aggression);
  return {
    windowMs: (valueOf("Cluster.SlowStartConfig", ssc, "slow_start_window") as number) ?? 0,
    aggression: aggr ? runtimeDouble(aggr, runtime, 1) : () => 1,
    minWeightPercent: valueOf("Cluster.SlowStartConfig", ssc, "min_weight_percent") as number,
    now,
  };
}

/** The balancer options `config` (a cluster) sets for its `lb_policy`. */
export function policyOptions(
  config: JsonObject,
  runtime?: RuntimeValues,
  now?: () => number,
): Partial<LbOptions> {
  const out: Partial<LbOptions> = {};
  const maglev = obj(config.maglev_lb_config);
  if (maglev) {
    out.maglevTableSize = valueOf("Cluster.MaglevLbConfig", maglev, "table_size") as number;
  }
  const lr = obj(config.least_request_lb_config);
  const bias = obj(lr?.active_request_bias);
  if (bias) {
    const read = runtimeDouble(bias, runtime, 1);
    const valid = () => {
      const b = read();
      return b >= 0 ? b : 1;
    };
    out.activeRequestBias = valid();
    out.activeRequestBiasNow = valid;
  }
  const ssc = obj(lr?.slow_start_config) ??
    obj(obj(config.round_robin_lb_config)?.slow_start_config);
  if (ssc) out.slowStart = slowStartOptions(ssc, runtime, now);
  return out;
}
