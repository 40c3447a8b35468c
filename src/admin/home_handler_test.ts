import assert from "node:assert/strict";
import { ENDPOINTS } from "../../spec/admin/endpoints.ts";
import { indexEndpoints, sortedEntries } from "./endpoint_index.ts";
import { escapeHtml } from "./home_handler.ts";
import { call, testContext } from "./testing_context.ts";

Deno.test("admin.endpoints.help, admin.general.help-format: /help lists every registered path sorted, from the table", async () => {
  const ctx = testContext({ features: ["tap", "dashboard_sink", "cpu_profiler", "heap_profiler"] });
  const res = await call(ctx, "GET", "/help");
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "text/plain; charset=UTF-8");
  const lines = (await res.text()).split("\n");
  assert.equal(lines[0], "admin commands are:");
  const entries = sortedEntries(indexEndpoints(ENDPOINTS));
  assert.deepEqual(lines.slice(1, -1), entries.map((e) => `  ${e.path}: ${e.help}`));
  assert.equal(lines.at(-1), "");
});

Deno.test("admin.endpoints.home, admin.general.home-page-links: / links GET paths and posts forms for mutating ones", async () => {
  const ctx = testContext();
  const res = await call(ctx, "GET", "/");
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "text/html; charset=UTF-8");
  const html = await res.text();
  assert.match(html, /<title>Proxy Admin<\/title>/);
  for (const e of indexEndpoints(ENDPOINTS).values()) {
    if (e.path === "/" || e.requires === "tap" || e.requires === "dashboard_sink") continue;
    const rel = e.path.slice(1);
    if (e.mutating) assert.ok(html.includes(`<form action='${rel}' method='post'`), e.path);
    else assert.ok(html.includes(`<a href='${rel}'>${rel}</a>`), e.path);
  }
  assert.equal(escapeHtml("jupiter>saturn>mars"), "jupiter&gt;saturn&gt;mars");
});
