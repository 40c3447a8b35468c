import assert from "node:assert/strict";
import { parseArgs } from "../config/args.ts";
import { createLogging } from "./logger.ts";
import { prefixed } from "../platform/log_site.ts";

function logging(args: string[]) {
  const lines: string[] = [];
  const l = createLogging(parseArgs(["--config-yaml", "{}", ...args]), {
    sink: { write: (x) => void lines.push(x), reopen: () => Promise.resolve(), close() {} },
  });
  return { l, lines };
}

Deno.test("cli.options.component-log-level admin.endpoints.logging: on(level) follows each component's level as it changes", () => {
  const { l } = logging(["--component-log-level", "upstream:debug"]);
  const up = l.forComponent("upstream");
  const http = l.forComponent("http");
  assert.equal(up.on("debug"), true);
  assert.equal(up.on("trace"), false);
  assert.equal(http.on("debug"), false);
  assert.equal(http.on("info"), true);
  assert.equal(http.on("warn"), true);
  l.set("http", "trace");
  assert.equal(http.on("trace"), true);
  l.setAll("off");
  assert.equal(up.on("critical"), false);
  assert.equal(l.enabled("upstream", "critical"), false);
  assert.equal(l.forComponent("upstream"), up);
});

Deno.test("cli.log-format.source-location: a line logged through a component logger and a prefix names the line that logged", () => {
  const { l, lines } = logging(["--log-format", "%@ %! %v"]);
  const log = prefixed(l.forComponent("config"), "lds: ");
  const here = Number(new Error().stack!.split("\n")[1].match(/:(\d+):\d+\)?$/)![1]) + 1;
  log("info", "update");
  assert.equal(lines.length, 1);
  assert.match(
    lines[0],
    new RegExp(`^src/server/component_log_test\\.ts:${here} .* lds: update\\n$`),
  );
});

Deno.test("cli.options.enable-fine-grain-logging: on(level) is true when any fine-grain logger would write the line", () => {
  const { l, lines } = logging(["--enable-fine-grain-logging", "-l", "info"]);
  const log = l.forComponent("http");
  assert.equal(log.on("debug"), false);
  l.set("src/server/component_log_test.ts", "debug");
  assert.equal(log.on("debug"), true);
  log("debug", "fine");
  assert.deepEqual(lines.length, 1);
});
