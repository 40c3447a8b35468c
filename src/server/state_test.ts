import assert from "node:assert/strict";
import { ServerStateMachine, STATE_NUMBER } from "./state.ts";

Deno.test("admin.states.server-live-ready: PRE_INITIALIZING → INITIALIZING → LIVE; DRAINING while health checks fail or draining", () => {
  const s = new ServerStateMachine();
  assert.equal(s.state(false), "PRE_INITIALIZING");
  assert.equal(s.state(true), "PRE_INITIALIZING");
  s.initializing();
  assert.equal(s.state(false), "INITIALIZING");
  s.live();
  assert.equal(s.state(false), "LIVE");
  assert.equal(s.state(true), "DRAINING");
  s.startDraining();
  assert.equal(s.state(false), "DRAINING");
  assert.deepEqual(STATE_NUMBER, { LIVE: 0, DRAINING: 1, PRE_INITIALIZING: 2, INITIALIZING: 3 });
});
