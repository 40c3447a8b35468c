import assert from "node:assert/strict";
import { directReader, directRid, type Readable } from "./direct_read.ts";

/** A connected pair of loopback TCP connections; `done` closes what is still open. */
async function pair() {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const client = await Deno.connect({ hostname: "127.0.0.1", port: listener.addr.port });
  const server = await listener.accept();
  listener.close();
  const done = () => {
    for (const c of [client, server]) {
      try {
        c.close();
      } catch { /* closed by the test */ }
    }
  };
  return { client, server, done };
}

Deno.test("direct read: a Deno TCP connection is read through the runtime's op (this pinned Deno has it)", async () => {
  const { client, server, done } = await pair();
  try {
    assert.equal(typeof directRid(server), "number");
    assert.equal(typeof directRid(client), "number");
  } finally {
    done();
  }
});

Deno.test("direct read: bytes as they arrive, then 0 when the peer closes", async () => {
  const { client, server, done } = await pair();
  try {
    const read = directReader(server);
    const buf = new Uint8Array(4);
    await client.write(new TextEncoder().encode("abcdef"));
    const first = await read(buf);
    assert.ok(first > 0 && first <= 4);
    let got = new TextDecoder().decode(buf.subarray(0, first));
    while (got.length < 6) {
      const n = await read(buf);
      assert.ok(n > 0);
      got += new TextDecoder().decode(buf.subarray(0, n));
    }
    assert.equal(got, "abcdef");
    client.close();
    assert.equal(await read(buf), 0);
    assert.equal(await read(buf), 0);
  } finally {
    done();
  }
});

Deno.test("direct read: a pending read rejects (does not hang) when the connection is closed here", async () => {
  const { server, done } = await pair();
  try {
    const pending = directReader(server)(new Uint8Array(16));
    server.close();
    await assert.rejects(pending);
  } finally {
    done();
  }
});

Deno.test("direct read: a connection whose read is overridden is read through the override", async () => {
  const { client, server, done } = await pair();
  try {
    let calls = 0;
    const base = server.read.bind(server);
    Object.defineProperty(server, "read", {
      value: (b: Uint8Array) => {
        calls++;
        return base(b);
      },
    });
    assert.equal(directRid(server), null);
    const read = directReader(server);
    await client.write(new Uint8Array([1, 2, 3]));
    assert.equal(await read(new Uint8Array(8)), 3);
    assert.equal(calls, 1);
  } finally {
    done();
  }
});

Deno.test("direct read: anything else with a read is read through it, null mapped to 0", async () => {
  const chunks: (number | null)[] = [5, null];
  const other: Readable = { read: () => Promise.resolve(chunks.shift() ?? null) };
  assert.equal(directRid(other), null);
  const read = directReader(other);
  assert.equal(await read(new Uint8Array(8)), 5);
  assert.equal(await read(new Uint8Array(8)), 0);
});
