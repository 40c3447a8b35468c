/**
 * `common_http_protocol_options.headers_with_underscores_action` of the HTTP connection manager,
 * through real sockets: a request header (or kept trailer) whose name holds `_` is passed on
 * (`ALLOW`, the default), dropped (`DROP_HEADER`) or the request refused with 400
 * (`REJECT_REQUEST`), counted in the codec's `http1.` or `http2.` counters as Envoy counts them.
 */
import assert from "node:assert/strict";
import http2 from "node:http2";
import type { JsonObject } from "../config/bootstrap_types.ts";
import { testCluster } from "../upstream/test_cluster.ts";
import { type EffectiveCluster, effectiveCluster } from "../config/effective_cluster.ts";
import { protocolCluster } from "../config/protocol_test_cluster.ts";
import { httpListener, startTestProxy, type TestProxy } from "./test_proxy.ts";
import { routeAllTo, type ScriptedOrigin, scriptedOrigin } from "./test_origins.ts";
import { parseDownstreamLimits } from "./downstream_limits.ts";
import type { Errors } from "../config/config_values.ts";

const OK = "HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok";
const underscores = (action: string): JsonObject => ({
  common_http_protocol_options: { headers_with_underscores_action: action },
});
const counter = (p: TestProxy, name: string) => p.store.counter(name).value();

async function through(
  o: ScriptedOrigin,
  hcm: JsonObject,
  fn: (p: TestProxy) => Promise<void>,
  cluster: EffectiveCluster = testCluster("o", [["127.0.0.1", o.port]]),
): Promise<void> {
  const p = await startTestProxy([httpListener(routeAllTo("o"), hcm)], [cluster]);
  try {
    await fn(p);
  } finally {
    await p.close();
    await o.close();
  }
}

/** Sends `request` raw and reads the answer until the proxy closes. */
async function rawSend(port: number, request: string): Promise<string> {
  const c = await Deno.connect({ hostname: "127.0.0.1", port });
  await c.write(new TextEncoder().encode(request));
  const buf = new Uint8Array(65536);
  let out = "";
  for (;;) {
    const n = await c.read(buf).catch(() => null);
    if (n === null) break;
    out += new TextDecoder().decode(buf.subarray(0, n));
  }
  c.close();
  return out;
}

const GET = "GET / HTTP/1.1\r\nhost: a\r\nx_under: 1\r\nx-dash: 2\r\nconnection: close\r\n\r\n";

Deno.test("DownstreamHttpProtocolOptions.headers_with_underscores_action: ALLOW, the default, passes a header with an underscore on", async () => {
  const o = scriptedOrigin(OK);
  await through(o, {}, async (p) => {
    assert.match(await rawSend(p.port(), GET), /^HTTP\/1\.1 200 /);
    assert.match(o.seen[0], /\r\nx_under: 1\r\n/);
    assert.equal(counter(p, "http1.dropped_headers_with_underscores"), 0);
  });
});

Deno.test("DownstreamHttpProtocolOptions.headers_with_underscores_action: DROP_HEADER removes it over HTTP/1.1, counted http1.dropped_headers_with_underscores", async () => {
  const o = scriptedOrigin(OK);
  await through(o, underscores("DROP_HEADER"), async (p) => {
    assert.match(await rawSend(p.port(), GET), /^HTTP\/1\.1 200 /);
    assert.doesNotMatch(o.seen[0], /x_under/);
    assert.match(o.seen[0], /\r\nx-dash: 2\r\n/);
    assert.equal(counter(p, "http1.dropped_headers_with_underscores"), 1);
  });
});

Deno.test("DownstreamHttpProtocolOptions.headers_with_underscores_action: REJECT_REQUEST answers 400 over HTTP/1.1 and closes, the origin sees nothing, counted http1.requests_rejected_with_underscores_in_headers", async () => {
  const o = scriptedOrigin(OK);
  await through(o, underscores("REJECT_REQUEST"), async (p) => {
    const answer = await rawSend(p.port(), GET.replace("connection: close\r\n", ""));
    assert.match(answer, /^HTTP\/1\.1 400 /);
    assert.equal(o.seen.length, 0);
    assert.equal(counter(p, "http1.requests_rejected_with_underscores_in_headers"), 1);
    // A request without one passes.
    assert.match(
      await rawSend(p.port(), "GET / HTTP/1.1\r\nhost: a\r\nconnection: close\r\n\r\n"),
      /^HTTP\/1\.1 200 /,
    );
  });
});

