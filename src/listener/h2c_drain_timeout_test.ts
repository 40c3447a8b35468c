/**
 * `drain_timeout` on h2c downstream connections, through real sockets and a client that speaks
 * raw frames: between the GOAWAY notice and the final GOAWAY new streams are still served, and
 * the final GOAWAY names the last of them.
 *
 * @module
 */
import assert from "node:assert/strict";
import { httpListener, startTestProxy } from "./test_proxy.ts";
import { testCluster } from "../upstream/test_cluster.ts";
import { parseHcmOptions } from "./hcm_options.ts";
import type { Errors } from "../config/config_values.ts";

const routes = {
  virtual_hosts: [{
    name: "all",
    domains: ["*"],
    routes: [{ match: { prefix: "/" }, route: { cluster: "o" } }],
  }],
};

function frame(type: number, flags: number, stream: number, payload: number[]): Uint8Array {
  const f = new Uint8Array(9 + payload.length);
  f[2] = payload.length;
  f[3] = type;
  f[4] = flags;
  new DataView(f.buffer).setUint32(5, stream);
  f.set(payload, 9);
  return f;
}

interface Frame {
  type: number;
  flags: number;
  stream: number;
  payload: Uint8Array;
}

/** Reads frames from `c` (acknowledging SETTINGS) until one satisfies `want`; null at the end. */
async function until(
  c: Deno.Conn,
  state: { buf: Uint8Array },
  want: (f: Frame) => boolean,
): Promise<Frame | null> {
  for (;;) {
    while (state.buf.length >= 9) {
      const b = state.buf;
      const len = (b[0] << 16) | (b[1] << 8) | b[2];
      if (b.length < 9 + len) break;
      const f = {
        type: b[3],
        flags: b[4],
        stream: new DataView(b.buffer, b.byteOffset).getUint32(5) & 0x7fffffff,
        payload: b.slice(9, 9 + len),
      };
      state.buf = b.slice(9 + len);
      if (f.type === 4 && (f.flags & 1) === 0) await c.write(frame(4, 1, 0, []));
      if (want(f)) return f;
    }
    const chunk = new Uint8Array(65536);
    const n = await c.read(chunk).catch(() => null);
    if (n === null) return null;
    state.buf = new Uint8Array([...state.buf, ...chunk.subarray(0, n)]);
  }
}

/** A GET of `path` on stream `id` (HPACK literals without indexing), ending the stream. */
function get(id: number, path: string): Uint8Array {
  const lit = (index: number, v: string) => [index, v.length, ...new TextEncoder().encode(v)];
  return frame(1, 0x5, id, [0x82, 0x86, ...lit(4, path), ...lit(1, "a")]);
}

const lastStream = (f: Frame) => new DataView(f.payload.buffer).getUint32(0) & 0x7fffffff;
const ended = (stream: number) => (f: Frame) =>
  f.stream === stream && (f.type === 0 || f.type === 1) && (f.flags & 1) === 1;

Deno.test("HttpConnectionManager.drain_timeout: between the GOAWAY notice and the final GOAWAY an h2c connection still takes new streams", async () => {
  const origin = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("ok"),
  );
  const p = await startTestProxy(
    [httpListener(routes, {
      common_http_protocol_options: { max_connection_duration: "0.1s" },
      drain_timeout: "3s",
    })],
    [testCluster("o", [["127.0.0.1", origin.addr.port]])],
  );
  const c = await Deno.connect({ hostname: "127.0.0.1", port: p.port() });
  const state = { buf: new Uint8Array(0) };
  try {
    const preface = new TextEncoder().encode("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
    await c.write(new Uint8Array([...preface, ...frame(4, 0, 0, []), ...get(1, "/")]));
    // The notice (at 0.1 s) may come before or after the answer of stream 1.
    let notice: Frame | null = null;
    const first = await until(c, state, (f) => {
      if (f.type === 7) notice ??= f;
      return ended(1)(f);
    });
    assert.notEqual(first, null);
    notice ??= await until(c, state, (f) => f.type === 7);
    assert.equal(notice && lastStream(notice as Frame), 0x7fffffff);
    // Still draining: a new stream is served.
    await c.write(get(3, "/"));
    assert.notEqual(await until(c, state, ended(3)), null);
    const final = await until(c, state, (f) => f.type === 7);
    assert.equal(final && lastStream(final), 3);
    // Nothing is open any more: the connection closes.
    assert.equal(await until(c, state, () => false), null);
    assert.equal(p.store.counter("http.test.downstream_cx_max_duration_reached").value(), 1);
  } finally {
    c.close();
    await p.close();
    await origin.shutdown();
  }
});

Deno.test("HttpConnectionManager.drain_timeout: a bad duration is refused with its path", () => {
  const errors: Errors = [];
  assert.equal(parseHcmOptions({ drain_timeout: "1.5s" }, "hcm", errors).drainTimeoutMs, 1500);
  assert.equal(parseHcmOptions({}, "hcm", errors).drainTimeoutMs, undefined);
  assert.equal(errors.length, 0);
  parseHcmOptions({ drain_timeout: "later" }, "hcm", errors);
  assert.deepEqual(errors.map((e) => e.path), ["hcm.drain_timeout"]);
});
