import assert from "node:assert/strict";
import fc from "fast-check";
import { SortedIndex } from "./sorted_index.ts";

Deno.test("sorted index equals a full sort however items arrive", () => {
  fc.assert(
    fc.property(fc.array(fc.array(fc.string(), { maxLength: 20 }), { maxLength: 5 }), (batches) => {
      const ix = new SortedIndex<{ name: string }>();
      const all: string[] = [];
      for (const batch of batches) {
        for (const name of batch) ix.add({ name }), all.push(name);
        if (batch.length % 2 === 0) { while (!ix.settle(3)); }
        else ix.sorted();
      }
      all.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      assert.deepEqual(ix.sorted().map((s) => s.name), all);
      assert.equal(ix.size, all.length);
    }),
  );
});

Deno.test("a sorted snapshot is not changed by later additions", () => {
  const ix = new SortedIndex<{ name: string }>();
  ix.add({ name: "b" });
  const snap = ix.sorted();
  ix.add({ name: "a" });
  ix.sorted();
  assert.deepEqual(snap.map((s) => s.name), ["b"]);
});

Deno.test("admin.endpoints.stats: items added in order merge like items added in any order", () => {
  const ix = new SortedIndex<{ name: string }>();
  for (const name of ["m", "c", "x"]) ix.add({ name });
  ix.sorted();
  for (const name of ["a", "n", "z"]) ix.addInOrder({ name });
  assert.deepEqual(ix.sorted().map((s) => s.name), ["a", "c", "m", "n", "x", "z"]);
  ix.addInOrder({ name: "b" });
  ix.add({ name: "a0" });
  assert.deepEqual(ix.sorted().map((s) => s.name), ["a", "a0", "b", "c", "m", "n", "x", "z"]);
});

Deno.test("admin.endpoints.stats: items added in order are taken whole by one settle", () => {
  const ix = new SortedIndex<{ name: string }>();
  ix.add({ name: "b" });
  assert.equal(ix.settle(1), true);
  for (const name of ["a", "c", "d"]) ix.addInOrder({ name });
  assert.equal(ix.settle(1), true);
  assert.deepEqual(ix.sorted().map((i) => i.name), ["a", "b", "c", "d"]);
});
