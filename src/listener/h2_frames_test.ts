import assert from "node:assert/strict";
import { FrameSplicer, FrameWalker, GOAWAY_NOTICE, goawayFrame } from "./h2_frames.ts";

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
      const s = new FrameSplicer();
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
  const s = new FrameSplicer();
  assert.equal(s.request(), null);
  const settings = frame(4, 0);
  assert.deepEqual(s.feed(settings), [settings, GOAWAY_NOTICE]);
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

Deno.test("DownstreamHttpProtocolOptions.max_connection_duration: one walk of the server's frames tells every header and splices a timer's GOAWAY after the frame in progress", () => {
  const seen: [number, number, number][] = [];
  const s = new FrameSplicer((type, flags, stream) => seen.push([type, flags, stream]));
  const settings = frame(4, 0);
  const headers = frame(1, 10);
  headers[4] = 1; // END_STREAM
  headers[8] = 3; // stream 3
  assert.deepEqual(s.feed(settings), [settings]);
  const first = headers.subarray(0, 12);
  assert.deepEqual(s.feed(first), [first]);
  const timer = goawayFrame(3);
  assert.equal(s.insert(timer), null, "inside a frame: wait for its end");
  const rest = headers.subarray(12);
  assert.deepEqual(s.feed(rest), [rest, timer]);
  assert.deepEqual(seen, [[4, 0, 0], [1, 1, 3]]);
  assert.deepEqual(s.insert(GOAWAY_NOTICE), GOAWAY_NOTICE, "between frames: at once");
});

Deno.test("HttpConnectionManager.common_http_protocol_options: the client's walk skips the connection preface and finds frame ends across chunks", () => {
  const types: number[] = [];
  const w = new FrameWalker((type) => types.push(type), 24);
  const preface = new Uint8Array(24);
  const ping = frame(6, 8);
  assert.equal(w.push(preface), -1);
  assert.equal(w.push(ping.subarray(0, 5)), -1);
  assert.equal(w.atBoundary, false);
  assert.equal(w.push(ping.subarray(5)), ping.length - 5);
  assert.equal(w.atBoundary, true);
  assert.deepEqual(types, [6]);
});
