import assert from "node:assert/strict";
import { loadFullGc } from "./full_gc.ts";

const tick = () => new Promise((r) => setTimeout(r, 0));

Deno.test("loadFullGc: loaded once; a full collection frees an object only a weak reference holds", async () => {
  const gc = loadFullGc();
  assert.equal(loadFullGc(), gc);
  let held: object | null = { payload: new Uint8Array(1 << 16) };
  const weak = new WeakRef(held);
  held = null;
  // A WeakRef target lives until the current job ends.
  await tick();
  gc();
  assert.equal(weak.deref(), undefined);
});
