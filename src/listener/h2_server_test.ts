/**
 * The downstream HTTP/2 server through real sockets: the upstream's trailers reach an HTTP/2
 * client, a gRPC call through the proxy gets its status, the connection manager's
 * `http2_protocol_options` are the SETTINGS and windows clients see (Envoy's defaults when
 * unset), and a stream beyond `max_concurrent_streams` is refused.
 *
 * @module
 */
import assert from "node:assert/strict";
import http2 from "node:http2";
import { Buffer } from "node:buffer";
import * as grpc from "@grpc/grpc-js";
import type { JsonObject } from "../config/bootstrap_types.ts";
import type { Errors } from "../config/config_values.ts";
import { effectiveCluster } from "../config/effective_cluster.ts";
import { protocolCluster } from "../config/protocol_test_cluster.ts";
import { HeaderMap } from "../http/header_map.ts";
import { trailerSlot } from "../http/trailers.ts";
import { H2_DEFAULTS, parseH2Options } from "./h2_options.ts";
import { HttpListener } from "./http_listener.ts";
import { routeAllTo } from "./test_origins.ts";
import { httpListener, startTestProxy, type TestProxy } from "./test_proxy.ts";

const H2_UPSTREAM = { explicit_http_config: { http2_protocol_options: {} } };

async function through(
  originPort: number,
  hcm: JsonObject,
  fn: (p: TestProxy) => Promise<void>,
): Promise<void> {
  const p = await startTestProxy(
    [httpListener(routeAllTo("o"), hcm)],
    [effectiveCluster(protocolCluster(originPort, H2_UPSTREAM))],
  );
  try {
    await fn(p);
  } finally {
    await p.close();
  }
}

/** `p`, or a failure naming `what` if it has not settled in 10 s (a bound, not a measure). */
function bounded<T>(p: Promise<T>, what: string): Promise<T> {
  let t: ReturnType<typeof setTimeout> | undefined;
  const fail = new Promise<never>((_, rej) =>
    t = setTimeout(() => rej(new Error(`no ${what} within 10 s`)), 10_000)
  );
  return Promise.race([p, fail]).finally(() => clearTimeout(t));
}

Deno.test("http2 downstream: response trailers reach an HTTP/2 client after the body, and request trailers reach the handler", async () => {
  let requestTrailers: Headers | null = null;
  const l = new HttpListener(
    "127.0.0.1",
    0,
    async (req) => {
      const body = new Uint8Array(await new Response(req.body).arrayBuffer());
      requestTrailers = req.trailers?.headers ?? null;
      const trailers = trailerSlot();
      const out = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(body);
          trailers.headers = new HeaderMap([["grpc-status", "0"], ["x-sum", "abc"]]);
          c.close();
        },
      });
      return { status: 200, headers: new HeaderMap(), body: out, trailers };
    },
    [],
    [],
  );
  const s = http2.connect(`http://127.0.0.1:${l.port}`);
  try {
    const st = s.request({ ":path": "/", ":method": "POST" }, { waitForTrailers: true });
    st.on("wantTrailers", () => st.sendTrailers({ "x-req": "1" }));
    let got: http2.IncomingHttpHeaders | null = null;
    st.on("trailers", (t) => got = t);
    let body = "";
    st.setEncoding("utf8");
    st.on("data", (d: string) => body += d);
    const ended = new Promise((r) => st.on("end", r));
    st.end("payload");
    await bounded(ended, "end of the response");
    assert.equal(body, "payload");
    const t = got as http2.IncomingHttpHeaders | null;
    assert.deepEqual([t?.["grpc-status"], t?.["x-sum"]], ["0", "abc"]);
    assert.equal((requestTrailers as Headers | null)?.get("x-req"), "1");
  } finally {
    s.close();
    await l.close();
  }
});

