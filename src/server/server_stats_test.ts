import assert from "node:assert/strict";
import { Store } from "../stats/store.ts";
import {
  attachServerStats,
  NO_CERT_DAYS,
  registerServerStats,
  versionNumber,
} from "./server_stats.ts";

const NAMES = [
  "live",
  "state",
  "uptime",
  "concurrency",
  "memory_allocated",
  "memory_heap_size",
  "stats_recent_lookups",
  "static_unknown_fields",
  "dynamic_unknown_fields",
  "version",
  "hot_restart_epoch",
  "days_until_first_cert_expiring",
  "total_connections",
  "parent_connections",
  "debug_assertion_failures",
  "initialization_time_ms",
];

Deno.test("registerServerStats creates every server stat", () => {
  const store = new Store();
  const stats = registerServerStats(store);
  assert.deepEqual(Object.keys(stats).sort(), [...NAMES].sort());
  const names = [...store.sortedNumeric(), ...store.sortedHistograms()].map((s) => s.name);
  assert.deepEqual(names.sort(), NAMES.map((n) => `server.${n}`).sort());
  assert.equal(stats.initialization_time_ms.unit, "milliseconds");
});

Deno.test("admin.states.server-live-ready: server stats refresh on each flush", () => {
  const store = new Store();
  let state: "LIVE" | "DRAINING" = "LIVE";
  const detach = attachServerStats(store, () => ({
    state,
    uptimeSeconds: 15.7,
    concurrency: 2,
    version: "68ba4f/1.0.0/Clean/RELEASE/BoringSSL",
  }));
  const g = (n: string) => store.gauge(`server.${n}`).value();
  assert.deepEqual([g("live"), g("state"), g("uptime"), g("concurrency")], [1, 0, 15, 2]);
  assert.equal(g("days_until_first_cert_expiring"), NO_CERT_DAYS);
  assert.equal(g("version"), 0x68ba4f);
  assert.ok(g("memory_allocated") > 0);
  state = "DRAINING";
  store.flush();
  assert.deepEqual([g("live"), g("state")], [0, 1]);
  assert.ok(g("stats_recent_lookups") > 0);
  detach();
});

Deno.test("server.version from a number or a non-hex string", () => {
  assert.equal(versionNumber(42), 42);
  assert.equal(versionNumber("zzz/1"), 0);
});
