import assert from "node:assert/strict";
import fc from "fast-check";
import {
  compileStatFilter,
  type FilterEngine,
  filterEngine,
  RE2_RUNTIME_KEYS,
} from "./stats_filter.ts";
import { ADMIN_REGEX_MAX_LENGTH } from "../platform/re2.ts";

/** Whether `pattern` selects `name` with `engine` (the ECMAScript engine runs off-thread). */
async function selects(pattern: string, engine: FilterEngine, name: string): Promise<boolean> {
  const c = compileStatFilter(pattern, engine);
  assert.ok(c.ok);
  if (c.engine === "re2") return c.test(name);
  const s = await c.select([name]);
  assert.ok(s.ok);
  return s.test(name);
}

Deno.test("admin.stats_shapes.filter-partial-match: partial unless anchored", async () => {
  for (const engine of ["re2", "ecmascript"] as const) {
    assert.equal(await selects("upstream", engine, "cluster.web.upstream_rq"), true);
    assert.equal(await selects("^upstream", engine, "cluster.web.upstream_rq"), false);
    assert.equal(
      await selects("^cluster\\.web\\.upstream_rq$", engine, "cluster.web.upstream_rq"),
      true,
    );
    assert.equal(await selects("rq$", engine, "cluster.web.upstream_rq_total"), false);
  }
});

Deno.test("admin.stats_shapes.filter-linear-engine: catastrophic patterns stay fast with RE2", () => {
  const c = compileStatFilter("^(a+)+$", "re2");
  assert.ok(c.ok && c.engine === "re2");
  assert.equal(c.test("a".repeat(5000) + "!"), false);
  const bad = compileStatFilter("(?<=a)b", "re2");
  assert.ok(!bad.ok);
  assert.match(bad.error, /^Invalid re2 regex: /);
});

Deno.test("admin.stats_shapes.filter-runtime-switch: false selects ECMAScript", async () => {
  assert.equal(filterEngine(() => undefined), "re2");
  for (const key of RE2_RUNTIME_KEYS) {
    assert.equal(filterEngine((k) => (k === key ? "false" : undefined)), "ecmascript");
    assert.equal(filterEngine((k) => (k === key ? "true" : undefined)), "re2");
  }
  assert.equal(await selects("(?<=a)b", "ecmascript", "ab"), true);
  const bad = compileStatFilter("(a", "ecmascript");
  assert.ok(!bad.ok && bad.error.startsWith("Invalid regex: "));
});

Deno.test("compiling any pattern never throws", () => {
  fc.assert(fc.property(fc.string(), (p) => {
    compileStatFilter(p, "re2");
    compileStatFilter(p, "ecmascript");
  }));
});

Deno.test("admin.stats_shapes.filter-runtime-switch: a backtracking ECMAScript filter ends at its deadline", async () => {
  const c = compileStatFilter("^(\\w|\\w)*Z$", "ecmascript");
  assert.ok(c.ok && c.engine === "ecmascript");
  let ticks = 0;
  const timer = setInterval(() => ticks++, 10);
  const s = await c.select(["a".repeat(40)]);
  clearInterval(timer);
  assert.ok(!s.ok);
  assert.match(s.error, /did not finish within \d+ ms/);
  assert.ok(ticks > 0, "the serving thread kept running timers meanwhile");
});

Deno.test("a filter over the length limit is refused with either engine, naming the limit", () => {
  for (const engine of ["re2", "ecmascript"] as const) {
    const c = compileStatFilter("a".repeat(ADMIN_REGEX_MAX_LENGTH + 1), engine);
    assert.ok(!c.ok);
    assert.match(c.error, new RegExp(`the limit is ${ADMIN_REGEX_MAX_LENGTH}`));
  }
  assert.ok(compileStatFilter("a".repeat(ADMIN_REGEX_MAX_LENGTH), "re2").ok);
});
