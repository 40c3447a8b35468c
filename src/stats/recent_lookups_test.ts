import assert from "node:assert/strict";
import { RecentLookups } from "./recent_lookups.ts";

Deno.test("admin.states.recentlookups-enable: disabled at start, only the count accumulates", () => {
  const r = new RecentLookups();
  r.lookup("a");
  r.lookup("a");
  assert.equal(r.enabled, false);
  assert.equal(
    r.render(),
    "Lookup tracking is not enabled. Use /stats/recentlookups/enable to enable.\n\ntotal: 2\n",
  );
  r.enable();
  for (const [name, n] of [["alpha", 3], ["beta", 2], ["gamma", 1]] as const) {
    for (let i = 0; i < n; i++) r.lookup(name);
  }
  assert.equal(
    r.render(),
    "   Count Lookup\n       1 gamma\n       2 beta\n       3 alpha\n\ntotal: 8\n",
  );
});

Deno.test("admin.states.recentlookups-disable: disable clears the names and keeps the total", () => {
  const r = new RecentLookups();
  r.enable();
  r.lookup("x");
  r.disable();
  r.lookup("y");
  assert.equal(r.total, 2);
  assert.deepEqual(r.entries(), []);
});

Deno.test("admin.states.recentlookups-clear: clear resets names and count, collection continues", () => {
  const r = new RecentLookups();
  r.enable();
  r.lookup("x");
  r.clear();
  assert.equal(r.render(), "   Count Lookup\n\ntotal: 0\n");
  r.lookup("z");
  assert.deepEqual(r.entries(), [["z", 1]]);
});

Deno.test("recent lookups keep at most the capacity, evicting the least recent", () => {
  const r = new RecentLookups(2);
  r.enable();
  r.lookup("a");
  r.lookup("b");
  r.lookup("a");
  r.lookup("c");
  assert.deepEqual(r.entries().map(([n]) => n).sort(), ["a", "c"]);
});
