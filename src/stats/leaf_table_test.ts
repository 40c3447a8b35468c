import assert from "node:assert/strict";
import fc from "fast-check";
import { LeafTable, LeafTemplate } from "./leaf_table.ts";

Deno.test("admin.endpoints.stats: tables sharing templates find what each one added, in order", () => {
  const op = fc.tuple(fc.nat({ max: 5 }), fc.stringMatching(/^[a-e]{1,2}$/));
  fc.assert(
    fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
      const root = new LeafTemplate();
      const tables = Array.from({ length: 6 }, () => new LeafTable<string>(root));
      const model = Array.from({ length: 6 }, () => new Map<string, string>());
      ops.forEach(([t, leaf], i) => {
        if (model[t].has(leaf)) return;
        tables[t].add(leaf, `${t}:${leaf}:${i}`);
        model[t].set(leaf, `${t}:${leaf}:${i}`);
      });
      for (let t = 0; t < 6; t++) {
        for (const leaf of ["a", "b", "c", "d", "e", "aa", "zz"]) {
          assert.equal(tables[t].get(leaf), model[t].get(leaf));
        }
        assert.deepEqual([...tables[t].values()], [...model[t].values()]);
      }
    }),
    { numRuns: 300 },
  );
});

Deno.test("admin.endpoints.stats: a table that diverges from every template gets a map of its own", () => {
  const root = new LeafTemplate();
  const tables = Array.from({ length: 20 }, () => new LeafTable<number>(root));
  tables.forEach((t, i) => {
    t.add("shared", 0);
    t.add(`own_${i}`, i);
  });
  tables.forEach((t, i) => {
    assert.equal(t.get("shared"), 0);
    assert.equal(t.get(`own_${i}`), i);
    assert.equal(t.get(`own_${(i + 1) % 20}`), undefined);
  });
});
