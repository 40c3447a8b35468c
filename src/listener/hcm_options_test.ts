import assert from "node:assert/strict";
import type { JsonObject } from "../config/bootstrap_types.ts";
import { testCluster } from "../upstream/test_cluster.ts";
import { httpListener, rawExchange, startTestProxy, type TestProxy } from "./test_proxy.ts";
import { parseHcm } from "./http_connection_manager.ts";
import type { Errors } from "../config/config_values.ts";

const routes: JsonObject = {
  virtual_hosts: [{
    name: "all",
    domains: ["*"],
    routes: [
      { match: { prefix: "/up" }, route: { cluster: "web" } },
      { match: { prefix: "/gone" }, route: { cluster: "down" } },
      {
        match: { prefix: "/teapot" },
        direct_response: { status: 418, body: { inline_string: "short and stout" } },
      },
    ],
  }],
};

async function withHcm(
  extra: JsonObject,
  fn: (p: TestProxy, paths: string[]) => Promise<void>,
) {
  const paths: string[] = [];
  const origin = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const u = new URL(req.url);
    paths.push(u.pathname + u.search);
    return new Response("ok", { headers: u.pathname.includes("srv") ? { server: "origin" } : {} });
  });
  const p = await startTestProxy([httpListener(routes, extra)], [
    testCluster("web", [["127.0.0.1", origin.addr.port]]),
    testCluster("down", [["127.0.0.1", 1]]),
  ]);
  try {
    await fn(p, paths);
  } finally {
    await p.close();
    await origin.shutdown();
  }
}

const url = (p: TestProxy, path: string) => `http://127.0.0.1:${p.port()}${path}`;

Deno.test("local_reply_config: a mapper rewrites status, body and headers; body_format lays out every local reply", async () => {
  const cfg: JsonObject = {
    local_reply_config: {
      mappers: [
        {
          filter: {
            status_code_filter: {
              comparison: { op: "EQ", value: { default_value: 503, runtime_key: "k" } },
            },
          },
          status_code: 502,
          body: { inline_string: "the service is away" },
          headers_to_add: [{ header: { key: "x-mapped", value: "1" }, append: false }],
        },
        {
          filter: {
            header_filter: { header: { name: "accept", exact_match: "application/json" } },
          },
          body_format_override: {
            json_format: { code: "%RESPONSE_CODE%", message: "%LOCAL_REPLY_BODY%" },
          },
        },
      ],
      body_format: { text_format: "[%RESPONSE_CODE%] %LOCAL_REPLY_BODY% (%REQ(:PATH)%)" },
    },
  };
  await withHcm(cfg, async (p) => {
    const gone = await fetch(url(p, "/gone"));
    assert.equal(gone.status, 502);
    assert.equal(gone.headers.get("x-mapped"), "1");
    assert.equal(gone.headers.get("content-type"), "text/plain");
    assert.equal(await gone.text(), "[502] the service is away (/gone)");
    const nr = await fetch(url(p, "/nowhere"));
    assert.equal(nr.status, 404);
    // An empty value is written "-" in a text format, as in access logs.
    assert.equal(await nr.text(), "[404] - (/nowhere)");
    const tea = await fetch(url(p, "/teapot"), { headers: { accept: "application/json" } });
    assert.equal(tea.status, 418);
    assert.equal(tea.headers.get("content-type"), "application/json");
    assert.deepEqual(JSON.parse(await tea.text()), { code: 418, message: "short and stout" });
    const up = await fetch(url(p, "/up"));
    assert.equal(await up.text(), "ok");
  });
});

Deno.test("server_header_transformation: OVERWRITE (default), APPEND_IF_ABSENT and PASS_THROUGH", async () => {
  const server = async (extra: JsonObject, path: string) => {
    let got: string | null = null;
    await withHcm(extra, async (p) => {
      const r = await fetch(url(p, path));
      await r.body?.cancel();
      got = r.headers.get("server");
    });
    return got;
  };
  assert.equal(await server({}, "/up/srv"), "proxy");
  assert.equal(
    await server({ server_header_transformation: "APPEND_IF_ABSENT" }, "/up/srv"),
    "origin",
  );
  assert.equal(
    await server({ server_header_transformation: "APPEND_IF_ABSENT" }, "/up/x"),
    "proxy",
  );
  assert.equal(await server({ server_header_transformation: "PASS_THROUGH" }, "/up/srv"), "origin");
  assert.equal(await server({ server_header_transformation: "PASS_THROUGH" }, "/up/x"), null);
});

Deno.test("normalize_path and merge_slashes: the path is cleaned before it is routed and forwarded", async () => {
  await withHcm({ normalize_path: true, merge_slashes: true }, async (p, paths) => {
    const raw = await rawExchange(
      p.port(),
      "GET /x/../up//a/./b/%2e%2E/c?q=/../ HTTP/1.1\r\nhost: h\r\nconnection: close\r\n\r\n",
    );
    assert.match(raw, /^HTTP\/1\.1 200 /);
    assert.deepEqual(paths, ["/up/a/c?q=/../"]);
  });
  await withHcm({}, async (p) => {
    const raw = await rawExchange(
      p.port(),
      "GET /x/../up/a HTTP/1.1\r\nhost: h\r\nconnection: close\r\n\r\n",
    );
    assert.match(raw, /^HTTP\/1\.1 404 /);
  });
});

