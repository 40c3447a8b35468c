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

Deno.test("admin.endpoints.stats: sorting in small slices, with additions between slices, ends in name order", () => {
  const t = new NameTrie<{ name: string }>();
  const names: string[] = [];
  for (let i = 0; i < 300; i++) {
    const name = `cluster.c${(i * 37) % 100}.s${i % 7}${i % 3 ? ".x" : ""}`;
    names.push(name);
    t.add({ name });
    if (i % 50 === 0) { while (!t.settle(1 + (i % 5))); }
    else t.settle(3);
  }
  let slices = 0;
  while (!t.settle(10)) slices++;
  assert.ok(slices > 10);
  assert.deepEqual(t.sorted().map((s) => s.name), [...names].sort(codeUnitOrder));
});

Deno.test("admin.endpoints.stats: the flattened order is reused while held, and made again after an addition", () => {
  const t = new NameTrie<{ name: string }>();
  for (const name of ["b.x", "a.y", "c"]) t.add({ name });
  const first = t.sorted();
  assert.equal(t.sorted(), first);
  assert.equal(t.settle(1), true);
  t.add({ name: "a.a" });
  assert.equal(t.settle(Infinity, false), true, "ordered, not flattened");
  const next = t.sorted();
  assert.notEqual(next, first);
  assert.deepEqual(next.map((s) => s.name), ["a.a", "a.y", "b.x", "c"]);
  assert.deepEqual(first.map((s) => s.name), ["a.y", "b.x", "c"]);
});
