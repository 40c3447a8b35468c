import assert from "node:assert/strict";
import { denoVersionWarning, Signals } from "./lifecycle.ts";
import { detectFeatures } from "./lifecycle_features.ts";

Deno.test("errors.optional-feature-absent: features come from the command line and the bootstrap, in both spellings", () => {
  assert.deepEqual([...detectFeatures({ enable_mutex_tracing: false }, {})].sort(), [
    "cpu_profiler",
    "heap_profiler",
  ]);
  const f = detectFeatures({ enable_mutex_tracing: true }, {
    stats_sinks: [{ name: "envoy.stat_sinks.hystrix" }],
    static_resources: {
      listeners: [{
        filter_chains: [{
          filters: [{
            name: "envoy.filters.network.http_connection_manager",
            typed_config: {
              http_filters: [
                { name: "envoy.filters.http.health_check" },
                {
                  name: "proxy.filters.http.tap",
                  typed_config: { common_config: { admin_config: { config_id: "t" } } },
                },
              ],
            },
          }],
        }],
      }],
    },
  });
  for (const k of ["mutex_tracing", "dashboard_sink", "health_check_filter", "tap"] as const) {
    assert.ok(f.has(k), k);
  }
});

Deno.test("versioning.version-string: a Deno other than 2.9.1 is warned about", () => {
  assert.equal(denoVersionWarning("2.9.1"), null);
  assert.match(denoVersionWarning("2.9.6")!, /SIGUSR1.*inspector/);
});

Deno.test("admin.states.quitquitquit: signal listeners are installed and removed", () => {
  const sig = new Signals({ onTerminate() {}, onReopen() {} });
  sig.start();
  sig.stop();
  sig.stop();
});
