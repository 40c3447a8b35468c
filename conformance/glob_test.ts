import assert from "node:assert/strict";
import fc from "fast-check";
import { globToRegExp, matchesAny } from "./glob.ts";

Deno.test("runner selectors: globs match whole rule IDs", () => {
  assert.equal(matchesAny("admin.endpoints.stats", ["admin.endpoints.*"]), true);
  assert.equal(matchesAny("admin.endpoints.stats", ["admin.*.stats"]), true);
  assert.equal(matchesAny("admin.endpoints.stats", ["admin.endpoint?.stats"]), true);
  assert.equal(matchesAny("admin.endpoints.stats", ["cli.*"]), false);
  assert.equal(matchesAny("admin.endpoints.stats-usedonly", ["admin.endpoints.stats"]), false);
  assert.equal(matchesAny("admin.endpoints.stats.x", ["admin.endpoints.stats"]), true);
  assert.equal(matchesAny("anything", []), true);
});

Deno.test("runner selectors: regular-expression characters are literal", () => {
  assert.equal(globToRegExp("a.b").test("aXb"), false);
  assert.equal(globToRegExp("a+b").test("a+b"), true);
  assert.equal(globToRegExp("(x)").test("(x)"), true);
});

Deno.test("runner selectors: an ID always matches itself and the star", () => {
  fc.assert(
    fc.property(fc.stringMatching(/^[a-z0-9_]+(\.[a-z0-9_-]+)+$/), (id) => {
      return matchesAny(id, [id]) && matchesAny(id, ["*"]) &&
        matchesAny(id, [`${id.split(".")[0]}.*`]);
    }),
  );
});
