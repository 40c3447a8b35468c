import assert from "node:assert/strict";
import { Store } from "../stats/store.ts";
import { DynamicFieldPolicy, unknownFieldMode } from "./dynamic_fields.ts";

Deno.test("cli.options.reject-unknown-dynamic-fields cli.options.ignore-unknown-dynamic-fields: the options select the mode", () => {
  assert.equal(unknownFieldMode(undefined), "warn");
  assert.equal(unknownFieldMode({ ignore_unknown_dynamic_fields: true }), "ignore");
  assert.equal(unknownFieldMode({ reject_unknown_dynamic_fields: true }), "reject");
  assert.equal(
    unknownFieldMode({ reject_unknown_dynamic_fields: true, ignore_unknown_dynamic_fields: true }),
    "reject",
  );
});

Deno.test("errors.unknown-dynamic-fields: one warning per field, one count per occurrence", () => {
  const store = new Store();
  const logs: string[] = [];
  const p = new DynamicFieldPolicy("warn", store, (_l, m) => logs.push(m));
  p.onUnknown("M", "f: r[0].a[0].x");
  p.onUnknown("M", "f: r[0].a[1].x");
  p.onUnknown("M", "f: r[0].y");
  assert.equal(store.counter("server.dynamic_unknown_fields").value(), 3);
  assert.equal(logs.length, 2);
  const q = new DynamicFieldPolicy("ignore", store, (_l, m) => logs.push(m));
  q.onUnknown("M", "z");
  assert.equal(store.counter("server.dynamic_unknown_fields").value(), 3);
  assert.equal(logs.length, 2);
  assert.equal(
    new DynamicFieldPolicy("reject", store, () => {}).context("M", []).allowUnknown,
    false,
  );
});
