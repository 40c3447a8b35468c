import assert from "node:assert/strict";
import { call, testContext } from "./testing_context.ts";
import { RUNTIME_MODIFY_USAGE } from "./runtime_handler.ts";

Deno.test("admin.endpoints.runtime, admin.resources.runtime.layers, admin.resources.runtime.entries, admin.resources.runtime.layer_values, admin.resources.runtime.final_value: /runtime shape", async () => {
  const ctx = testContext();
  const res = await call(ctx, "GET", "/runtime");
  assert.equal(res.headers.get("content-type"), "application/json");
  assert.deepEqual(await res.json(), {
    entries: { "a.b": { final_value: "1", layer_values: ["1", ""] } },
    layers: ["static", "admin"],
  });
});

Deno.test("admin.endpoints.runtime_modify, admin.states.runtime-modify: overrides go to the admin layer; an empty value deletes only the override", async () => {
  const ctx = testContext();
  assert.equal(await (await call(ctx, "POST", "/runtime_modify?a.b=2&new=x")).text(), "OK\n");
  let body = await (await call(ctx, "GET", "/runtime")).json();
  assert.deepEqual(body.entries["a.b"], { final_value: "2", layer_values: ["1", "2"] });
  assert.equal(body.entries.new.final_value, "x");
  await call(ctx, "POST", "/runtime_modify?a.b=&new=");
  body = await (await call(ctx, "GET", "/runtime")).json();
  assert.deepEqual(body.entries["a.b"], { final_value: "1", layer_values: ["1", ""] });
  assert.ok(!("new" in body.entries));
});

Deno.test("admin.endpoints.runtime_modify: no parameters is 400 usage; no admin layer is 503", async () => {
  const ctx = testContext();
  const res = await call(ctx, "POST", "/runtime_modify");
  assert.equal(res.status, 400);
  assert.equal(await res.text(), RUNTIME_MODIFY_USAGE);
  const noAdmin = testContext({
    bootstrap: { layered_runtime: { layers: [{ name: "s", static_layer: {} }] } },
  });
  const r2 = await call(noAdmin, "POST", "/runtime_modify?a=b");
  assert.equal(r2.status, 503);
  assert.equal(await r2.text(), "No admin layer specified");
});
