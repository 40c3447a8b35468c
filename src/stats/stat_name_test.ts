import assert from "node:assert/strict";
import fc from "fast-check";
import { compareNameParts } from "./stat_name.ts";

const codeUnitOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

Deno.test("admin.endpoints.stats: comparing head and leaf equals comparing full names", () => {
  const part = fc.stringMatching(/^[a-c\-_.]{0,4}$/);
  fc.assert(
    fc.property(part, part, part, part, (h1, l1, h2, l2) => {
      assert.equal(compareNameParts(h1, l1, h2, l2), codeUnitOrder(h1 + l1, h2 + l2));
    }),
    { numRuns: 2000 },
  );
});
