import assert from "node:assert/strict";
import { SERVER_STATE_NUMBERS } from "./server_stats.ts";
import { InitManagers } from "./init_manager.ts";
import { ServerStateMachine } from "./state.ts";

Deno.test("admin.states.server-live-ready: PRE_INITIALIZING → INITIALIZING → LIVE; DRAINING while health checks fail or draining", () => {
  const init = new InitManagers();
  const target = init.create("server", "Server").add("cluster a");
  const s = new ServerStateMachine(init);
  assert.equal(s.state(false), "PRE_INITIALIZING");
  assert.equal(s.state(true), "PRE_INITIALIZING");
  init.initialize(() => {});
  assert.equal(s.state(false), "INITIALIZING");
  target.ready();
  assert.equal(s.state(false), "LIVE");
  assert.equal(s.state(true), "DRAINING");
  s.startDraining();
  assert.equal(s.state(false), "DRAINING");
  assert.deepEqual(SERVER_STATE_NUMBERS, {
    LIVE: 0,
    DRAINING: 1,
    PRE_INITIALIZING: 2,
    INITIALIZING: 3,
  });
});
