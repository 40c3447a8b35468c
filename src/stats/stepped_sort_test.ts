import assert from "node:assert/strict";
import { SteppedSort } from "./stepped_sort.ts";

Deno.test("admin.endpoints.stats-prometheus: a sort done in steps orders as one sort does", () => {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (const n of [0, 1, 2, 3, 17, 64, 1000, 4097]) {
    const keys = Array.from({ length: n }, () => `k${Math.floor(random() * n / 3)}\ud800`);
    const want = keys.map((_, i) => i).sort((a, b) =>
      keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : a - b
    );
    for (const budget of [1, 100, Infinity]) {
      const s = new SteppedSort(keys);
      let steps = 0;
      while (!s.step(budget)) steps++;
      assert.deepEqual([...s.perm], want, `n=${n} budget=${budget}`);
      assert.equal(s.done, true);
      if (budget === 1 && n > 2) assert.ok(steps > 1);
    }
  }
});
