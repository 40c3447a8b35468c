import assert from "node:assert/strict";
import fc from "fast-check";
import { HeaderMap } from "./header_map.ts";

type Op =
  | { op: "append"; name: string; value: string }
  | { op: "set"; name: string; value: string }
  | { op: "delete"; name: string }
  | { op: "get"; name: string }
  | { op: "has"; name: string };

// A few names so that operations collide often; tokens, lower-case, including set-cookie.
const nameArb = fc.constantFrom("a", "b", "x-y", "set-cookie", "host", "c!#$%&'*+-.^_`|~9");
const valueArb = fc.string({ maxLength: 8 }).map((s) => s.replace(/[^\x21-\x7e]/g, "v"));
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant("append" as const), name: nameArb, value: valueArb }),
  fc.record({ op: fc.constant("set" as const), name: nameArb, value: valueArb }),
  fc.record({ op: fc.constant("delete" as const), name: nameArb }),
  fc.record({ op: fc.constant("get" as const), name: nameArb }),
  fc.record({ op: fc.constant("has" as const), name: nameArb }),
);

/**
 * Insertion-ordered model of a field list with Fetch semantics: `set` replaces the first field
 * of the name in place and removes the later ones.
 */
class Model {
  list: [string, string][] = [];
  apply(o: Op): void {
    switch (o.op) {
      case "append":
        this.list.push([o.name, o.value]);
        break;
      case "set": {
        const i = this.list.findIndex(([n]) => n === o.name);
        if (i < 0) this.list.push([o.name, o.value]);
        else {
          this.list[i] = [o.name, o.value];
          this.list = this.list.filter(([n], j) => j <= i || n !== o.name);
        }
        break;
      }
      case "delete":
        this.list = this.list.filter(([n]) => n !== o.name);
        break;
    }
  }
}

Deno.test("header map: model-based, get/has agree with Fetch Headers and iteration keeps insertion order", () => {
  fc.assert(
    fc.property(fc.array(opArb, { maxLength: 40 }), (ops) => {
      const m = new HeaderMap();
      const f = new Headers();
      const model = new Model();
      for (const o of ops) {
        switch (o.op) {
          case "append":
            m.append(o.name, o.value);
            f.append(o.name, o.value);
            break;
          case "set":
            m.set(o.name, o.value);
            f.set(o.name, o.value);
            break;
          case "delete":
            m.delete(o.name);
            f.delete(o.name);
            break;
          case "get":
            // Fetch joins repeated set-cookie too in get(), as HeaderMap does.
            assert.equal(m.get(o.name), f.get(o.name));
            break;
          case "has":
            assert.equal(m.has(o.name), f.has(o.name));
            break;
        }
        model.apply(o);
        assert.deepEqual([...m.entries()], model.list);
        assert.equal(m.size, model.list.length);
      }
      assert.deepEqual([...m.keys()], model.list.map(([n]) => n));
      assert.deepEqual([...m.values()], model.list.map(([, v]) => v));
      assert.deepEqual([...m], model.list);
      const seen: [string, string][] = [];
      m.forEach((v, k, parent) => {
        assert.equal(parent, m);
        seen.push([k, v]);
      });
      assert.deepEqual(seen, model.list);
      for (let i = 0; i < m.size; i++) assert.deepEqual([m.nameAt(i), m.valueAt(i)], model.list[i]);
      assert.deepEqual(m.getSetCookie(), f.getSetCookie());
    }),
    { numRuns: 500 },
  );
});

Deno.test("header map: names are case-insensitive and stored lower-case", () => {
  const m = new HeaderMap();
  m.append("X-Up", "1");
  m.set("CONTENT-TYPE", "text/plain");
  assert.equal(m.get("x-up"), "1");
  assert.equal(m.has("Content-Type"), true);
  assert.deepEqual([...m.keys()], ["x-up", "content-type"]);
  m.delete("X-UP");
  assert.equal(m.has("x-up"), false);
});

Deno.test("header map: set keeps the position of the first field and drops the repeats", () => {
  const m = new HeaderMap([["a", "1"], ["b", "2"], ["a", "3"], ["c", "4"]]);
  m.set("a", "9");
  assert.deepEqual([...m.entries()], [["a", "9"], ["b", "2"], ["c", "4"]]);
});

Deno.test("header map: getSetCookie returns every set-cookie unjoined, in order", () => {
  const m = new HeaderMap([["set-cookie", "a=1; Path=/"], ["x", "y"], ["set-cookie", "b=2, c"]]);
  assert.deepEqual(m.getSetCookie(), ["a=1; Path=/", "b=2, c"]);
  assert.equal(m.get("set-cookie"), "a=1; Path=/, b=2, c");
  assert.deepEqual(new HeaderMap().getSetCookie(), []);
});
