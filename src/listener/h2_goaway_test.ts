import assert from "node:assert/strict";
import { GOAWAY_NOTICE, GoawaySplicer } from "./h2_goaway.ts";

/** An HTTP/2 frame of `type` with a payload of `len` bytes. */
function frame(type: number, len: number): Uint8Array {
  const f = new Uint8Array(9 + len);
  f.set([len >> 16, (len >> 8) & 0xff, len & 0xff, type]);
  return f;
}

const concat = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
};

Deno.test("cli.options.drain-strategy: the GOAWAY notice goes between two frames, never inside one", () => {
  const settings = frame(4, 6);
  const headers = frame(1, 20);
  const data = frame(0, 100);
  const stream = concat([settings, headers, data]);
  // Every way of cutting the stream in three reads, with the request made after the first.
  for (let i = 1; i < stream.length; i++) {
    for (let j = i; j <= stream.length; j++) {
      const s = new GoawaySplicer();
      const out = s.feed(stream.subarray(0, i));
      const now = s.request();
      if (now !== null) out.push(now);
      out.push(...s.feed(stream.subarray(i, j)), ...s.feed(stream.subarray(j)));
      const got = concat(out);
      assert.equal(got.length, stream.length + GOAWAY_NOTICE.length, `cut ${i}/${j}`);
      const at = [settings.length, settings.length + headers.length, stream.length]
        .find((b) => b >= i)!;
      assert.deepEqual(got.subarray(at, at + GOAWAY_NOTICE.length), GOAWAY_NOTICE, `cut ${i}/${j}`);
      assert.deepEqual(
        concat([got.subarray(0, at), got.subarray(at + GOAWAY_NOTICE.length)]),
        stream,
      );
    }
  }
});

Deno.test("cli.options.drain-strategy: no notice before the server's first frame, and one per connection", () => {
  const s = new GoawaySplicer();
  assert.equal(s.request(), null);
  const settings = frame(4, 0);
  assert.deepEqual(s.feed(settings), [settings, GOAWAY_NOTICE]);
  assert.equal(s.sent, true);
  assert.equal(s.request(), null);
  assert.deepEqual(s.feed(settings), [settings]);
});

Deno.test("cli.options.drain-strategy: the notice is GOAWAY on stream 0, last stream 2^31-1, NO_ERROR", () => {
  const v = new DataView(GOAWAY_NOTICE.buffer);
  assert.equal(v.getUint32(0) >> 8, 8);
  assert.equal(GOAWAY_NOTICE[3], 7);
  assert.equal(v.getUint32(5), 0);
  assert.equal(v.getUint32(9), 0x7fffffff);
  assert.equal(v.getUint32(13), 0);
});
