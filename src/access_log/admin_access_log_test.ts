import assert from "node:assert/strict";
import { loggedAdminRoute, parseAdminAccessLogs } from "./admin_access_log.ts";
import { AccessLogFiles } from "./access_log_file.ts";
import type { Errors } from "../config/config_values.ts";

async function withAdmin(
  admin: Record<string, unknown>,
  fn: (base: string, read: () => Promise<string>) => Promise<void>,
) {
  const dir = await Deno.makeTempDir();
  const cfg = JSON.parse(JSON.stringify(admin).replaceAll("$DIR", dir));
  const errors: Errors = [];
  const logs = parseAdminAccessLogs(cfg, errors);
  assert.deepEqual(errors, []);
  const files = new AccessLogFiles(0);
  let local: Deno.NetAddr = { transport: "tcp", hostname: "127.0.0.1", port: 0 };
  const route = (req: Request) =>
    Promise.resolve(
      new URL(req.url).pathname === "/missing"
        ? new Response("no\n", { status: 404 })
        : new Response("LIVE\n"),
    );
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    loggedAdminRoute(route, logs, files, { local: () => local }),
  );
  local = { ...local, port: server.addr.port };
  try {
    await fn(
      `http://127.0.0.1:${server.addr.port}`,
      () => Deno.readTextFile(`${dir}/admin.log`).catch(() => ""),
    );
  } finally {
    await server.shutdown();
    files.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("admin access log, v3 access_log list: admin requests are logged with the logger's format and filter", async () => {
  const admin = {
    access_log: [{
      name: "envoy.access_loggers.file",
      filter: {
        status_code_filter: {
          comparison: { op: "GE", value: { default_value: 400, runtime_key: "k" } },
        },
      },
      typed_config: {
        "@type": "type.googleapis.com/envoy.extensions.access_loggers.file.v3.FileAccessLog",
        path: "$DIR/admin.log",
        log_format: { text_format: "%REQ(:METHOD)% %REQ(:PATH)% %RESPONSE_CODE% %BYTES_SENT%\n" },
      },
    }],
  };
  await withAdmin(admin, async (base, read) => {
    await (await fetch(`${base}/ready`)).text();
    await (await fetch(`${base}/missing?x=1`)).text();
    assert.equal(await read(), "GET /missing?x=1 404 3\n");
  });
});

Deno.test("admin access log, v2 access_log_path: admin requests are logged in the default format", async () => {
  await withAdmin({ access_log_path: "$DIR/admin.log" }, async (base, read) => {
    await (await fetch(`${base}/ready`, { headers: { "user-agent": "probe/1" } })).text();
    const line = await read();
    assert.match(
      line,
      /^\[\S+\] "GET \/ready HTTP\/1\.1" 200 - 0 5 \d+ - "-" "probe\/1" "-" "127\.0\.0\.1:\d+" "-"\n$/,
    );
  });
});

Deno.test("admin access log configuration errors name their path", () => {
  const errors: Errors = [];
  parseAdminAccessLogs({ access_log: [{ name: "envoy.access_loggers.grpc" }] }, errors);
  assert.equal(errors[0].path, "admin.access_log[0].name");
});
