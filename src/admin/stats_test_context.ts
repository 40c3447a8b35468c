/**
 * Test helpers for the stats handlers: a minimal {@linkcode ServerContext} with only `stats`,
 * `runtime` and `bootstrap` (any other member throws when read), and a function that calls a
 * handler the way the router would.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { callStats, fakeStatsContext } from "./stats_test_context.ts";
 * const ctx = fakeStatsContext();
 * const res = await callStats(ctx, "/stats?usedonly");
 * assert.equal(res.status, 200);
 * await res.text();
 * ```
 * @module
 */
import type { ServerContext } from "../server/context.ts";
import type { Bootstrap } from "../config/bootstrap_types.ts";
import { Store } from "../stats/store.ts";
import { parseQuery } from "./query.ts";
import { STATS_HANDLERS } from "./stats_handler.ts";

/** Parts of a fake context. */
export interface FakeStatsContextInit {
  store?: Store;
  runtime?: Record<string, string>;
  bootstrap?: Bootstrap;
}

/**
 * A ServerContext whose `stats`, `runtime` (values from a record) and `bootstrap` work.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fakeStatsContext } from "./stats_test_context.ts";
 * const ctx = fakeStatsContext({ runtime: { "a.b": "1" } });
 * assert.equal(ctx.runtime.get("a.b"), "1");
 * ```
 */
export function fakeStatsContext(init: FakeStatsContextInit = {}): ServerContext {
  const values = new Map(Object.entries(init.runtime ?? {}));
  const base = {
    stats: init.store ?? new Store(),
    bootstrap: init.bootstrap ?? {},
    runtime: {
      get: (key: string) => values.get(key),
      modify: (pairs: ReadonlyArray<[string, string]>) => {
        for (const [k, v] of pairs) v === "" ? values.delete(k) : values.set(k, v);
      },
    },
  };
  return new Proxy(base, {
    get(target, prop, receiver) {
      if (prop in target || typeof prop === "symbol" || prop === "then") {
        return Reflect.get(target, prop, receiver);
      }
      throw new Error(`the fake stats context has no ${String(prop)}`);
    },
  }) as unknown as ServerContext;
}

/**
 * Calls the stats handler for `pathAndQuery` (e.g. `/stats?format=json`) with `method`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { callStats, fakeStatsContext } from "./stats_test_context.ts";
 * const res = await callStats(fakeStatsContext(), "/stats/recentlookups/enable", "POST");
 * assert.equal(await res.text(), "OK\n");
 * ```
 */
export async function callStats(
  ctx: ServerContext,
  pathAndQuery: string,
  method = "GET",
): Promise<Response> {
  const q = pathAndQuery.indexOf("?");
  const path = q < 0 ? pathAndQuery : pathAndQuery.slice(0, q);
  const handler = STATS_HANDLERS[path];
  if (handler === undefined) throw new Error(`no stats handler for ${path}`);
  const { params, pairs } = parseQuery(q < 0 ? "" : pathAndQuery.slice(q + 1));
  const raw = new Request(`http://127.0.0.1${pathAndQuery}`, { method });
  return await handler({ method, path, params, pairs, raw }, ctx);
}

/**
 * Calls a handler and returns `[status, content type, body]`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fakeStatsContext, fetchStats } from "./stats_test_context.ts";
 * const [status, type, body] = await fetchStats(fakeStatsContext(), "/stats?format=json");
 * assert.deepEqual([status, type, body], [200, "application/json", '{"stats":[]}']);
 * ```
 */
export async function fetchStats(
  ctx: ServerContext,
  pathAndQuery: string,
  method = "GET",
): Promise<[number, string, string]> {
  const res = await callStats(ctx, pathAndQuery, method);
  return [res.status, res.headers.get("content-type") ?? "", await res.text()];
}
