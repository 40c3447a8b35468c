import assert from "node:assert/strict";
import { ENDPOINTS, STATES } from "../../spec/mod.ts";
import { ADMIN_HANDLERS } from "./handlers.ts";
import { STATE_TRANSITIONS } from "./state_transitions.ts";

Deno.test("admin.states.*: every transition row names a handled admin path with its row's method", () => {
  for (const r of STATES) {
    const impl: { method?: string; path?: string; module?: string } = STATE_TRANSITIONS[r.id];
    if (impl.path === undefined) {
      assert.ok(impl.module, r.id);
      assert.ok(!/^(GET|POST) \//.test(r.trigger), `${r.id}: an admin trigger needs a path`);
      continue;
    }
    assert.equal(r.trigger, `${impl.method} ${impl.path}`, r.id);
    assert.equal(typeof ADMIN_HANDLERS[impl.path as keyof typeof ADMIN_HANDLERS], "function");
    const rows = ENDPOINTS.filter((e) => e.path === impl.path);
    assert.ok(rows.length > 0, r.id);
    for (const e of rows) assert.equal(e.mutating, impl.method === "POST", `${r.id} ${e.id}`);
  }
});