Deno.test("DownstreamHttpProtocolOptions.headers_with_underscores_action: over h2c, DROP_HEADER drops and REJECT_REQUEST refuses (400 here; Envoy resets the stream), counted in http2.", async () => {
  for (const action of ["DROP_HEADER", "REJECT_REQUEST"]) {
    const o = scriptedOrigin(OK);
    await through(o, underscores(action), async (p) => {
      const s = http2.connect(`http://127.0.0.1:${p.port()}`);
      s.on("error", () => {});
      try {
        const status = await new Promise<number>((resolve, reject) => {
          const st = s.request({ ":path": "/", "x_under": "1", "x-dash": "2" });
          st.on("response", (h) => resolve(Number(h[":status"])));
          st.on("error", reject);
          st.resume();
          st.end();
        });
        if (action === "DROP_HEADER") {
          assert.equal(status, 200);
          assert.doesNotMatch(o.seen[0], /x_under/);
          assert.match(o.seen[0], /\r\nx-dash: 2\r\n/);
          assert.equal(counter(p, "http2.dropped_headers_with_underscores"), 1);
        } else {
          assert.equal(status, 400);
          assert.equal(o.seen.length, 0);
          assert.equal(counter(p, "http2.requests_rejected_with_underscores_in_headers"), 1);
        }
      } finally {
        s.close();
      }
    });
  }
});

const POST = "POST /t HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n" +
  "connection: close\r\n\r\n5\r\nhello\r\n0\r\nx_t: 1\r\nx-sum: abc\r\n\r\n";
const TRAILERS: JsonObject = {
  explicit_http_config: { http_protocol_options: { enable_trailers: true } },
};

/** Records each chunked request to its last trailer. */
const chunkedOrigin = () =>
  scriptedOrigin(OK, (got) => {
    const at = got.indexOf("\r\n\r\n");
    return at >= 0 && got.endsWith("\r\n\r\n") && /(^|\r\n)0\r\n/.test(got.slice(at + 4));
  });

Deno.test("DownstreamHttpProtocolOptions.headers_with_underscores_action: kept request trailers are held to it too (DROP_HEADER drops x_t, the rest go on)", async () => {
  const o = chunkedOrigin();
  const hcm = {
    ...underscores("DROP_HEADER"),
    http_protocol_options: { enable_trailers: true },
  };
  await through(o, hcm, async (p) => {
    assert.match(await rawSend(p.port(), POST), /^HTTP\/1\.1 200 /);
    const body = o.seen[0].slice(o.seen[0].indexOf("\r\n\r\n") + 4);
    assert.equal(body, "5\r\nhello\r\n0\r\nx-sum: abc\r\n\r\n");
    assert.equal(counter(p, "http1.dropped_headers_with_underscores"), 1);
  }, effectiveCluster(protocolCluster(o.port, TRAILERS)));
});

Deno.test("DownstreamHttpProtocolOptions.headers_with_underscores_action: a value other than ALLOW, REJECT_REQUEST, DROP_HEADER (or 0-2) is an error at its path", () => {
  const errors: Errors = [];
  assert.equal(
    parseDownstreamLimits(underscores("DROP_HEADER"), "hcm", errors).headersWithUnderscores,
    "DROP_HEADER",
  );
  assert.equal(
    parseDownstreamLimits(
      { common_http_protocol_options: { headers_with_underscores_action: 1 } },
      "hcm",
      errors,
    ).headersWithUnderscores,
    "REJECT_REQUEST",
  );
  assert.equal(errors.length, 0);
  parseDownstreamLimits(underscores("DROP"), "hcm", errors);
  assert.deepEqual(errors.map((e) => e.path), [
    "hcm.common_http_protocol_options.headers_with_underscores_action",
  ]);
});
