import assert from "node:assert/strict";
import fc from "fast-check";
import { InitManager, InitManagers } from "./init_manager.ts";

Deno.test("admin.endpoints.init_dump: a manager initializes when its last target is ready", () => {
  const m = new InitManager("Server");
  assert.equal(m.name, "init manager Server");
  assert.equal(m.state, "Uninitialized");
  const a = m.add("cluster a");
  const b = m.add("listener l0");
  assert.equal(a.name, "target cluster a");
  let calls = 0;
  m.initialize(() => calls++);
  assert.equal(m.state, "Initializing");
  assert.deepEqual(m.unreadyTargets(), ["target cluster a", "target listener l0"]);
  a.ready();
  a.ready();
  assert.equal(calls, 0);
  assert.deepEqual(m.dump(), { name: "init manager Server", target_names: ["target listener l0"] });
  const late = m.add("cluster eds");
  b.ready();
  assert.equal(m.state, "Initializing");
  late.ready();
  assert.equal(m.state, "Initialized");
  assert.equal(calls, 1);
  assert.throws(() => m.add("x"), /attempted to add target x to initialized init manager Server/);
  assert.throws(() => m.initialize(() => {}), /twice/);
});

Deno.test("admin.endpoints.init_dump: a manager without targets initializes at once; a name added twice needs two readies", () => {
  const empty = new InitManager("empty");
  let done = false;
  empty.initialize(() => done = true);
  assert.ok(done);
  const m = new InitManager("dup");
  const one = m.add("t");
  const two = m.add("t");
  m.initialize(() => {});
  one.ready();
  assert.deepEqual(m.unreadyTargets(), ["target t"]);
  two.ready();
  assert.equal(m.state, "Initialized");
});

Deno.test("admin.endpoints.init_dump-mask: managers are dumped per component until all have initialized", () => {
  const init = new InitManagers();
  const server = init.create("server", "Server");
  const cluster = server.add("cluster a");
  const l0 = init.create("listener", "Listener l0").add("listener l0");
  init.create("listener", "Listener l1");
  assert.equal(init.state, "Uninitialized");
  let live = 0;
  init.initialize(() => live++);
  assert.equal(init.state, "Initializing");
  assert.deepEqual(init.dump("listener"), [
    { name: "init manager Listener l0", target_names: ["target listener l0"] },
    { name: "init manager Listener l1", target_names: [] },
  ]);
  assert.deepEqual(init.dump("cluster"), []);
  assert.equal(init.dump().length, 3);
  l0.ready();
  assert.deepEqual(init.dump(), [
    { name: "init manager Server", target_names: ["target cluster a"] },
    { name: "init manager Listener l0", target_names: [] },
    { name: "init manager Listener l1", target_names: [] },
  ]);
  cluster.ready();
  assert.equal(live, 1);
  assert.equal(init.state, "Initialized");
  assert.deepEqual(init.dump(), []);
  assert.throws(() => init.create("listener", "late"), /after start-up/);
  assert.throws(() => init.initialize(() => {}), /twice/);
});

Deno.test("admin.endpoints.init_dump-mask: resources warming after start-up are dumped under their component while they wait", () => {
  const init = new InitManagers();
  const server = init.create("server", "Server");
  const t = server.add("cluster a");
  const waiting = new Set(["routes r1"]);
  init.watch(
    "listener",
    () =>
      [...waiting].map((w) => ({
        name: "init manager Listener api",
        target_names: [`target ${w}`],
      })),
  );
  init.initialize(() => {});
  assert.equal(init.dump().length, 2);
  t.ready();
  assert.deepEqual(init.dump(), [
    { name: "init manager Listener api", target_names: ["target routes r1"] },
  ]);
  assert.deepEqual(init.dump("server"), []);
  assert.equal(init.dump("listener").length, 1);
  waiting.clear();
  assert.deepEqual(init.dump(), []);
});

Deno.test("admin.endpoints.init_dump: in any order of readies, the watcher runs once, after the last", () => {
  fc.assert(fc.property(
    fc.integer({ min: 0, max: 8 }).chain((n) =>
      fc.tuple(fc.constant(n), fc.shuffledSubarray([...Array(n).keys()], { minLength: n }))
    ),
    ([n, order]) => {
      const init = new InitManagers();
      const m = init.create("server", "Server");
      const targets = Array.from({ length: n }, (_, i) => m.add(`t${i}`));
      let calls = 0;
      init.initialize(() => calls++);
      for (const [k, i] of order.entries()) {
        assert.equal(calls, 0);
        assert.equal(init.dump()[0].target_names.length, n - k);
        targets[i].ready();
      }
      assert.equal(calls, 1);
      assert.equal(init.state, "Initialized");
    },
  ));
});
