import assert from "node:assert/strict";
import type { JsonObject } from "../config/bootstrap_types.ts";
import { testCluster } from "../upstream/test_cluster.ts";
import { parseAccessLogs } from "../access_log/access_log_config.ts";
import { AccessLogFiles } from "../access_log/access_log_file.ts";
import type { Errors } from "../config/config_values.ts";
import { httpListener, startTestProxy, type TestProxy } from "./test_proxy.ts";

const routes: JsonObject = {
  virtual_hosts: [{
    name: "all",
    domains: ["*"],
    routes: [
      { match: { prefix: "/none" }, route: { cluster: "down" } },
      { match: { prefix: "/up" }, route: { cluster: "web" } },
    ],
  }],
};

const FORMAT = "%REQ(:METHOD)% %REQ(X-PROXY-ORIGINAL-PATH?:PATH)% %PROTOCOL% %RESPONSE_CODE% " +
  "%RESPONSE_FLAGS% %BYTES_RECEIVED% %BYTES_SENT% %UPSTREAM_CLUSTER% %UPSTREAM_HOST% " +
  "%REQ(X-FORWARDED-FOR)% %REQ(:AUTHORITY)% %RESP(CONTENT-TYPE)%\n";

async function withLog(
  accessLog: JsonObject[],
  fn: (p: TestProxy, origin: number, read: () => Promise<string>, dir: string) => Promise<void>,
  flushMs = 0,
) {
  const dir = await Deno.makeTempDir();
  const origin = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    await req.arrayBuffer();
    return new Response("hello", { headers: { "content-type": "text/plain" } });
  });
  const subst = JSON.parse(JSON.stringify(accessLog).replaceAll("$DIR", dir));
  const p = await startTestProxy(
    [httpListener(routes, { access_log: subst })],
    [
      testCluster("web", [["127.0.0.1", origin.addr.port]]),
      testCluster("down", [["127.0.0.1", 1]]),
    ],
    { fileFlushIntervalMs: flushMs },
  );
  try {
    await fn(p, origin.addr.port, () => Deno.readTextFile(`${dir}/access.log`), dir);
  } finally {
    await p.close();
    await origin.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
}

const v3 = (logFormat: JsonObject) => [{
  name: "envoy.access_loggers.file",
  typed_config: {
    "@type": "type.googleapis.com/envoy.extensions.access_loggers.file.v3.FileAccessLog",
    path: "$DIR/access.log",
    log_format: logFormat,
  },
}];

Deno.test("access log: v3 text_format lines for a proxied request, a POST and a connect failure (UF)", async () => {
  await withLog(v3({ text_format: FORMAT }), async (p, origin, read) => {
    const base = `http://127.0.0.1:${p.port()}`;
    await (await fetch(`${base}/up/a?x=1`, { headers: { "x-forwarded-for": "10.1.1.1" } }))
      .text();
    await (await fetch(`${base}/up/post`, { method: "POST", body: "12345678" })).text();
    await (await fetch(`${base}/none`)).text();
    await (await fetch(`${base}/nowhere`)).text();
    const host = `127.0.0.1:${p.port()}`;
    assert.equal(
      await read(),
      `GET /up/a?x=1 HTTP/1.1 200 - 0 5 web 127.0.0.1:${origin} 10.1.1.1 ${host} text/plain\n` +
        `POST /up/post HTTP/1.1 200 - 8 5 web 127.0.0.1:${origin} - ${host} text/plain\n` +
        `GET /none HTTP/1.1 503 UF 0 91 down 127.0.0.1:1 - ${host} text/plain\n` +
        `GET /nowhere HTTP/1.1 404 NR 0 0 - - - ${host} -\n`,
    );
  });
});

