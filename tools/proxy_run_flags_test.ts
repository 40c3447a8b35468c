import assert from "node:assert/strict";
import { proxyRunFlags } from "./proxy_run_flags.ts";

Deno.test("the compile task's binary runs with the proxy task's V8 flags (deno.json writes the list in both)", async () => {
  const json = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)));
  const v8 = (flags: readonly string[]) => flags.filter((f) => f.startsWith("--v8-flags="));
  const compile = String(json.tasks.compile).split(/\s+/);
  const proxy = v8(proxyRunFlags());
  assert.equal(proxy.length, 1, "the proxy task passes one --v8-flags");
  assert.deepEqual(v8(compile), proxy);
});
