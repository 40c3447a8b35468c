import assert from "node:assert/strict";
import fc from "fast-check";
import { uuidV4 } from "./request_id.ts";

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

Deno.test("x-request-id: generated ids are version 4 UUIDs and do not repeat", () => {
  const seen = new Set<string>();
  // More than one pool refill (4096 bytes = 256 ids).
  for (let i = 0; i < 1000; i++) {
    const id = uuidV4();
    assert.match(id, V4);
    seen.add(id);
  }
  assert.equal(seen.size, 1000);
});

Deno.test("x-request-id: every id of any run has the v4 shape", () => {
  fc.assert(fc.property(fc.integer({ min: 1, max: 300 }), (n) => {
    let last = "";
    for (let i = 0; i < n; i++) last = uuidV4();
    assert.match(last, V4);
  }));
});
