import assert from "node:assert/strict";
import { call, testContext } from "./testing_context.ts";

Deno.test("admin.endpoints.logging: no parameter lists the loggers", async () => {
  const ctx = testContext();
  const res = await call(ctx, "POST", "/logging");
  assert.equal(res.status, 200);
  const text = await res.text();
  assert.ok(text.startsWith("active loggers:\n  "));
  assert.ok(text.endsWith("\n\n"));
  assert.ok(text.includes("  upstream: info\n"));
});

Deno.test("admin.endpoints.logging: level=, <logger>=, paths= change levels", async () => {
  const ctx = testContext();
  let text = await (await call(ctx, "POST", "/logging?level=warning")).text();
  assert.ok(text.split("\n").slice(1, -2).every((l) => l.endsWith(": warning")));
  text = await (await call(ctx, "POST", "/logging?upstream=debug")).text();
  assert.ok(text.includes("  upstream: debug\n"));
  text = await (await call(ctx, "POST", "/logging?paths=admin=debug,main=warning")).text();
  assert.ok(text.includes("  admin: debug\n"));
  assert.ok(text.includes("  main: warning\n"));
  text = await (await call(ctx, "POST", "/logging?paths=admin:trace,main:error,")).text();
  assert.ok(text.includes("  admin: trace\n") && text.includes("  main: error\n"));
});

Deno.test("admin.endpoints.logging: errors are 400 with the reason, usage, levels and loggers; nothing changes", async () => {
  const ctx = testContext();
  const cases: [string, string][] = [
    ["level=blah", "unknown logger level"],
    ["blah=info", "unknown logger name"],
    ["level=blah&admin=trace", "invalid number of parameters"],
    ["paths=blah:debug,admin:info", "unknown logger name"],
    ["paths=admin:blah", "unknown logger level"],
    ["paths=admin:debug,:debug", "empty logger name or empty logger level"],
    ["paths=admin:debug,main:", "empty logger name or empty logger level"],
  ];
  const before = ctx.logging.loggers().map((x) => x.join("="));
  for (const [q, why] of cases) {
    const res = await call(ctx, "POST", `/logging?${q}`);
    assert.equal(res.status, 400, q);
    const text = await res.text();
    assert.ok(
      text.startsWith(`error: ${why}\n\nusage: /logging?<name>=<level> (change single level)\n`),
      q,
    );
    assert.ok(
      text.includes("levels: trace debug info warning error critical off \nactive loggers:\n"),
      q,
    );
  }
  assert.deepEqual(ctx.logging.loggers().map((x) => x.join("=")), before);
});

Deno.test("admin.endpoints.reopen_logs: /reopen_logs reopens the server log and every access log", async () => {
  const ctx = testContext();
  let reopened = 0;
  ctx.logging.reopen = () => (reopened++, Promise.resolve());
  const res = await call(ctx, "POST", "/reopen_logs");
  assert.equal(await res.text(), "OK\n");
  assert.equal(reopened, 1);
  assert.equal(ctx.accessLogReopens, 1);
});
