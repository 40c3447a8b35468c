import assert from "node:assert/strict";
import fc from "fast-check";
import { decodeComponent, parseQuery } from "./query.ts";

Deno.test("admin.general.query-first-wins: the first occurrence of a key wins; pairs keep all", () => {
  const q = parseQuery("a=1&b&a=2&&c=x=y");
  assert.equal(q.params.get("a"), "1");
  assert.equal(q.params.get("b"), "");
  assert.equal(q.params.get("c"), "x=y");
  assert.deepEqual(q.pairs, [["a", "1"], ["b", ""], ["a", "2"], ["c", "x=y"]]);
});

Deno.test("admin.general.flag-presence: a bare key is present with an empty value", () => {
  const q = parseQuery("usedonly&format=json");
  assert.ok(q.params.has("usedonly"));
  assert.equal(q.params.get("usedonly"), "");
});

Deno.test("admin.general.query-first-wins: percent-decoding with + as space; malformed escapes kept", () => {
  assert.equal(decodeComponent("a+b%2Bc%21"), "a b+c!");
  assert.equal(decodeComponent("100%"), "100%");
  assert.equal(decodeComponent("%zz%41"), "%zzA");
  assert.equal(decodeComponent("%E2%82"), "%E2%82");
});

Deno.test("admin.general.query-first-wins: property: parsing never throws and round-trips encoded pairs", () => {
  fc.assert(fc.property(fc.string(), (s) => {
    parseQuery(s);
  }));
  const key = fc.string({ minLength: 1 });
  fc.assert(fc.property(fc.array(fc.tuple(key, fc.string())), (kv) => {
    const q = parseQuery(
      kv.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&"),
    );
    assert.deepEqual(q.pairs, kv);
  }));
});