Deno.test("access log: v2 envoy.file_access_log with the default format", async () => {
  const cfg = [{ name: "envoy.file_access_log", config: { path: "$DIR/access.log" } }];
  await withLog(cfg, async (p, origin, read) => {
    await (await fetch(`http://127.0.0.1:${p.port()}/up/z`, {
      headers: { "user-agent": "ua/1", "x-request-id": "rid-1" },
    })).text();
    const line = await read();
    const m = /^\[(\S+)\] (.*) (\d+) (\d+) "(.*)\n$/.exec(line);
    assert.ok(m, line);
    assert.match(m[1], /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal(m[2], '"GET /up/z HTTP/1.1" 200 - 0 5');
    assert.equal(
      m[5],
      `-" "ua/1" "rid-1" "127.0.0.1:${p.port()}" "127.0.0.1:${origin}"`,
    );
  });
});

Deno.test("admin.endpoints.reopen_logs: json_format lines are buffered until flushed; reopen lets a rotated file go", async () => {
  const cfg = v3({ json_format: { code: "%RESPONSE_CODE%", path: "%REQ(:PATH)%" } });
  await withLog(cfg, async (p, _origin, read, dir) => {
    const base = `http://127.0.0.1:${p.port()}`;
    await (await fetch(`${base}/up/1`)).text();
    assert.equal(await read(), "");
    p.lm.flushAccessLogs();
    assert.equal(await read(), '{"code":200,"path":"/up/1"}\n');
    await Deno.rename(`${dir}/access.log`, `${dir}/access.log.1`);
    await (await fetch(`${base}/up/2`)).text();
    p.lm.reopenAccessLogs();
    await (await fetch(`${base}/up/3`)).text();
    p.lm.flushAccessLogs();
    assert.equal(
      await Deno.readTextFile(`${dir}/access.log.1`),
      '{"code":200,"path":"/up/1"}\n{"code":200,"path":"/up/2"}\n',
    );
    assert.equal(await read(), '{"code":200,"path":"/up/3"}\n');
  }, 3_600_000);
});

Deno.test("access log: configuration errors name their path", () => {
  const errors: Errors = [];
  parseAccessLogs(
    [
      { name: "envoy.access_loggers.http_grpc" },
      { name: "envoy.file_access_log", config: {} },
      { name: "envoy.file_access_log", config: { path: "/x", format: "%BAD%" } },
      { name: "envoy.file_access_log", config: { path: "/x" }, filter: {} },
      {
        name: "envoy.access_loggers.file",
        typed_config: { path: "/x", log_format: { text_format: "a", json_format: {} } },
      },
    ],
    "l.access_log",
    errors,
  );
  assert.deepEqual(errors.map((e) => e.path), [
    "l.access_log[0].name",
    "l.access_log[1].config.path",
    "l.access_log[2].config.format",
    "l.access_log[3].filter",
    "l.access_log[4].typed_config.log_format",
  ]);
  assert.match(errors[2].message, /unsupported command operator %BAD%/);
});

Deno.test("access log: /dev/stdout is accepted and files are shared by path", () => {
  const files = new AccessLogFiles(0);
  try {
    assert.equal(files.open("/dev/stdout"), files.open("/dev/stdout"));
  } finally {
    files.close();
  }
});

Deno.test("access log: tcp_proxy lines with bytes each way, cluster, host, UF on connect failure", async () => {
  const dir = await Deno.makeTempDir();
  const echo = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const served = (async () => {
    const c = await echo.accept();
    const buf = new Uint8Array(64);
    const n = await c.read(buf);
    await c.write(buf.subarray(0, n ?? 0));
    await c.write(buf.subarray(0, n ?? 0));
    c.close();
  })();
  const tcp = (name: string, cluster: string): JsonObject => ({
    name,
    address: { socket_address: { address: "127.0.0.1", port_value: 0 } },
    filter_chains: [{
      filters: [{
        name: "envoy.tcp_proxy",
        config: {
          stat_prefix: name,
          cluster,
          access_log: [{
            name: "envoy.file_access_log",
            config: {
              path: `${dir}/tcp.log`,
              format: "%BYTES_RECEIVED% %BYTES_SENT% %UPSTREAM_CLUSTER% %UPSTREAM_HOST% " +
                "%RESPONSE_FLAGS% %PROTOCOL% %RESPONSE_CODE% %DOWNSTREAM_LOCAL_ADDRESS%\n",
            },
          }],
        },
      }],
    }],
  });
  const port = (echo.addr as Deno.NetAddr).port;
  const p = await startTestProxy([tcp("t1", "echo"), tcp("t2", "down")], [
    testCluster("echo", [["127.0.0.1", port]]),
    testCluster("down", [["127.0.0.1", 1]]),
  ], { fileFlushIntervalMs: 0 });
  try {
    const c = await Deno.connect({ hostname: "127.0.0.1", port: p.port(0) });
    await c.write(new TextEncoder().encode("abc"));
    const buf = new Uint8Array(16);
    let got = 0;
    for (let n; got < 6 && (n = await c.read(buf.subarray(got))) !== null;) got += n;
    while (await c.read(buf) !== null);
    c.close();
    await served;
    const d = await Deno.connect({ hostname: "127.0.0.1", port: p.port(1) });
    while (await d.read(buf) !== null);
    d.close();
    const read = () => Deno.readTextFile(`${dir}/tcp.log`).catch(() => "");
    for (let i = 0; i < 500 && (await read()).split("\n").length < 3; i++) {
      await new Promise((r) => setTimeout(r, 2));
    }
    assert.equal(
      await read(),
      `3 6 echo 127.0.0.1:${port} - - 0 127.0.0.1:${p.port(0)}\n` +
        `0 0 down 127.0.0.1:1 UF - 0 127.0.0.1:${p.port(1)}\n`,
    );
  } finally {
    await p.close();
    echo.close();
    await Deno.remove(dir, { recursive: true });
  }
});
