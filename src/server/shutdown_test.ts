import assert from "node:assert/strict";
import { Cleanups, Shutdown, type ShuttingDown } from "./shutdown.ts";
import { InitManagers } from "./init_manager.ts";
import { ServerStateMachine } from "./state.ts";
import type { Logging } from "./logger.ts";

Deno.test("shutdown: runs once; DRAINING, then shutdown work latest first, then start-up undone in reverse", async () => {
  const order: string[] = [];
  const init = new InitManagers();
  init.initialize(() => {});
  const machine = new ServerStateMachine(init);
  const server: ShuttingDown = {
    machine,
    shutdownWork: [() => void order.push("work 1"), () => void order.push("work 2")],
    logging: { close: () => void order.push("logging closed") } as unknown as Logging,
  };
  const cleanups = new Cleanups();
  cleanups.push(() => void order.push("undo 1"));
  cleanups.push(() => void order.push("undo 2"));
  const stop = new Shutdown(server, cleanups, (_l, m) => void order.push(m), true);
  stop.detachStats = () => void order.push("stats detached");
  assert.equal(stop.started, false);
  assert.equal(machine.state(false), "LIVE");
  const first = stop.run();
  assert.equal(stop.started, true);
  assert.equal(machine.state(false), "DRAINING");
  assert.equal(stop.run(), first);
  await first;
  assert.equal(await stop.finished, 0);
  assert.deepEqual(order, [
    "stats detached",
    "work 2",
    "work 1",
    "undo 2",
    "undo 1",
    "shutdown complete",
    "logging closed",
  ]);
});