/** A gRPC origin (over h2c): `/t.S/Echo` answers its request, `/t.S/Deny` fails with 7. */
async function grpcOrigin() {
  const server = new grpc.Server();
  const id = (b: Buffer) => b;
  server.addService({
    Echo: {
      path: "/t.S/Echo",
      requestStream: false,
      responseStream: false,
      requestSerialize: id,
      requestDeserialize: id,
      responseSerialize: id,
      responseDeserialize: id,
    },
    Deny: {
      path: "/t.S/Deny",
      requestStream: false,
      responseStream: false,
      requestSerialize: id,
      requestDeserialize: id,
      responseSerialize: id,
      responseDeserialize: id,
    },
  }, {
    Echo: (call: grpc.ServerUnaryCall<Buffer, Buffer>, cb: grpc.sendUnaryData<Buffer>) =>
      cb(null, Buffer.concat([Buffer.from("echo:"), call.request])),
    Deny: (_call: grpc.ServerUnaryCall<Buffer, Buffer>, cb: grpc.sendUnaryData<Buffer>) =>
      cb({ code: grpc.status.PERMISSION_DENIED, details: "no" }),
  });
  const port = await new Promise<number>((res, rej) =>
    server.bindAsync(
      "127.0.0.1:0",
      grpc.ServerCredentials.createInsecure(),
      (e, p) => e ? rej(e) : res(p),
    )
  );
  return { port, close: () => server.forceShutdown() };
}

function unary(
  client: grpc.Client,
  path: string,
  msg: string,
): Promise<{ code: number; details: string; reply: string }> {
  return new Promise((resolve) => {
    client.makeUnaryRequest(
      path,
      (b: Buffer) => b,
      (b: Buffer) => b,
      Buffer.from(msg),
      (e: grpc.ServiceError | null, reply?: Buffer) =>
        resolve({
          code: e?.code ?? grpc.status.OK,
          details: e?.details ?? "",
          reply: reply?.toString() ?? "",
        }),
    );
  });
}

Deno.test("http2 downstream: a gRPC call through the proxy gets its reply and grpc-status (trailers), and a failing call its status and message", async () => {
  const o = await grpcOrigin();
  try {
    await through(o.port, {}, async (p) => {
      const client = new grpc.Client(
        `127.0.0.1:${p.port()}`,
        grpc.credentials.createInsecure(),
      );
      try {
        const ok = await bounded(unary(client, "/t.S/Echo", "hi"), "gRPC reply");
        assert.deepEqual(ok, { code: grpc.status.OK, details: "", reply: "echo:hi" });
        const denied = await bounded(unary(client, "/t.S/Deny", "x"), "gRPC status");
        assert.deepEqual([denied.code, denied.details], [grpc.status.PERMISSION_DENIED, "no"]);
      } finally {
        client.close();
      }
    });
  } finally {
    o.close();
  }
});

/** The SETTINGS a client gets from the proxy, and the connection window it may use. */
async function seenSettings(port: number) {
  const s = http2.connect(`http://127.0.0.1:${port}`);
  s.on("error", () => {});
  try {
    const settings = await bounded(
      new Promise<http2.Settings>((r) => s.once("remoteSettings", r)),
      "SETTINGS",
    );
    // A request makes sure the WINDOW_UPDATE that follows the SETTINGS has arrived too.
    const st = s.request({ ":path": "/" });
    st.resume();
    await bounded(new Promise((r) => st.on("close", r)), "an answer");
    return { settings, window: s.state.remoteWindowSize };
  } finally {
    s.close();
  }
}

const answering = () =>
  Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response("ok"));

Deno.test("HttpConnectionManager.http2_protocol_options: unset, clients see Envoy's defaults (max_concurrent_streams 2147483647, windows of 256 MiB)", async () => {
  const o = answering();
  try {
    await through(o.addr.port, {}, async (p) => {
      const { settings, window } = await seenSettings(p.port());
      assert.equal(settings.maxConcurrentStreams, 2147483647);
      assert.equal(settings.initialWindowSize, 268435456);
      assert.equal(settings.headerTableSize, 4096);
      assert.equal(window, 268435456);
    });
  } finally {
    await o.shutdown();
  }
});

Deno.test("HttpConnectionManager.http2_protocol_options: max_concurrent_streams, initial_stream_window_size, hpack_table_size are the SETTINGS clients see, initial_connection_window_size the connection window", async () => {
  const o = answering();
  try {
    await through(o.addr.port, {
      http2_protocol_options: {
        max_concurrent_streams: 7,
        initial_stream_window_size: 131072,
        initial_connection_window_size: 1048576,
        hpack_table_size: 1024,
      },
    }, async (p) => {
      const { settings, window } = await seenSettings(p.port());
      assert.equal(settings.maxConcurrentStreams, 7);
      assert.equal(settings.initialWindowSize, 131072);
      assert.equal(settings.headerTableSize, 1024);
      assert.equal(window, 1048576);
    });
  } finally {
    await o.shutdown();
  }
});

