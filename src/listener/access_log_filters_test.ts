import assert from "node:assert/strict";
import type { JsonObject } from "../config/bootstrap_types.ts";
import { testCluster } from "../upstream/test_cluster.ts";
import { httpListener, startTestProxy, type TestProxy } from "./test_proxy.ts";
import type { Errors } from "../config/config_values.ts";
import { parseAccessLogs } from "../access_log/access_log_config.ts";
import { parseHeaderMatcher } from "../router/header_matcher.ts";
import { parseAccessLogFilter } from "../access_log/access_log_filter.ts";
import type { LogRecord } from "../access_log/access_log_format.ts";

const routes: JsonObject = {
  virtual_hosts: [{
    name: "all",
    domains: ["*"],
    routes: [
      { name: "slow", match: { prefix: "/slow" }, route: { cluster: "web" } },
      { name: "up", match: { prefix: "/up" }, route: { cluster: "web" } },
      { name: "direct", match: { prefix: "/direct" }, direct_response: { status: 418 } },
      { match: { prefix: "/down" }, route: { cluster: "down" } },
    ],
  }],
};

/** Runs `fn` with a proxy whose HTTP connection manager has `accessLog` (with `$DIR`). */
async function withProxy(
  accessLog: JsonObject[],
  fn: (p: TestProxy, read: () => Promise<string>) => Promise<void>,
  filters?: JsonObject[],
) {
  const dir = await Deno.makeTempDir();
  const origin = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    await req.arrayBuffer();
    if (new URL(req.url).pathname.startsWith("/slow")) await new Promise((r) => setTimeout(r, 60));
    const status = Number(new URL(req.url).searchParams.get("status") ?? 200);
    return new Response("hello", { status, headers: { "content-type": "text/plain" } });
  });
  const subst = JSON.parse(JSON.stringify(accessLog).replaceAll("$DIR", dir));
  const p = await startTestProxy(
    [httpListener(routes, { access_log: subst }, filters)],
    [
      testCluster("web", [["127.0.0.1", origin.addr.port]]),
      testCluster("down", [["127.0.0.1", 1]]),
    ],
    { fileFlushIntervalMs: 0 },
  );
  try {
    await fn(p, () => Deno.readTextFile(`${dir}/access.log`).catch(() => ""));
  } finally {
    await p.close();
    await origin.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
}

const file = (format: JsonObject, filter?: JsonObject): JsonObject[] => [{
  name: "envoy.access_loggers.file",
  ...(filter ? { filter } : {}),
  typed_config: {
    "@type": "type.googleapis.com/envoy.extensions.access_loggers.file.v3.FileAccessLog",
    path: "$DIR/access.log",
    log_format: format,
  },
}];

const get = async (p: TestProxy, path: string, headers: Record<string, string> = {}) =>
  await (await fetch(`http://127.0.0.1:${p.port()}${path}`, { headers })).text();

const LINE = { text_format_source: { inline_string: "%REQ(:PATH)% %RESPONSE_CODE%\n" } };

Deno.test("access log filter status_code_filter GE 400 logs only errors", async () => {
  const f: JsonObject = {
    status_code_filter: {
      comparison: { op: "GE", value: { default_value: 400, runtime_key: "k" } },
    },
  };
  await withProxy(file(LINE, f), async (p, read) => {
    await get(p, "/up/a");
    await get(p, "/up/b?status=404");
    await get(p, "/nowhere");
    assert.equal(await read(), "/up/b?status=404 404\n/nowhere 404\n");
  });
});

Deno.test("access log filter duration_filter GE 50 ms logs the slow request; a faster record is dropped", async () => {
  const f = {
    duration_filter: { comparison: { op: "GE", value: { default_value: 50, runtime_key: "k" } } },
  };
  // The origin holds /slow for 60 ms, so its duration is at least that on any machine.
  await withProxy(file(LINE, f), async (p, read) => {
    await get(p, "/slow/x");
    assert.equal(await read(), "/slow/x 200\n");
  });
  const errors: Errors = [];
  const pred = parseAccessLogFilter(f, "filter", errors)!;
  const rec = (durationMs: number): LogRecord => ({
    startMs: 0,
    protocol: "HTTP/1.1",
    req: null,
    resp: null,
    status: 200,
    flags: [],
    bytesReceived: 0,
    bytesSent: 0,
    durationMs,
    upstreamHost: null,
    upstreamCluster: null,
    downstreamRemote: { transport: "tcp", hostname: "127.0.0.1", port: 1 },
    downstreamLocal: { transport: "tcp", hostname: "127.0.0.1", port: 2 },
  });
  assert.deepEqual([pred(rec(49.9)), pred(rec(50)), pred(rec(51))], [false, true, true]);
});

Deno.test("access log filter and_filter / or_filter / header_filter / response_flag_filter combine", async () => {
  const f: JsonObject = {
    or_filter: {
      filters: [
        { response_flag_filter: { flags: ["UF", "NR"] } },
        {
          and_filter: {
            filters: [
              { header_filter: { header: { name: "x-log", exact_match: "yes" } } },
              {
                status_code_filter: {
                  comparison: { op: "EQ", value: { default_value: 200, runtime_key: "k" } },
                },
              },
            ],
          },
        },
      ],
    },
  };
  await withProxy(file(LINE, f), async (p, read) => {
    await get(p, "/up/1");
    await get(p, "/up/2", { "x-log": "yes" });
    await get(p, "/up/3?status=500", { "x-log": "yes" });
    await get(p, "/down/4");
    await get(p, "/none");
    assert.equal(await read(), "/up/2 200\n/down/4 503\n/none 404\n");
  });
});

