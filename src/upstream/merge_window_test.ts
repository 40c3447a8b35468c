import assert from "node:assert/strict";
import { UpdateMergeWindow } from "./merge_window.ts";
import { Store } from "../stats/store.ts";

function stats(store: Store) {
  const s = store.scope("cluster_manager");
  return {
    cancelled: s.counter("update_merge_cancelled"),
    outOfWindow: s.counter("update_out_of_merge_window"),
    viaMerge: s.counter("cluster_updated_via_merge"),
  };
}

Deno.test("cluster.objects.common-lb-config.update-merge-window: the first update applies at once, later ones within the window are merged, membership changes never wait", async () => {
  const store = new Store();
  let t = 0;
  const w = new UpdateMergeWindow(20, stats(store), () => t);
  const seen: string[] = [];
  w.update("health", true, () => seen.push("h1"));
  assert.deepEqual(seen, ["h1"], "first: at once");
  t = 5;
  w.update("health", true, () => seen.push("h2"));
  w.update("health", true, () => seen.push("h3"));
  assert.deepEqual(seen, ["h1"], "within the window: held");
  assert.ok(w.holding);
  // The window ends: the merged update (the latest of its kind) is delivered.
  for (let i = 0; i < 500 && w.holding; i++) await new Promise((r) => setTimeout(r, 5));
  assert.deepEqual(seen, ["h1", "h3"]);
  assert.equal(store.counter("cluster_manager.cluster_updated_via_merge").value(), 1);
  // Held again, then a membership change delivers at once and takes the held one with it.
  t = 10;
  w.update("health", true, () => seen.push("h4"));
  w.update("hosts", false, () => seen.push("added"));
  assert.deepEqual(seen, ["h1", "h3", "added", "h4"]);
  assert.equal(store.counter("cluster_manager.update_merge_cancelled").value(), 1);
  // After a quiet window, an update applies at once again.
  t = 100;
  w.update("health", true, () => seen.push("h5"));
  assert.deepEqual(seen.at(-1), "h5");
  assert.equal(store.counter("cluster_manager.update_out_of_merge_window").value(), 1);
  w.close();
});

Deno.test("cluster.objects.common-lb-config.update-merge-window: a zero window applies every update at once", () => {
  const w = new UpdateMergeWindow(0, undefined, () => 0);
  const seen: number[] = [];
  for (let i = 0; i < 5; i++) w.update("health", true, () => seen.push(i));
  assert.deepEqual(seen, [0, 1, 2, 3, 4]);
  w.close();
});
