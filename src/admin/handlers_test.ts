import assert from "node:assert/strict";
import { ADMIN_HANDLERS, HYSTRIX, PROFILING, RARE_HANDLERS, TAP } from "./handlers.ts";
import { createAdminRouter } from "./router.ts";
import { testContext } from "./testing_context.ts";
import { CLUSTERS_HANDLERS } from "./clusters_handler.ts";
import { CONFIG_DUMP_HANDLERS } from "./config_dump_handler.ts";
import { LISTENERS_HANDLERS } from "./listeners_handler.ts";
import { RUNTIME_HANDLERS } from "./runtime_handler.ts";
import { LOGGING_HANDLERS } from "./logging_handler.ts";
import { PROFILING_HANDLERS } from "./profiling_handler.ts";
import { HYSTRIX_HANDLERS } from "./hystrix_handler.ts";
import { TAP_HANDLERS } from "./tap_handler.ts";

Deno.test("RARE_HANDLERS lists exactly the paths of each module loaded on first use", () => {
  const tables: Record<keyof typeof RARE_HANDLERS, object> = {
    clusters: CLUSTERS_HANDLERS,
    config_dump: CONFIG_DUMP_HANDLERS,
    listeners: LISTENERS_HANDLERS,
    runtime: RUNTIME_HANDLERS,
    logging: LOGGING_HANDLERS,
    profiling: PROFILING_HANDLERS,
    hystrix: HYSTRIX_HANDLERS,
    tap: TAP_HANDLERS,
  };
  for (const [name, paths] of Object.entries(RARE_HANDLERS)) {
    const table = tables[name as keyof typeof RARE_HANDLERS];
    assert.deepEqual([...paths].sort(), Object.keys(table).sort(), name);
    for (const p of paths) assert.equal(typeof ADMIN_HANDLERS[p], "function", p);
  }
});

Deno.test("a handler loaded on first use answers as its module does, first call and later", async () => {
  const ctx = testContext();
  const route = createAdminRouter(ctx, { handlers: ADMIN_HANDLERS });
  const direct = createAdminRouter(ctx, {
    handlers: { ...ADMIN_HANDLERS, ...CLUSTERS_HANDLERS, ...RUNTIME_HANDLERS },
  });
  for (const path of ["/clusters", "/clusters?format=json", "/runtime", "/nothing"]) {
    for (let i = 0; i < 2; i++) {
      const [a, b] = [
        await route(new Request(`http://127.0.0.1${path}`)),
        await direct(
          new Request(`http://127.0.0.1${path}`),
        ),
      ];
      assert.equal(a.status, b.status, path);
      assert.deepEqual([...a.headers], [...b.headers], path);
      assert.equal(await a.text(), await b.text(), path);
    }
  }
});

Deno.test("the lazy hystrix, tap and profiling modules load with their endpoint", async () => {
  const ctx = testContext();
  const call = (path: "/hystrix_event_stream" | "/tap" | "/heapprofiler", method = "GET") =>
    ADMIN_HANDLERS[path]({
      method,
      path,
      params: new Map(),
      pairs: [],
      raw: new Request(`http://127.0.0.1${path}`, { method }),
    }, ctx);
  assert.equal(HYSTRIX.loaded || TAP.loaded || PROFILING.loaded, false);
  await (await call("/hystrix_event_stream")).body?.cancel();
  assert.equal(HYSTRIX.loaded, true);
  await (await call("/tap", "POST")).text();
  assert.equal(TAP.loaded, true);
  await (await call("/heapprofiler")).text();
  assert.equal(PROFILING.loaded, true);
});
