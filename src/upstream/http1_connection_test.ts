import assert from "node:assert/strict";
import fc from "fast-check";
import { Http1Connection, ProtocolError } from "./http1_connection.ts";
import type { Transport } from "./transport.ts";

/** A transport that hands out `data` in the given piece sizes. */
class Script implements Transport {
  #off = 0;
  #piece = 0;
  written: Uint8Array[] = [];
  constructor(readonly data: Uint8Array, readonly pieces: number[]) {}
  read(buf: Uint8Array): Promise<number | null> {
    if (this.#off >= this.data.length) return Promise.resolve(null);
    const want = this.pieces[this.#piece++ % this.pieces.length];
    const n = Math.min(want, buf.length, this.data.length - this.#off);
    buf.set(this.data.subarray(this.#off, this.#off + n));
    this.#off += n;
    return Promise.resolve(n);
  }
  write(d: Uint8Array): Promise<number> {
    this.written.push(d.slice());
    return Promise.resolve(d.length);
  }
  close() {}
}

const enc = new TextEncoder();

async function readAll(c: Http1Connection): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for (let b = await c.readBody(); b; b = await c.readBody()) parts.push(b);
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

Deno.test("upstream http1 parser: chunked bodies survive any split into reads (property)", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.uint8Array({ minLength: 1, maxLength: 300 }), { maxLength: 8 }),
      fc.array(fc.integer({ min: 1, max: 97 }), { minLength: 1, maxLength: 10 }),
      async (chunks, pieces) => {
        let wire = "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\nx-a: b\r\n\r\n";
        const bytes: number[] = [...enc.encode(wire)];
        for (const c of chunks) {
          bytes.push(...enc.encode(c.length.toString(16) + ";ext=1\r\n"), ...c, 13, 10);
        }
        bytes.push(...enc.encode("0\r\ntrailer: x\r\n\r\n"));
        wire = "";
        const c = new Http1Connection(new Script(new Uint8Array(bytes), pieces), 16384);
        const head = await c.readHead("GET");
        assert.equal(head.status, 200);
        assert.deepEqual(head.headers[1], ["x-a", "b"]);
        const body = await readAll(c);
        const want = chunks.flatMap((x) => [...x]);
        assert.deepEqual([...body], want);
        assert.equal(c.hasUnreadData(), false);
      },
    ),
    { numRuns: 150 },
  );
});

Deno.test("upstream http1 parser: content-length, close-delimited, 1xx and HEAD responses", async () => {
  const cl = new Http1Connection(
    new Script(
      enc.encode("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nhello"),
      [7],
    ),
    16384,
  );
  assert.equal((await cl.readHead("GET")).status, 200);
  assert.equal(new TextDecoder().decode(await readAll(cl)), "hello");

  const close = new Http1Connection(
    new Script(enc.encode("HTTP/1.0 200 OK\r\n\r\nuntil close"), [3]),
    16384,
  );
  const h = await close.readHead("GET");
  assert.equal(h.close, true);
  assert.equal(new TextDecoder().decode(await readAll(close)), "until close");

  const head = new Http1Connection(
    new Script(enc.encode("HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\n"), [99]),
    16384,
  );
  await head.readHead("HEAD");
  assert.equal(head.bodyDone(), true);
});

Deno.test("upstream http1 parser: malformed responses are protocol errors", async () => {
  const bad = [
    "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n",
    "HTTP/1.1 200 OK\r\ncontent-length: 5\r\ncontent-length: 6\r\n\r\nhello",
    "HTTP/1.1 200 OK\r\ncontent-length: 5\r\ntransfer-encoding: chunked\r\n\r\n",
    "HTTP/1.1 200 OK\r\ncontent-length: -1\r\n\r\n",
    "HTTP/9 200 OK\r\n\r\n",
    "HTTP/1.1 200 OK\r\nno colon here\r\n\r\n",
  ];
  for (const wire of bad) {
    const c = new Http1Connection(new Script(enc.encode(wire), [1000]), 16384);
    await assert.rejects(
      async () => {
        await c.readHead("GET");
        await readAll(c);
      },
      ProtocolError,
      JSON.stringify(wire),
    );
  }
});

Deno.test("upstream http1 parser: a head larger than the buffer is refused", async () => {
  const wire = "HTTP/1.1 200 OK\r\nx-big: " + "a".repeat(40000) + "\r\n\r\n";
  const c = new Http1Connection(new Script(enc.encode(wire), [4096]), 16384);
  await assert.rejects(() => c.readHead("GET"), /too large/);
});

Deno.test("upstream http1 parser: the buffer grows to its limit on demand: a 40 KB head fits a 64 KiB limit, a 70 KB one does not, and large bodies arrive whole", async () => {
  const head = (n: number) => "HTTP/1.1 200 OK\r\nx-big: " + "a".repeat(n) + "\r\n";
  const body = new Uint8Array(300_000).map((_, i) => i % 251);
  const wire = new Uint8Array([
    ...enc.encode(head(40000) + `content-length: ${body.length}\r\n\r\n`),
    ...body,
  ]);
  // Pieces larger than the first buffer: a read that fills it makes the next buffer larger.
  const c = new Http1Connection(new Script(wire, [4096, 70000]), 65536);
  const h = await c.readHead("GET");
  assert.equal(h.headers[0][1].length, 40000);
  assert.deepEqual(await readAll(c), body);
  const big = new Http1Connection(new Script(enc.encode(head(70000) + "\r\n"), [8192]), 65536);
  await assert.rejects(() => big.readHead("GET"), /too large/);
});