function frame(type: number, flags: number, stream: number, payload: number[]): Uint8Array {
  const f = new Uint8Array(9 + payload.length);
  f[2] = payload.length;
  f[3] = type;
  f[4] = flags;
  new DataView(f.buffer).setUint32(5, stream);
  f.set(payload, 9);
  return f;
}

/** A GET of `/` on stream `id` (HPACK literals without indexing), ending the stream. */
function get(id: number): Uint8Array {
  const lit = (index: number, v: string) => [index, v.length, ...new TextEncoder().encode(v)];
  return frame(1, 0x5, id, [0x82, 0x86, ...lit(4, "/"), ...lit(1, "a")]);
}

interface RawFrame {
  type: number;
  flags: number;
  stream: number;
  payload: Uint8Array;
}

/** A client speaking raw frames; `ack` says whether it acknowledges the proxy's SETTINGS. */
async function rawClient(port: number, ack: boolean) {
  const c = await Deno.connect({ hostname: "127.0.0.1", port });
  let buf = new Uint8Array(0);
  const frames: RawFrame[] = [];
  /** Reads frames until one satisfies `want`; null when the proxy closes the connection. */
  const until = async (want: (f: RawFrame) => boolean): Promise<RawFrame | null> => {
    for (;;) {
      while (buf.length >= 9) {
        const len = (buf[0] << 16) | (buf[1] << 8) | buf[2];
        if (buf.length < 9 + len) break;
        const f = {
          type: buf[3],
          flags: buf[4],
          stream: new DataView(buf.buffer, buf.byteOffset).getUint32(5) & 0x7fffffff,
          payload: buf.slice(9, 9 + len),
        };
        buf = buf.slice(9 + len);
        frames.push(f);
        if (ack && f.type === 4 && (f.flags & 1) === 0) await c.write(frame(4, 1, 0, []));
        if (want(f)) return f;
      }
      const chunk = new Uint8Array(65536);
      const n = await c.read(chunk).catch(() => null);
      if (n === null) return null;
      buf = new Uint8Array([...buf, ...chunk.subarray(0, n)]);
    }
  };
  const preface = new TextEncoder().encode("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
  await c.write(new Uint8Array([...preface, ...frame(4, 0, 0, [])]));
  await bounded(until((f) => f.type === 4 && (f.flags & 1) === 0), "SETTINGS");
  return { c, frames, until };
}

const u32 = (f: RawFrame | null, at: number) =>
  f === null ? -1 : new DataView(f.payload.buffer).getUint32(at) & 0x7fffffff;

/** Runs `fn` through a proxy whose origin holds every answer until `release()`. */
async function holding(
  hcm: JsonObject,
  fn: (p: TestProxy, release: () => void, seen: () => number) => Promise<void>,
) {
  let release = () => {};
  const released = new Promise<void>((r) => release = r);
  let seen = 0;
  const o = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async () => {
    seen++;
    await released;
    return new Response("held");
  });
  try {
    await through(o.addr.port, hcm, (p) => fn(p, release, () => seen));
  } finally {
    release();
    await o.shutdown();
  }
}

const ONE_STREAM = { http2_protocol_options: { max_concurrent_streams: 1 } };

Deno.test("HttpConnectionManager.http2_protocol_options: a stream beyond max_concurrent_streams is refused (RST_STREAM REFUSED_STREAM) while the SETTINGS are not acknowledged; the open one is answered", async () => {
  await holding(ONE_STREAM, async (p, release, seen) => {
    const { c, frames, until } = await rawClient(p.port(), false);
    try {
      await c.write(get(1));
      await c.write(get(3));
      const rst = await bounded(until((f) => f.type === 3 && f.stream === 3), "RST_STREAM");
      assert.equal(u32(rst, 0), 7); // REFUSED_STREAM
      release();
      const end1 = (f: RawFrame) =>
        f.stream === 1 && (f.type === 0 || f.type === 1) && (f.flags & 1) === 1;
      assert.notEqual(await bounded(until(end1), "the answer of stream 1"), null);
      assert.ok(frames.some((f) => f.stream === 1 && f.type === 1), "stream 1 has its head");
      assert.equal(seen(), 1);
    } finally {
      c.close();
    }
  });
});

