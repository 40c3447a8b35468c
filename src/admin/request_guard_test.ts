import assert from "node:assert/strict";
import { startAdminListener } from "./admin_listener.ts";
import { createAdminRouter } from "./router.ts";
import { ADMIN_HANDLERS } from "./handlers.ts";
import { adminRequestGuard, hostAllowed } from "./request_guard.ts";
import { testContext } from "./testing_context.ts";

/** Sends one raw HTTP/1.1 request and returns the status line's code and the body. */
async function raw(port: number, head: string): Promise<{ status: number; text: string }> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  await conn.write(new TextEncoder().encode(head));
  const chunks: Uint8Array[] = [];
  const buf = new Uint8Array(16384);
  for (;;) {
    const n = await conn.read(buf);
    if (n === null) break;
    chunks.push(buf.slice(0, n));
  }
  conn.close();
  const text = new TextDecoder().decode(new Uint8Array(chunks.flatMap((c) => [...c])));
  return { status: Number(text.split(" ")[1]), text };
}

async function withAdmin(fn: (port: number, ctx: ReturnType<typeof testContext>) => Promise<void>) {
  const ctx = testContext();
  const bound: { address?: string } = {};
  const route = createAdminRouter(ctx, {
    handlers: ADMIN_HANDLERS,
    guard: adminRequestGuard(ctx, () => bound.address),
  });
  const admin = await startAdminListener(
    { address: { socket_address: { address: "127.0.0.1", port_value: 0 } } },
    route,
    "",
  );
  bound.address = admin!.address;
  try {
    await fn(admin!.port, ctx);
  } finally {
    await admin!.close();
  }
}

const counter = (ctx: ReturnType<typeof testContext>, n: string) =>
  ctx.stats.counter(`http.admin.${n}`).value();

Deno.test("admin.general.cross-site-refused: a cross-site POST to a mutating path is 403, counted, and changes nothing", async () => {
  await withAdmin(async (port, ctx) => {
    ctx.stats.counter("x").inc(5);
    const post = (extra: string) =>
      raw(
        port,
        `POST /reset_counters HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${extra}Content-Length: 0\r\nConnection: close\r\n\r\n`,
      );
    const evil = await post("Origin: https://evil.example\r\n");
    assert.equal(evil.status, 403);
    assert.match(evil.text, /cross-site request refused \(Origin https:\/\/evil\.example\)/);
    const fetchSite = await post("Sec-Fetch-Site: cross-site\r\n");
    assert.equal(fetchSite.status, 403);
    const otherPort = await post(`Origin: http://127.0.0.1:${port + 1}\r\n`);
    assert.equal(otherPort.status, 403);
    assert.equal(ctx.stats.counter("x").value(), 5, "nothing was reset");
    assert.equal(counter(ctx, "downstream_rq_cross_site_refused"), 3);
    const same = await post(`Origin: http://127.0.0.1:${port}\r\nSec-Fetch-Site: same-origin\r\n`);
    assert.equal(same.status, 200);
    assert.equal(ctx.stats.counter("x").value(), 0);
  });
});

Deno.test("admin.general.cross-site-refused: requests without browser headers and cross-site reads are unaffected", async () => {
  await withAdmin(async (port, ctx) => {
    const plain = await raw(
      port,
      `POST /reset_counters HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
    );
    assert.equal(plain.status, 200);
    const read = await raw(
      port,
      `GET /ready HTTP/1.1\r\nHost: localhost:${port}\r\nOrigin: https://evil.example\r\nConnection: close\r\n\r\n`,
    );
    assert.equal(read.status, 200);
    const viaFetch = await fetch(`http://127.0.0.1:${port}/reset_counters`, { method: "POST" });
    assert.equal(viaFetch.status, 200);
    await viaFetch.body?.cancel();
    assert.equal(counter(ctx, "downstream_rq_cross_site_refused"), 0);
  });
});

Deno.test("admin.general.foreign-host-refused: a Host naming another site is 403 and counted (DNS rebinding)", async () => {
  await withAdmin(async (port, ctx) => {
    const rebound = await raw(
      port,
      `GET /config_dump HTTP/1.1\r\nHost: evil.example:${port}\r\nConnection: close\r\n\r\n`,
    );
    assert.equal(rebound.status, 403);
    assert.match(rebound.text, /Host "evil\.example:\d+" does not name this admin listener/);
    assert.equal(counter(ctx, "downstream_rq_host_refused"), 1);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, "[::1]", "127.0.0.2"]) {
      const ok = await raw(
        port,
        `GET /ready HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
      );
      assert.equal(ok.status, 200, host);
    }
    const http10 = await raw(port, "GET /ready HTTP/1.0\r\n\r\n");
    assert.equal(http10.status, 200);
    assert.equal(counter(ctx, "downstream_rq_host_refused"), 1);
  });
});

Deno.test("admin.general.foreign-host-refused: which names a Host may carry", () => {
  assert.equal(hostAllowed("app.localhost", "127.0.0.1:9901", ""), true);
  assert.equal(hostAllowed("10.0.0.5:9901", "10.0.0.5:9901", ""), true);
  assert.equal(hostAllowed("10.0.0.6:9901", "10.0.0.5:9901", ""), false);
  assert.equal(hostAllowed("[2001:db8::1]:9901", "[::]:9901", ""), true);
  assert.equal(hostAllowed("evil.example", "0.0.0.0:9901", ""), false);
  assert.equal(hostAllowed("myhost:9901", "0.0.0.0:9901", "myhost"), true);
  assert.equal(hostAllowed("evil.example", "/tmp/admin.sock", ""), false);
});