Deno.test("path_with_escaped_slashes_action: escaped slashes kept, refused, redirected or unescaped", async () => {
  const send = (p: TestProxy) =>
    rawExchange(p.port(), "GET /up%2Fa%5cb HTTP/1.1\r\nhost: h\r\nconnection: close\r\n\r\n");
  await withHcm({ path_with_escaped_slashes_action: "KEEP_UNCHANGED" }, async (p, paths) => {
    assert.match(await send(p), /^HTTP\/1\.1 200 /);
    assert.deepEqual(paths, ["/up%2Fa%5cb"]);
  });
  await withHcm({ path_with_escaped_slashes_action: "REJECT_REQUEST" }, async (p, paths) => {
    assert.match(await send(p), /^HTTP\/1\.1 400 /);
    assert.deepEqual(paths, []);
  });
  await withHcm({ path_with_escaped_slashes_action: "UNESCAPE_AND_REDIRECT" }, async (p) => {
    const r = await send(p);
    assert.match(r, /^HTTP\/1\.1 307 /);
    assert.match(r, /\r\nlocation: \/up\/a\\b\r\n/i);
  });
  await withHcm({ path_with_escaped_slashes_action: "UNESCAPE_AND_FORWARD" }, async (p, paths) => {
    const r = await rawExchange(
      p.port(),
      "GET /up%2Fa%2fb HTTP/1.1\r\nhost: h\r\nconnection: close\r\n\r\n",
    );
    assert.match(r, /^HTTP\/1\.1 200 /);
    assert.deepEqual(paths, ["/up/a/b"]);
  });
});

const PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

Deno.test("codec_type: HTTP1 refuses h2c with 400; HTTP2 closes an HTTP/1.1 connection and serves h2c", async () => {
  await withHcm({ codec_type: "HTTP1" }, async (p) => {
    assert.match(await rawExchange(p.port(), PREFACE), /^HTTP\/1\.1 400 /);
  });
  await withHcm({ codec_type: "HTTP2" }, async (p) => {
    assert.equal(
      await rawExchange(p.port(), "GET /up HTTP/1.1\r\nhost: h\r\nconnection: close\r\n\r\n"),
      "",
    );
    // The h2c server answers the preface with its SETTINGS frame (type 4).
    const c = await Deno.connect({ hostname: "127.0.0.1", port: p.port() });
    try {
      await c.write(new TextEncoder().encode(PREFACE));
      await c.write(new Uint8Array([0, 0, 0, 4, 0, 0, 0, 0, 0]));
      const buf = new Uint8Array(9);
      let n = 0;
      while (n < 9) {
        const r = await c.read(buf.subarray(n));
        if (r === null) break;
        n += r;
      }
      assert.equal(buf[3], 4);
    } finally {
      c.close();
    }
  });
});

Deno.test("http_protocol_options: HTTP/1.0 is answered 426 unless accept_http_10; its default host routes; proper case", async () => {
  const r10 = "GET /up HTTP/1.0\r\n\r\n";
  await withHcm({}, async (p, paths) => {
    const r = await rawExchange(p.port(), r10);
    assert.match(r, /^HTTP\/1\.1 426 /);
    assert.deepEqual(paths, []);
  });
  const hostRoutes: JsonObject = {
    virtual_hosts: [
      {
        name: "a",
        domains: ["a.example"],
        routes: [{ match: { prefix: "/" }, route: { cluster: "web" } }],
      },
    ],
  };
  const p = await startTestProxy([httpListener(hostRoutes, {
    http_protocol_options: {
      accept_http_10: true,
      default_host_for_http_10: "a.example",
      header_key_format: { proper_case_words: {} },
    },
  })], [testCluster("web", [["127.0.0.1", 1]])]);
  try {
    const r = await rawExchange(p.port(), r10);
    // Routed by the default host (to a cluster that refuses connections: 503, not 404).
    assert.match(r, /^HTTP\/1\.[01] 503 /);
    assert.match(r, /\r\nContent-Type: text\/plain\r\n/);
    assert.match(r, /\r\nContent-Length: /);
  } finally {
    await p.close();
  }
});

Deno.test("hcm options: bad values are errors naming their path", () => {
  const errors: Errors = [];
  parseHcm(
    {
      stat_prefix: "s",
      route_config: routes,
      server_header_transformation: "SOMETIMES",
      path_with_escaped_slashes_action: "NOPE",
      normalize_path: "yes",
      local_reply_config: {
        mappers: [{ status_code: 200 }],
        body_format: { text_format: "%NOPE%" },
      },
    },
    "hcm",
    errors,
    new Set(["web", "down"]),
  );
  assert.deepEqual(errors.map((e) => e.path), [
    "hcm.local_reply_config.mappers[0].filter",
    "hcm.local_reply_config.body_format.text_format",
    "hcm.server_header_transformation",
    "hcm.path_with_escaped_slashes_action",
    "hcm.normalize_path",
  ]);
});
