import assert from "node:assert/strict";
import type { JsonObject } from "../config/bootstrap_types.ts";
import { httpListener, startTestProxy } from "./test_proxy.ts";

const direct: JsonObject = {
  virtual_hosts: [{
    name: "d",
    domains: ["*"],
    routes: [{ match: { prefix: "/" }, direct_response: { status: 200 } }],
  }],
};

async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 2));
}

/** Sends one keep-alive request on `c` and reads the (empty-bodied) response head. */
async function request(c: Deno.Conn): Promise<string> {
  await c.write(new TextEncoder().encode("GET / HTTP/1.1\r\nhost: a\r\n\r\n"));
  const buf = new Uint8Array(4096);
  let text = "";
  while (!text.includes("\r\n\r\n")) {
    const n = await c.read(buf);
    if (n === null) break;
    text += new TextDecoder().decode(buf.subarray(0, n));
  }
  return text;
}

Deno.test("listener http downstream_cx_total and downstream_cx_active count real connections", async () => {
  const p = await startTestProxy([httpListener(direct)], []);
  const ls = `listener.127.0.0.1_${p.port()}`;
  const total = () => p.store.counter(`${ls}.downstream_cx_total`).value();
  const active = () => p.store.gauge(`${ls}.downstream_cx_active`).value();
  const hTotal = () => p.store.counter("http.test.downstream_cx_total").value();
  const hActive = () => p.store.gauge("http.test.downstream_cx_active").value();
  const a = await Deno.connect({ hostname: "127.0.0.1", port: p.port() });
  const b = await Deno.connect({ hostname: "127.0.0.1", port: p.port() });
  try {
    for (let i = 0; i < 3; i++) assert.match(await request(a), /^HTTP\/1\.1 200 /);
    assert.match(await request(b), /^HTTP\/1\.1 200 /);
    assert.equal(p.store.counter("http.test.downstream_rq_total").value(), 4);
    assert.equal(total(), 2);
    assert.equal(active(), 2);
    assert.equal(hTotal(), 2);
    assert.equal(hActive(), 2);
    a.close();
    await until(() => active() === 1);
    assert.equal(active(), 1);
    assert.equal(hActive(), 1);
    assert.equal(total(), 2);
  } finally {
    try {
      a.close();
    } catch { /* closed above */ }
    b.close();
    await p.close();
  }
  assert.equal(active(), 0);
  assert.equal(hActive(), 0);
});

Deno.test("listener http close() ends idle keep-alive connections and drops active to 0", async () => {
  const p = await startTestProxy([httpListener(direct)], []);
  const c = await Deno.connect({ hostname: "127.0.0.1", port: p.port() });
  try {
    assert.match(await request(c), /^HTTP\/1\.1 200 /);
    await p.close();
    assert.equal(p.store.gauge("http.test.downstream_cx_active").value(), 0);
    assert.equal(await c.read(new Uint8Array(16)), null);
  } finally {
    c.close();
  }
});

Deno.test("listener http close: a request whose handler never ends cannot hold close forever", async () => {
  const { HttpListener } = await import("./http_listener.ts");
  let release = () => {};
  const never = new Promise<void>((r) => release = r);
  const l = new HttpListener(
    "127.0.0.1",
    0,
    async () => {
      await never;
      return { status: 200, headers: new Headers(), body: null };
    },
    [],
    [],
    20,
  );
  const c = await Deno.connect({ hostname: "127.0.0.1", port: l.port });
  await c.write(new TextEncoder().encode("GET / HTTP/1.1\r\nhost: a\r\n\r\n"));
  // Let the request reach the handler, then close: the connection is closed under it.
  await new Promise((r) => setTimeout(r, 20));
  await l.close();
  assert.equal(await c.read(new Uint8Array(16)), null);
  c.close();
  release();
  await new Promise((r) => setTimeout(r, 10));
});
