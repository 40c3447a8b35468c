import assert from "node:assert/strict";
import http2 from "node:http2";
import type { JsonObject } from "../config/bootstrap_types.ts";
import { effectiveCluster } from "../config/effective_cluster.ts";
import { protocolCluster } from "../config/protocol_test_cluster.ts";
import { httpListener, startTestProxy, type TestProxy } from "./test_proxy.ts";
import { routeAllTo, scriptedOrigin } from "./test_origins.ts";
import { parseHcmOptions } from "./hcm_options.ts";
import { clusterSupportErrors } from "../config/support_check.ts";
import type { Errors } from "../config/config_values.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** What every test origin answers with on the wire (an HTTP/1.1 chunked response). */
const CHUNKED_WITH_TRAILERS = "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n" +
  "trailer: x-checksum\r\n\r\n5\r\nhello\r\n0\r\n" +
  "X-Checksum: abc123\r\nx-two: 2\r\ncontent-length: 9\r\n\r\n";

/** An h2c origin whose responses end with `grpc-status` and `grpc-message` trailers. */
async function grpcOrigin() {
  const server = http2.createServer();
  server.on("stream", (st: http2.ServerHttp2Stream) => {
    st.respond({ ":status": 200, "content-type": "application/grpc" }, { waitForTrailers: true });
    st.on("wantTrailers", () => st.sendTrailers({ "grpc-status": "7", "grpc-message": "denied" }));
    st.end("payload");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    port: (server.address() as { port: number }).port,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** A raw HTTP/1.1 client: one GET with `connection: close`, the whole answer as text. */
const rawGet = (port: number) =>
  rawSend(port, "GET /t HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n");

/** The part of a chunked answer after its head. */
const bodyOf = (answer: string) => answer.slice(answer.indexOf("\r\n\r\n") + 4);

const h1Options = (trailers: boolean): JsonObject => ({
  explicit_http_config: { http_protocol_options: { enable_trailers: trailers } },
});

async function through(
  cluster: JsonObject,
  hcm: JsonObject,
  fn: (p: TestProxy) => Promise<void>,
): Promise<void> {
  const p = await startTestProxy(
    [httpListener(routeAllTo("o"), hcm)],
    [effectiveCluster(cluster)],
    { fileFlushIntervalMs: 0 },
  );
  try {
    await fn(p);
  } finally {
    await p.close();
  }
}

const TRAILERS_ON = { http_protocol_options: { enable_trailers: true } };

Deno.test("trailers: a chunked HTTP/1.1 upstream response's trailers reach an HTTP/1.1 client with enable_trailers on both sides", async () => {
  const o = scriptedOrigin(CHUNKED_WITH_TRAILERS);
  try {
    await through(protocolCluster(o.port, h1Options(true)), TRAILERS_ON, async (p) => {
      const answer = await rawGet(p.port());
      assert.match(answer, /^HTTP\/1\.1 200 OK\r\n/);
      assert.match(answer, /\r\ntransfer-encoding: chunked\r\n/);
      // Field names lower-cased; content-length may not be a trailer (RFC 9110 §6.5.1).
      assert.equal(bodyOf(answer), "5\r\nhello\r\n0\r\nx-checksum: abc123\r\nx-two: 2\r\n\r\n");
    });
  } finally {
    await o.close();
  }
});

Deno.test("trailers: without enable_trailers on the cluster or on the connection manager they are dropped, as Envoy", async () => {
  const o = scriptedOrigin(CHUNKED_WITH_TRAILERS);
  try {
    for (const [cluster, hcm] of [[false, true], [true, false]] as const) {
      await through(
        protocolCluster(o.port, h1Options(cluster)),
        hcm ? TRAILERS_ON : {},
        async (p) => {
          assert.equal(bodyOf(await rawGet(p.port())), "5\r\nhello\r\n0\r\n\r\n");
        },
      );
    }
  } finally {
    await o.close();
  }
});

Deno.test("trailers: a malformed upstream trailer line is a protocol error, not forwarded", async () => {
  const o = scriptedOrigin(
    "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\nno colon here\r\n\r\n",
  );
  try {
    await through(protocolCluster(o.port, h1Options(true)), TRAILERS_ON, async (p) => {
      const answer = await rawGet(p.port());
      assert.doesNotMatch(answer, /no colon here/);
      // The body broke off after its head: the last chunk is never written.
      assert.doesNotMatch(bodyOf(answer), /0\r\n\r\n$/);
    });
  } finally {
    await o.close();
  }
});

Deno.test("trailers: an HTTP/2 upstream's trailers (grpc-status) reach an HTTP/1.1 client and %TRAILER()% in text and JSON access logs", async () => {
  const o = await grpcOrigin();
  const dir = await Deno.makeTempDir();
  const fileLog = (name: string, log_format: JsonObject) => ({
    name: "envoy.access_loggers.file",
    typed_config: {
      "@type": "type.googleapis.com/envoy.extensions.access_loggers.file.v3.FileAccessLog",
      path: `${dir}/${name}`,
      log_format,
    },
  });
  const hcm = {
    ...TRAILERS_ON,
    access_log: [
      fileLog("text.log", {
        text_format:
          "%TRAILER(grpc-status)% %TRAILER(x-none?grpc-message)% %TRAILER(grpc-message):3% " +
          "%TRAILER(x-none)% %RESP(grpc-status)%\n",
      }),
      fileLog("json.log", {
        json_format: { status: "%TRAILER(GRPC-STATUS)%", none: "%TRAILER(x-none)%" },
      }),
    ],
  };
  const h2 = protocolCluster(o.port, { explicit_http_config: { http2_protocol_options: {} } });
  try {
    await through(h2, hcm, async (p) => {
      const answer = await rawGet(p.port());
      assert.match(answer, /^HTTP\/1\.1 200 OK\r\n/);
      assert.match(answer, /\r\ntransfer-encoding: chunked\r\n/);
      assert.equal(
        bodyOf(answer),
        "7\r\npayload\r\n0\r\ngrpc-status: 7\r\ngrpc-message: denied\r\n\r\n",
      );
      assert.equal(await Deno.readTextFile(`${dir}/text.log`), "7 denied den - -\n");
      assert.equal(await Deno.readTextFile(`${dir}/json.log`), '{"status":"7","none":null}\n');
    });
  } finally {
    await o.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("trailers: HTTP/2 clients get the upstream's trailers after the body (no enable_trailers needed: HTTP/2 always carries them)", async () => {
  const o = await grpcOrigin();
  const h2 = protocolCluster(o.port, { explicit_http_config: { http2_protocol_options: {} } });
  try {
    await through(h2, {}, async (p) => {
      const s = http2.connect(`http://127.0.0.1:${p.port()}`);
      try {
        const st = s.request({ ":path": "/t" });
        let trailers: http2.IncomingHttpHeaders | null = null;
        st.on("trailers", (t) => trailers = t);
        let body = "";
        st.on("data", (d: Uint8Array) => body += decoder.decode(d));
        const status = new Promise<number>((r) => st.on("response", (h) => r(h[":status"]!)));
        const ended = new Promise((r) => st.on("end", r));
        st.end();
        await ended;
        assert.equal(await status, 200);
        assert.equal(body, "payload");
        const t = trailers as http2.IncomingHttpHeaders | null;
        assert.deepEqual([t?.["grpc-status"], t?.["grpc-message"]], ["7", "denied"]);
      } finally {
        s.close();
      }
    });
  } finally {
    await o.close();
  }
});

Deno.test("trailers: enable_trailers must be a boolean, said with its path", () => {
  const errors: Errors = [];
  const o = parseHcmOptions({ http_protocol_options: { enable_trailers: "yes" } }, "hcm", errors);
  assert.deepEqual(errors.map((e) => e.path), ["hcm.http_protocol_options.enable_trailers"]);
  assert.equal(o.trailers, false);
  assert.equal(parseHcmOptions(TRAILERS_ON, "hcm", []).trailers, true);
});

const POST_WITH_TRAILERS = "POST /t HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n" +
  "connection: close\r\n\r\n5\r\nhello\r\n0\r\nX-Req: 1\r\nx-sum: abc\r\nhost: evil\r\n\r\n";

/** A raw TCP origin that records each chunked request (head and body) and answers 200. */
const recordingOrigin = () =>
  scriptedOrigin("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok", (got) => {
    const at = got.indexOf("\r\n\r\n");
    if (at < 0) return false;
    const body = got.slice(at + 4);
    return body.endsWith("\r\n\r\n") && /(^|\r\n)0\r\n/.test(body);
  });

/** Sends `request` raw and reads the answer to its end. */
async function rawSend(port: number, request: string): Promise<string> {
  const c = await Deno.connect({ hostname: "127.0.0.1", port });
  await c.write(encoder.encode(request));
  const buf = new Uint8Array(65536);
  let out = "";
  for (;;) {
    const n = await c.read(buf).catch(() => null);
    if (n === null) break;
    out += decoder.decode(buf.subarray(0, n));
  }
  c.close();
  return out;
}

Deno.test("trailers: a chunked HTTP/1.1 request's trailers go to an HTTP/1.1 upstream with enable_trailers on both sides, else are dropped", async () => {
  const o = recordingOrigin();
  try {
    for (const [cluster, hcm] of [[true, true], [false, true], [true, false]] as const) {
      await through(
        protocolCluster(o.port, h1Options(cluster)),
        hcm ? TRAILERS_ON : {},
        async (p) => {
          assert.match(await rawSend(p.port(), POST_WITH_TRAILERS), /^HTTP\/1\.1 200 /);
        },
      );
    }
    const bodies = o.seen.map(bodyOf);
    assert.deepEqual(bodies, [
      "5\r\nhello\r\n0\r\nx-req: 1\r\nx-sum: abc\r\n\r\n",
      "5\r\nhello\r\n0\r\n\r\n",
      "5\r\nhello\r\n0\r\n\r\n",
    ]);
  } finally {
    await o.close();
  }
});

Deno.test("trailers: a chunked HTTP/1.1 request's trailers go to an HTTP/2 upstream as a trailing HEADERS frame", async () => {
  const server = http2.createServer();
  const seen: { body: string; trailers: Record<string, unknown> | null; te: unknown }[] = [];
  server.on("stream", (st: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders) => {
    let body = "";
    let trailers: Record<string, unknown> | null = null;
    st.on("data", (d: Uint8Array) => body += decoder.decode(d));
    st.on("trailers", (t: Record<string, unknown>) => trailers = { ...t });
    st.on("end", () => {
      seen.push({ body, trailers, te: headers["te"] });
      st.respond({ ":status": 200 });
      st.end("ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  const h2 = protocolCluster(port, { explicit_http_config: { http2_protocol_options: {} } });
  try {
    await through(h2, TRAILERS_ON, async (p) => {
      const withTe = POST_WITH_TRAILERS.replace("host: x\r\n", "host: x\r\nte: trailers\r\n");
      assert.match(await rawSend(p.port(), withTe), /^HTTP\/1\.1 200 /);
      // A chunked request without trailers still ends its stream.
      const plain = POST_WITH_TRAILERS.replace(/0\r\n.*$/s, "0\r\n\r\n");
      assert.match(await rawSend(p.port(), plain), /^HTTP\/1\.1 200 /);
    });
    assert.equal(seen.length, 2);
    assert.equal(seen[0].body, "hello");
    assert.equal(seen[0].trailers?.["x-req"], "1");
    assert.equal(seen[0].trailers?.["x-sum"], "abc");
    assert.equal(seen[0].trailers?.["host"], undefined);
    assert.equal(seen[0].te, "trailers");
    assert.equal(seen[1].body, "hello");
  } finally {
    await new Promise<void>((r) => server.close(() => r()));
  }
});

Deno.test("trailers: enable_trailers also holds on a listener that chooses among filter chains", async () => {
  const o = scriptedOrigin(CHUNKED_WITH_TRAILERS);
  const l = httpListener(routeAllTo("o"), TRAILERS_ON);
  const chain = (l.filter_chains as JsonObject[])[0];
  l.default_filter_chain = structuredClone(chain);
  chain.filter_chain_match = { destination_port: 1 };
  const p = await startTestProxy([l], [effectiveCluster(protocolCluster(o.port, h1Options(true)))]);
  try {
    assert.equal(
      bodyOf(await rawGet(p.port())),
      "5\r\nhello\r\n0\r\nx-checksum: abc123\r\nx-two: 2\r\n\r\n",
    );
  } finally {
    await p.close();
    await o.close();
  }
});

Deno.test("trailers: the cluster's own http_protocol_options.enable_trailers keeps them too; its other fields stay refused", async () => {
  const o = scriptedOrigin(CHUNKED_WITH_TRAILERS);
  const own = (h1: JsonObject): JsonObject => {
    const c = protocolCluster(o.port, {});
    delete c.typed_extension_protocol_options;
    return { ...c, http_protocol_options: h1 };
  };
  try {
    await through(own({ enable_trailers: true }), TRAILERS_ON, async (p) => {
      assert.equal(
        bodyOf(await rawGet(p.port())),
        "5\r\nhello\r\n0\r\nx-checksum: abc123\r\nx-two: 2\r\n\r\n",
      );
    });
    const bad = own({ enable_trailers: true, accept_http_10: true });
    const errors = clusterSupportErrors([bad], "c");
    assert.deepEqual(errors.map((e) => e.path), ["c[0].http_protocol_options.accept_http_10"]);
    assert.deepEqual(clusterSupportErrors([own({ enable_trailers: true })], "c"), []);
  } finally {
    await o.close();
  }
});

Deno.test("trailers: kept request trailers are held to the header count limit (431), a malformed one is refused (400)", async () => {
  const o = recordingOrigin();
  const many = Array.from({ length: 101 }, (_, i) => `x-t${i}: v\r\n`).join("");
  const head = "POST /t HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n" +
    "connection: close\r\n\r\n5\r\nhello\r\n0\r\n";
  try {
    await through(protocolCluster(o.port, h1Options(true)), TRAILERS_ON, async (p) => {
      assert.match(await rawSend(p.port(), head + many + "\r\n"), /^HTTP\/1\.1 431 /);
      assert.match(await rawSend(p.port(), head + "bad trailer\r\n\r\n"), /^HTTP\/1\.1 400 /);
    });
  } finally {
    await o.close();
  }
});

Deno.test("trailers: an upstream sending more trailer fields than max_headers_count allows breaks off the response", async () => {
  const many = Array.from({ length: 101 }, (_, i) => `x-t${i}: v\r\n`).join("");
  const o = scriptedOrigin(
    "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\n" + many + "\r\n",
  );
  try {
    await through(protocolCluster(o.port, h1Options(true)), TRAILERS_ON, async (p) => {
      const answer = await rawGet(p.port());
      assert.doesNotMatch(answer, /x-t0/);
      // The body broke off: the client never sees its last chunk.
      assert.doesNotMatch(bodyOf(answer), /0\r\n\r\n$/);
    });
  } finally {
    await o.close();
  }
});

Deno.test("trailers: an HTTP/1.0 client's response is not chunked, so its trailers are dropped (RFC 9112 section 7.1.2)", async () => {
  const o = scriptedOrigin(CHUNKED_WITH_TRAILERS);
  const hcm = { http_protocol_options: { enable_trailers: true, accept_http_10: true } };
  try {
    await through(protocolCluster(o.port, h1Options(true)), hcm, async (p) => {
      const answer = await rawSend(p.port(), "GET /t HTTP/1.0\r\nhost: x\r\n\r\n");
      assert.doesNotMatch(answer, /transfer-encoding/i);
      assert.equal(bodyOf(answer), "hello");
    });
  } finally {
    await o.close();
  }
});
