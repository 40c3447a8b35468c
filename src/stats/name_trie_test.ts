import assert from "node:assert/strict";
import fc from "fast-check";
import { NameTrie } from "./name_trie.ts";

const codeUnitOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

Deno.test("admin.endpoints.stats: trie order equals code-unit order of full names", () => {
  const seg = fc.stringMatching(/^[a-c\-_.!0-9]{0,3}$/);
  fc.assert(
    fc.property(
      fc.array(fc.array(seg, { minLength: 1, maxLength: 4 }), { maxLength: 40 }),
      (xs) => {
        const names = xs.map((s) => s.join("."));
        const t = new NameTrie<{ name: string }>();
        const half = Math.floor(names.length / 2);
        names.slice(0, half).forEach((name) => t.add({ name }));
        t.sorted();
        names.slice(half).forEach((name) => t.add({ name }));
        assert.deepEqual(t.sorted().map((s) => s.name), [...names].sort(codeUnitOrder));
        assert.equal(t.size, names.length);
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("admin.endpoints.stats: scopes sort like Envoy's SortedScopes test", () => {
  const t = new NameTrie<{ name: string }>();
  for (const name of ["z", "scope.t", "scope.subscope.x", "a", "scope.s", "scope.r"]) {
    t.add({ name });
  }
  const snap = t.sorted();
  assert.deepEqual(snap.map((s) => s.name), [
    "a",
    "scope.r",
    "scope.s",
    "scope.subscope.x",
    "scope.t",
    "z",
  ]);
  t.add({ name: "b" });
  assert.equal(snap.length, 6, "a snapshot does not change");
  assert.equal(t.sorted()[1].name, "b");
});
