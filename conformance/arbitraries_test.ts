import assert from "node:assert/strict";
import fc from "fast-check";
import {
  duration,
  enumOf,
  FIELDS,
  freeClusterFields,
  invalidValues,
  messagePaths,
  validClusterArbitrary,
  validValue,
} from "./arbitraries.ts";

const ms = (d: string) => Number(d.slice(0, -1)) * 1000;

Deno.test("cluster.fields, cluster.objects: valid values respect each row's kind, range and enum", () => {
  for (const f of FIELDS) {
    const arb = validValue(f);
    if (arb === null) continue;
    for (const v of fc.sample(arb, { seed: 1, numRuns: 30 })) {
      const one = f.cardinality === "repeated" ? (v as unknown[])[0] : v;
      const r = f.range ?? {};
      if (f.kind === "enum") {
        assert.ok(enumOf(f)!.values.some((e) => e.name === one), `${f.id}: ${one}`);
      } else if (f.kind === "duration") {
        const n = ms(one as string);
        if (r.gtZero) assert.ok(n > 0, `${f.id}: ${one}`);
        if (r.exclusiveMin !== undefined) assert.ok(n > r.exclusiveMin, `${f.id}: ${one}`);
        if (r.max !== undefined) assert.ok(n <= r.max, `${f.id}: ${one}`);
      } else if (typeof one === "number") {
        if (r.min !== undefined) assert.ok(one >= r.min, `${f.id}: ${one}`);
        if (r.max !== undefined) assert.ok(one <= r.max, `${f.id}: ${one}`);
        assert.ok(one >= 0, `${f.id}: ${one}`);
      } else if (f.kind === "Percent") {
        const p = (one as { value: number }).value;
        assert.ok(p >= (r.min ?? 0) && p <= (r.max ?? 100), `${f.id}: ${p}`);
      }
    }
  }
});

Deno.test("cluster.fields, cluster.objects: invalid values break the row they are made for", () => {
  for (const f of FIELDS) {
    for (const b of invalidValues(f)) {
      const one = f.cardinality === "repeated" ? (b.value as unknown[])[0] : b.value;
      const r = f.range ?? {};
      const broken = f.kind === "enum"
        ? !enumOf(f)?.values.some((e) => e.name === one)
        : f.kind === "duration"
        ? !/^-?\d+(\.\d+)?s$/.test(String(one)) ||
          (r.gtZero === true && ms(String(one)) <= 0) ||
          (r.exclusiveMin !== undefined && ms(String(one)) <= r.exclusiveMin) ||
          (r.min !== undefined && ms(String(one)) < r.min) ||
          (r.max !== undefined && ms(String(one)) > r.max)
        : f.kind === "Percent"
        ? (one as { value: number }).value > (r.max ?? 100) ||
          (one as { value: number }).value < (r.min ?? 0)
        : f.kind === "bool"
        ? typeof one !== "boolean"
        : typeof one === "number" &&
          (one < 0 || one > (r.max ?? Infinity) || one < (r.min ?? 0) ||
            (r.gtZero === true && one === 0));
      assert.ok(broken, `${f.id}: ${JSON.stringify(b.value)} (${b.why}) is not invalid`);
    }
  }
  assert.equal(duration(1500), "1.5s");
});

Deno.test("cluster.objects: every described message is reachable from Cluster", () => {
  const paths = messagePaths();
  assert.deepEqual(paths.get("Cluster"), []);
  for (const f of FIELDS.filter((x) => x.message === "Cluster" && x.kind === "message" && x.type)) {
    if (FIELDS.some((x) => x.message === f.type)) {
      assert.ok(paths.has(f.type!), `${f.type} unreachable`);
    }
  }
});

Deno.test("cluster.fields: random valid clusters carry only free fields over a minimal STATIC cluster", () => {
  const free = new Set(freeClusterFields().map((f) => f.field));
  for (const c of fc.sample(validClusterArbitrary("c"), { seed: 2, numRuns: 50 })) {
    assert.equal(c.name, "c");
    assert.equal(c.type, "STATIC");
    for (const k of Object.keys(c)) {
      assert.ok(
        free.has(k) || ["name", "type", "connect_timeout", "load_assignment"].includes(k),
        k,
      );
    }
    assert.notEqual(c.lb_policy, "ORIGINAL_DST_LB");
    assert.notEqual(c.lb_policy, "CLUSTER_PROVIDED");
  }
});
