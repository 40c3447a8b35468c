import assert from "node:assert/strict";
import fc from "fast-check";
import { compileStatFilter, filterEngine, RE2_RUNTIME_KEYS } from "./stats_filter.ts";

Deno.test("admin.stats_shapes.filter-partial-match: partial unless anchored", () => {
  for (const engine of ["re2", "ecmascript"] as const) {
    const f = (p: string) => {
      const c = compileStatFilter(p, engine);
      assert.ok(c.ok);
      return c.test;
    };
    assert.equal(f("upstream")("cluster.web.upstream_rq"), true);
    assert.equal(f("^upstream")("cluster.web.upstream_rq"), false);
    assert.equal(f("^cluster\\.web\\.upstream_rq$")("cluster.web.upstream_rq"), true);
    assert.equal(f("rq$")("cluster.web.upstream_rq_total"), false);
  }
});

Deno.test("admin.stats_shapes.filter-linear-engine: catastrophic patterns stay fast with RE2", () => {
  const c = compileStatFilter("^(a+)+$", "re2");
  assert.ok(c.ok);
  assert.equal(c.test("a".repeat(5000) + "!"), false);
  const bad = compileStatFilter("(?<=a)b", "re2");
  assert.ok(!bad.ok);
  assert.match(bad.error, /^Invalid re2 regex: /);
});

Deno.test("admin.stats_shapes.filter-runtime-switch: false selects ECMAScript", () => {
  assert.equal(filterEngine(() => undefined), "re2");
  for (const key of RE2_RUNTIME_KEYS) {
    assert.equal(filterEngine((k) => (k === key ? "false" : undefined)), "ecmascript");
    assert.equal(filterEngine((k) => (k === key ? "true" : undefined)), "re2");
  }
  const look = compileStatFilter("(?<=a)b", "ecmascript");
  assert.ok(look.ok && look.test("ab"));
  const bad = compileStatFilter("(a", "ecmascript");
  assert.ok(!bad.ok && bad.error.startsWith("Invalid regex: "));
});

Deno.test("compiling any pattern never throws", () => {
  fc.assert(fc.property(fc.string(), (p) => {
    compileStatFilter(p, "re2");
    compileStatFilter(p, "ecmascript");
  }));
});
