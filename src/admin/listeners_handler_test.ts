import assert from "node:assert/strict";
import { call, testContext, testListener } from "./testing_context.ts";

function ctx() {
  return testContext({
    listeners: [
      testListener("ingress", 10000, "INBOUND"),
      testListener("egress", 10001, "OUTBOUND"),
    ],
  });
}

Deno.test("admin.endpoints.listeners: text lists name::address", async () => {
  const res = await call(ctx(), "GET", "/listeners");
  assert.equal(await res.text(), "ingress::127.0.0.1:10000\negress::127.0.0.1:10001\n");
  assert.equal(
    await (await call(ctx(), "GET", "/listeners?format=xml")).text(),
    "ingress::127.0.0.1:10000\negress::127.0.0.1:10001\n",
  );
});

Deno.test("admin.endpoints.listeners-format-json: listener_statuses with local_address", async () => {
  const res = await call(ctx(), "GET", "/listeners?format=json");
  assert.equal(res.headers.get("content-type"), "application/json");
  assert.deepEqual((await res.json()).listener_statuses[0], {
    name: "ingress",
    local_address: { socket_address: { address: "127.0.0.1", port_value: 10000 } },
  });
});

Deno.test("admin.endpoints.drain_listeners-inboundonly, admin.states.drain-listeners: inboundonly stops INBOUND listeners only", async () => {
  const c = ctx();
  const res = await call(c, "POST", "/drain_listeners?inboundonly");
  assert.equal(res.status, 200);
  assert.equal(await res.text(), "OK\n");
  assert.deepEqual(c.listeners.listeners().map((l) => l.stopped), [true, false]);
  assert.ok(c.listeners.stoppedDirections().has("INBOUND"));
});

Deno.test("admin.endpoints.drain_listeners, admin.endpoints.drain_listeners-graceful: plain and graceful drains stop every listener", async () => {
  const c = ctx();
  let graceful: boolean | undefined;
  const drain = c.listeners.drain.bind(c.listeners);
  c.listeners.drain = (o) => {
    graceful = o.graceful;
    return drain(o);
  };
  assert.equal((await call(c, "POST", "/drain_listeners?graceful")).status, 200);
  assert.equal(graceful, true);
  assert.deepEqual(c.listeners.listeners().map((l) => l.stopped), [true, true]);
  assert.equal((await call(c, "POST", "/drain_listeners")).status, 200);
  assert.equal(graceful, false);
});
