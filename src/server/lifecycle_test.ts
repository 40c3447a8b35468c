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

Deno.test("cli.options.log-path: SIGUSR1 reaches the reopen hook while installed, and not after stop", async () => {
  let reopened = 0;
  let guard = 0;
  // Keeps SIGUSR1 from ending the test process whatever Signals does.
  const keep = () => void guard++;
  Deno.addSignalListener("SIGUSR1", keep);
  const until = async (cond: () => boolean) => {
    for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  };
  try {
    const sig = new Signals({ onTerminate() {}, onReopen: () => void reopened++ });
    sig.start();
    Deno.kill(Deno.pid, "SIGUSR1");
    await until(() => guard === 1);
    assert.equal(reopened, 1, "SIGUSR1 did not reach the reopen hook");
    sig.stop();
    sig.stop();
    Deno.kill(Deno.pid, "SIGUSR1");
    await until(() => guard === 2);
    assert.equal(guard, 2, "the second SIGUSR1 was not delivered");
    assert.equal(reopened, 1, "the reopen hook still ran after stop()");
  } finally {
    Deno.removeSignalListener("SIGUSR1", keep);
  }
});