Deno.test("HttpConnectionManager.http2_protocol_options: a client that opens more than max_concurrent_streams after acknowledging them is sent a GOAWAY that leaves its extra stream unprocessed (the runtime's codec makes it a connection error)", async () => {
  await holding(ONE_STREAM, async (p, _release, seen) => {
    const { c, until } = await rawClient(p.port(), true);
    try {
      await bounded(until((f) => f.type === 4 && (f.flags & 1) === 1), "SETTINGS ACK");
      await c.write(get(1));
      await c.write(get(3));
      const goaway = await bounded(until((f) => f.type === 7), "GOAWAY");
      assert.equal(u32(goaway, 0), 1, "the last stream processed is 1");
      assert.equal(await bounded(until(() => false), "the close"), null);
      assert.equal(seen() <= 1, true, "stream 3 never reached the origin");
    } finally {
      c.close();
    }
  });
});

Deno.test("HttpConnectionManager.http2_protocol_options: values out of Envoy's ranges are refused with their paths", () => {
  const errors: Errors = [];
  const at = "hcm.http2_protocol_options";
  assert.deepEqual(parseH2Options(undefined, at, errors), H2_DEFAULTS);
  parseH2Options(
    {
      max_concurrent_streams: 0,
      initial_stream_window_size: 65534,
      initial_connection_window_size: { value: 2147483648 },
      hpack_table_size: -1,
    },
    at,
    errors,
  );
  assert.deepEqual(errors.map((e) => e.path), [
    `${at}.max_concurrent_streams`,
    `${at}.initial_stream_window_size`,
    `${at}.initial_connection_window_size`,
    `${at}.hpack_table_size`,
  ]);
  assert.equal(errors[1].message, "value must be inside range [65535, 2147483647] (got 65534)");
  const ok = parseH2Options({ initial_connection_window_size: { value: 65535 } }, at, []);
  assert.equal(ok.initialConnectionWindowSize, 65535);
});

const TLS_DIR = new URL("../../fixtures/tls/", import.meta.url).pathname;

Deno.test("HttpConnectionManager.http2_protocol_options: over TLS (h2 by ALPN, a listener choosing filter chains) clients see the same SETTINGS and get trailers", async () => {
  const o = await grpcOrigin();
  const listener = httpListener(routeAllTo("o"), {
    http2_protocol_options: { max_concurrent_streams: 9, initial_stream_window_size: 70000 },
  });
  const chain = (listener.filter_chains as JsonObject[])[0];
  chain.transport_socket = {
    name: "envoy.transport_sockets.tls",
    typed_config: {
      "@type": "type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.DownstreamTlsContext",
      common_tls_context: {
        alpn_protocols: ["h2", "http/1.1"],
        tls_certificates: [{
          certificate_chain: { filename: `${TLS_DIR}server.pem` },
          private_key: { filename: `${TLS_DIR}server.key` },
        }],
      },
    },
  };
  const p = await startTestProxy(
    [listener],
    [effectiveCluster(protocolCluster(o.port, H2_UPSTREAM))],
  );
  const s = http2.connect(`https://localhost:${p.port()}`, {
    ca: Deno.readTextFileSync(`${TLS_DIR}ca.pem`),
  });
  s.on("error", () => {});
  try {
    const settings = await bounded(
      new Promise<http2.Settings>((r) => s.once("remoteSettings", r)),
      "SETTINGS",
    );
    assert.equal(settings.maxConcurrentStreams, 9);
    assert.equal(settings.initialWindowSize, 70000);
    const st = s.request({
      ":path": "/t.S/Echo",
      ":method": "POST",
      "content-type": "application/grpc",
      te: "trailers",
    });
    let trailers: http2.IncomingHttpHeaders | null = null;
    st.on("trailers", (t) => trailers = t);
    st.resume();
    const closed = new Promise((r) => st.on("close", r));
    // One gRPC message: not compressed, 2 bytes long, "hi".
    st.end(new Uint8Array([0, 0, 0, 0, 2, 104, 105]));
    await bounded(closed, "the gRPC answer");
    assert.equal((trailers as http2.IncomingHttpHeaders | null)?.["grpc-status"], "0");
  } finally {
    s.close();
    await p.close();
    o.close();
  }
});
