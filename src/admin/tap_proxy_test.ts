import assert from "node:assert/strict";
import { fromRequest } from "../http/downstream_request.ts";
import { proxyResponse } from "../http/proxy_response.ts";
import fc from "fast-check";
import type { JsonObject } from "../config/bootstrap_types.ts";
import { testCluster } from "../upstream/test_cluster.ts";
import { call, type TestContext, testContext } from "./testing_context.ts";
import { httpListener, startTestProxy, type TestProxy } from "../listener/test_proxy.ts";
import { attachTapSession, beginTap, compileTapMatch } from "../filters/tap_filter.ts";
import type { Errors } from "../config/config_values.ts";

const ROUTES: JsonObject = {
  name: "rc",
  virtual_hosts: [{
    name: "v",
    domains: ["*"],
    routes: [{ match: { prefix: "/" }, route: { cluster: "o" } }],
  }],
};

function tapFilter(name: string, id: string): JsonObject {
  return {
    name,
    typed_config: {
      "@type": "type.googleapis.com/envoy.extensions.filters.http.tap.v3.Tap",
      common_config: { admin_config: { config_id: id } },
    },
  };
}

function bootstrapOf(listener: JsonObject): JsonObject {
  return { static_resources: { listeners: [listener] } };
}

async function withTapProxy(
  id: string,
  fn: (p: TestProxy, ctx: TestContext) => Promise<void>,
  filterName = "envoy.filters.http.tap",
) {
  const origin = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (r) => {
    const body = await r.text();
    return new Response(`echo:${body}`, { headers: { "x-origin": "yes" } });
  });
  const listener = httpListener(ROUTES, {}, [
    tapFilter(filterName, id),
    { name: "envoy.filters.http.router" },
  ]);
  const p = await startTestProxy([listener], [testCluster("o", [["127.0.0.1", origin.addr.port]])]);
  const ctx = testContext({ features: ["tap"], bootstrap: bootstrapOf(listener) });
  try {
    await fn(p, ctx);
  } finally {
    await p.close();
    await origin.shutdown();
  }
}

function tapBody(id: string, match: JsonObject, output: JsonObject = {}): string {
  return JSON.stringify({
    config_id: id,
    tap_config: { match, output_config: { sinks: [{ streaming_admin: {} }], ...output } },
  });
}

async function send(p: TestProxy, path: string, body?: string): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${p.port()}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "x-test": "t1" },
    body,
  });
  return await res.text();
}

type Header = { key: string; value: string };
const header = (hs: Header[], k: string) => hs.find((h) => h.key === k)?.value;

async function readTrace(reader: ReadableStreamDefaultReader<Uint8Array>) {
  const { value } = await reader.read();
  return JSON.parse(new TextDecoder().decode(value)).http_buffered_trace;
}

Deno.test("admin.endpoints.tap: any_match streams an http_buffered_trace of each request", async () => {
  await withTapProxy("t1", async (p, ctx) => {
    const res = await call(ctx, "POST", "/tap", {
      body: tapBody("t1", { any_match: true }, { format: "JSON_BODY_AS_STRING" }),
    });
    assert.equal(res.status, 200);
    const reader = res.body!.getReader();
    assert.equal(await send(p, "/a?q=1", "hello"), "echo:hello");
    const t = await readTrace(reader);
    assert.equal(header(t.request.headers, ":path"), "/a?q=1");
    assert.equal(header(t.request.headers, ":method"), "POST");
    assert.equal(header(t.request.headers, "x-test"), "t1");
    assert.deepEqual(t.request.body, { as_string: "hello" });
    assert.equal(header(t.response.headers, ":status"), "200");
    assert.equal(header(t.response.headers, "x-origin"), "yes");
    assert.deepEqual(t.response.body, { as_string: "echo:hello" });
    await reader.cancel();
    // Detached: requests pass without publishing, and a new session may attach.
    assert.equal(await send(p, "/b"), "echo:");
    const again = await call(ctx, "POST", "/tap", { body: tapBody("t1", { any_match: true }) });
    assert.equal(again.status, 200);
    await again.body!.cancel();
  });
});

Deno.test("admin.endpoints.tap: bodies default to base64 as_bytes cut at 1024 bytes; proxy. spelling", async () => {
  await withTapProxy("t2", async (p, ctx) => {
    const res = await call(ctx, "POST", "/tap", { body: tapBody("t2", { any_match: true }) });
    const reader = res.body!.getReader();
    const big = "x".repeat(1500);
    await send(p, "/", big);
    const t = await readTrace(reader);
    assert.equal(t.request.body.truncated, true);
    assert.equal(atob(t.request.body.as_bytes), "x".repeat(1024));
    assert.equal(atob(t.response.body.as_bytes), ("echo:" + big).slice(0, 1024));
    await reader.cancel();
  }, "proxy.filters.http.tap");
});

Deno.test("admin.endpoints.tap: header matches select requests; a non-matching request sends nothing", async () => {
  await withTapProxy("t3", async (p, ctx) => {
    const match: JsonObject = {
      and_match: {
        rules: [
          { http_request_headers_match: { headers: [{ name: ":path", prefix_match: "/yes" }] } },
          { http_response_headers_match: { headers: [{ name: "x-origin", exact_match: "yes" }] } },
        ],
      },
    };
    const res = await call(ctx, "POST", "/tap", { body: tapBody("t3", match) });
    const reader = res.body!.getReader();
    await send(p, "/no");
    await send(p, "/yes/1");
    const t = await readTrace(reader);
    assert.equal(header(t.request.headers, ":path"), "/yes/1");
    assert.equal(t.request.body, undefined);
    await reader.cancel();
  });
});

Deno.test("admin.endpoints.tap: an invalid match or output format is refused with where", async () => {
  await withTapProxy("t4", async (_p, ctx) => {
    const bad = await call(ctx, "POST", "/tap", { body: tapBody("t4", { bogus_match: {} }) });
    assert.equal(bad.status, 400);
    assert.match(await bad.text(), /^TapRequest\.tap_config\.match\.bogus_match: /);
    const fmt = await call(ctx, "POST", "/tap", {
      body: tapBody("t4", { any_match: true }, { format: "PROTO_TEXT" }),
    });
    assert.equal(fmt.status, 400);
    assert.match(await fmt.text(), /output_config\.format/);
  });
});

Deno.test("admin.endpoints.tap: without attached sessions the filter costs nothing", () => {
  const req = fromRequest(new Request("http://a/"));
  assert.equal(beginTap({ configId: "none" }, req), null);
  const sent: unknown[] = [];
  const detach = attachTapSession({
    configId: "none",
    match: () => true,
    maxRx: 1,
    maxTx: 1,
    asString: true,
    send: (t) => sent.push(t) > 0,
  });
  const tx = beginTap({ configId: "none" }, req)!;
  const res = tx.finish(proxyResponse(204));
  assert.equal(sent.length, 0, "published once the response has gone downstream");
  res.onEnd?.(0, "complete");
  assert.equal(sent.length, 1);
  detach();
  assert.equal(beginTap({ configId: "none" }, req), null);
});

Deno.test("admin.endpoints.tap: compileTapMatch never throws on arbitrary input", () => {
  fc.assert(fc.property(fc.jsonValue(), (v) => {
    const errors: Errors = [];
    const m = compileTapMatch(v as never, "m", errors);
    assert.ok(m !== null || errors.length > 0);
  }));
});
