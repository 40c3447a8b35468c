/**
 * Which optional features a process has (the `requires` column of the endpoint table):
 * `health_check_filter` when a listener uses the HTTP health check filter, `tap` when a tap filter
 * has an `admin_config`, `dashboard_sink` when the hystrix stats sink is configured,
 * `mutex_tracing` with `--enable-mutex-tracing`, and the CPU and heap profilers, which
 * `node:inspector` always provides on Deno 2.9.1. Filter and sink names are accepted in both the
 * `envoy.` and the `proxy.` spelling.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { detectFeatures } from "./lifecycle_features.ts";
 * const f = detectFeatures({ enable_mutex_tracing: true }, {});
 * assert.equal(f.has("mutex_tracing"), true);
 * ```
 * @module
 */
import type { Feature } from "../../spec/rule.ts";
import type { Options } from "../config/options.ts";
import type { Bootstrap } from "../config/bootstrap_types.ts";
import { canonicalFilterName } from "../config/filter_names.ts";

/** Canonical names of the filters and sinks that bring a feature. */
export const FEATURE_NAMES = {
  healthCheck: "proxy.filters.http.health_check",
  tap: "proxy.filters.http.tap",
  hystrix: "proxy.stat_sinks.hystrix",
} as const;

function* objects(v: unknown, depth = 0): Generator<Record<string, unknown>> {
  if (depth > 64 || v === null || typeof v !== "object") return;
  if (Array.isArray(v)) {
    for (const x of v) yield* objects(x, depth + 1);
    return;
  }
  const o = v as Record<string, unknown>;
  yield o;
  for (const x of Object.values(o)) yield* objects(x, depth + 1);
}

/** The features present for this command line and bootstrap. */
export function detectFeatures(
  options: Pick<Options, "enable_mutex_tracing">,
  bootstrap: Bootstrap,
): Set<Feature> {
  const f = new Set<Feature>(["cpu_profiler", "heap_profiler"]);
  if (options.enable_mutex_tracing) f.add("mutex_tracing");
  for (const o of objects(bootstrap.static_resources?.listeners ?? [])) {
    if (typeof o.name !== "string") continue;
    const name = canonicalFilterName(o.name);
    if (name === FEATURE_NAMES.healthCheck) f.add("health_check_filter");
    if (name === FEATURE_NAMES.tap) {
      for (const inner of objects(o)) {
        const admin = inner.admin_config as Record<string, unknown> | undefined;
        if (admin && typeof admin === "object" && typeof admin.config_id === "string") f.add("tap");
      }
    }
  }
  const sinks = Array.isArray(bootstrap.stats_sinks) ? bootstrap.stats_sinks : [];
  for (const s of sinks) {
    if (typeof s.name === "string" && canonicalFilterName(s.name) === FEATURE_NAMES.hystrix) {
      f.add("dashboard_sink");
    }
  }
  return f;
}