Deno.test("access log filter not_health_check_filter drops requests the health check filter matched", async () => {
  const hc = {
    name: "envoy.filters.http.health_check",
    typed_config: {
      "@type": "type.googleapis.com/envoy.extensions.filters.http.health_check.v3.HealthCheck",
      pass_through_mode: false,
      headers: [{ name: ":path", exact_match: "/healthz" }],
    },
  };
  await withProxy(file(LINE, { not_health_check_filter: {} }), async (p, read) => {
    await get(p, "/healthz");
    await get(p, "/up/x");
    assert.equal(await read(), "/up/x 200\n");
  }, [hc, { name: "envoy.filters.http.router" }]);
});

Deno.test("access log filter runtime_filter samples by the request id; traceable_filter logs nothing untraced", async () => {
  const sampled = {
    runtime_filter: {
      runtime_key: "k",
      percent_sampled: { numerator: 50, denominator: "HUNDRED" },
    },
  };
  await withProxy(file(LINE, sampled), async (p, read) => {
    // 0x00000010 % 100 = 16 < 50: logged; 0x00000063 % 100 = 99: not logged.
    await get(p, "/up/in", { "x-request-id": "00000010-0000-4000-8000-000000000000" });
    await get(p, "/up/out", { "x-request-id": "00000063-0000-4000-8000-000000000000" });
    assert.equal(await read(), "/up/in 200\n");
  });
  await withProxy(file(LINE, { traceable_filter: {} }), async (p, read) => {
    await get(p, "/up/a");
    assert.equal(await read(), "");
  });
});

Deno.test("access log operators: durations, details, route name, omit_empty_values in text and JSON", async () => {
  const text = {
    text_format_source: {
      inline_string: "%ROUTE_NAME%|%RESPONSE_CODE_DETAILS%|%RESPONSE_FLAGS%|%UPSTREAM_HOST%|" +
        "%REQUEST_DURATION%|%RESPONSE_DURATION%\n",
    },
    omit_empty_values: true,
  };
  await withProxy(file(text), async (p, read) => {
    await get(p, "/up/a");
    await get(p, "/direct");
    await get(p, "/nowhere");
    await get(p, "/down/x");
    const lines = (await read()).split("\n");
    const m = /^up\|via_upstream\|\|127\.0\.0\.1:\d+\|0\|(\d+)$/.exec(lines[0]);
    assert.ok(m, lines[0]);
    assert.equal(lines[1], "direct|direct_response|||0|");
    assert.equal(lines[2], "|route_not_found|NR||0|");
    assert.equal(
      lines[3],
      "|upstream_reset_before_response_started{connection_failure}|UF|127.0.0.1:1|0|",
    );
  });
  const json = {
    json_format: { route: "%ROUTE_NAME%", code: "%RESPONSE_CODE%", fixed: 7 },
    omit_empty_values: true,
  };
  await withProxy(file(json), async (p, read) => {
    await get(p, "/up/a");
    await get(p, "/nowhere");
    assert.equal(await read(), '{"route":"up","code":200,"fixed":7}\n{"code":404,"fixed":7}\n');
  });
});

Deno.test("access log text_format_source filename reads the format from a file; typed_json_format keeps types", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/fmt.txt`, "F %RESPONSE_CODE%\n");
    await withProxy(
      file({ text_format_source: { filename: `${dir}/fmt.txt` } }),
      async (p, read) => {
        await get(p, "/up/a");
        assert.equal(await read(), "F 200\n");
      },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  const typed = [{
    name: "envoy.file_access_log",
    config: { path: "$DIR/access.log", typed_json_format: { ok: true, code: "%RESPONSE_CODE%" } },
  }];
  await withProxy(typed, async (p, read) => {
    await get(p, "/up/a");
    assert.equal(await read(), '{"ok":true,"code":200}\n');
  });
});

Deno.test("access log configuration errors name their path: filters, loggers, format sources", () => {
  const errors: Errors = [];
  const cmp = (op: string) => ({
    comparison: { op, value: { default_value: 1, runtime_key: "k" } },
  });
  parseAccessLogs(
    [
      { name: "envoy.access_loggers.stdout", filter: { status_code_filter: cmp("GT") } },
      {
        name: "envoy.access_loggers.stderr",
        filter: { and_filter: { filters: [{ traceable_filter: {} }] } },
      },
      { name: "envoy.access_loggers.stdout", filter: { response_flag_filter: { flags: ["XX"] } } },
      {
        name: "envoy.access_loggers.stdout",
        filter: { grpc_status_filter: { statuses: ["NOPE"] } },
      },
      { name: "envoy.access_loggers.stdout", filter: { bogus_filter: {} } },
      { name: "envoy.access_loggers.stdout", typed_config: { path: "/x" } },
      {
        name: "envoy.access_loggers.stdout",
        typed_config: { log_format: { text_format_source: { filename: "/nonexistent/fmt" } } },
      },
      {
        name: "envoy.access_loggers.stdout",
        typed_config: { log_format: { text_format: "a", formatters: [] } },
      },
    ],
    "l",
    errors,
    parseHeaderMatcher,
  );
  assert.deepEqual(errors.map((e) => e.path), [
    "l[0].filter.status_code_filter.comparison.op",
    "l[1].filter.and_filter.filters",
    "l[2].filter.response_flag_filter.flags[0]",
    "l[3].filter.grpc_status_filter.statuses[0]",
    "l[4].filter.bogus_filter",
    "l[5].typed_config.path",
    "l[6].typed_config.log_format.text_format_source.filename",
    "l[7].typed_config.log_format.formatters",
  ]);
  assert.match(errors[4].message, /known: status_code_filter, duration_filter/);
});
