/**
 * The `/stats` family of admin endpoints: `/stats` (text, JSON, Prometheus), `/stats/prometheus`,
 * `/stats/recentlookups` and its `enable`, `disable` and `clear`, and `/reset_counters`. The
 * router mounts {@linkcode STATS_HANDLERS} and enforces POST on the mutating paths; these
 * handlers only do the work. Large bodies are streamed (`stats_stream.ts`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { STATS_HANDLERS } from "./stats_handler.ts";
 * assert.equal(Object.keys(STATS_HANDLERS).includes("/stats/prometheus"), true);
 * ```
 * @module
 */
import { ENDPOINTS, row } from "../../spec/mod.ts";
import type { ServerContext } from "../server/context.ts";
import type { AdminRequest, Handler } from "./types.ts";
import { parseStatsQuery, type StatsFormat } from "./stats_params.ts";
import { chunkStream, nextTurn } from "./stats_stream.ts";
import { renderText } from "../stats/render_text.ts";
import { renderJson } from "../stats/render_json.ts";
import { renderPrometheus } from "../stats/render_prometheus.ts";

const TEXT_TYPE = "text/plain; charset=UTF-8";

/** Content type of each format, from the endpoint table. */
export const STATS_CONTENT_TYPES: Readonly<Record<StatsFormat, string>> = {
  text: row(ENDPOINTS, "admin.endpoints.stats").contentType,
  json: row(ENDPOINTS, "admin.endpoints.stats-format-json").contentType,
  prometheus: row(ENDPOINTS, "admin.endpoints.stats-prometheus").contentType,
};

/** Milliseconds of index work per event-loop turn before a render starts. */
const SETTLE_MS = 8;

function text(body: string, status = 200): Response {
  return new Response(body, { status, headers: { "content-type": TEXT_TYPE } });
}

function runtimeGetter(server: ServerContext): (key: string) => string | undefined {
  return (key) => server.runtime?.get(key);
}

function statNames(store: ServerContext["stats"]): string[] {
  const names: string[] = [];
  for (const s of store.sortedNumeric()) names.push(s.name);
  for (const s of store.sortedHistograms()) names.push(s.name);
  for (const s of store.sortedTextReadouts()) names.push(s.name);
  return names;
}

async function renderStats(
  req: AdminRequest,
  server: ServerContext,
  forced?: StatsFormat,
): Promise<Response> {
  const q = parseStatsQuery(req.params, runtimeGetter(server), forced);
  if (!q.ok) return text(q.body, q.status);
  const store = server.stats;
  if (server.bootstrap?.stats_flush_on_admin === true) store.flush();
  if (q.select) {
    while (!store.settleFor(SETTLE_MS)) await nextTurn();
    const picked = await q.select(statNames(store));
    if (!picked.ok) return text(`${picked.error}\n`, 400);
    q.opts.filter = picked.test;
  }
  const render = q.format === "json"
    ? renderJson
    : q.format === "prometheus"
    ? renderPrometheus
    : renderText;
  const body = chunkStream(
    () => store.settleFor(SETTLE_MS, q.format === "prometheus" ? "only" : false),
    () => render(store, q.opts),
  );
  return new Response(body, {
    status: 200,
    headers: { "content-type": STATS_CONTENT_TYPES[q.format] },
  });
}

function ok(action: (server: ServerContext) => void): Handler {
  return (_req, server) => {
    action(server);
    return text("OK\n");
  };
}

/**
 * Handlers of the stats endpoints, by path.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { STATS_HANDLERS } from "./stats_handler.ts";
 * import { fakeStatsContext } from "./stats_test_context.ts";
 * const req = new Request("http://127.0.0.1/reset_counters", { method: "POST" });
 * const res = await STATS_HANDLERS["/reset_counters"](
 *   { method: "POST", path: "/reset_counters", params: new Map(), pairs: [], raw: req },
 *   fakeStatsContext(),
 * );
 * assert.equal(await res.text(), "OK\n");
 * ```
 */
export const STATS_HANDLERS: Readonly<Record<string, Handler>> = {
  "/stats": (req, server) => renderStats(req, server),
  "/stats/prometheus": (req, server) => renderStats(req, server, "prometheus"),
  "/stats/recentlookups": (_req, server) => text(server.stats.recentLookups.render()),
  "/stats/recentlookups/enable": ok((s) => s.stats.recentLookups.enable()),
  "/stats/recentlookups/disable": ok((s) => s.stats.recentLookups.disable()),
  "/stats/recentlookups/clear": ok((s) => s.stats.recentLookups.clear()),
  "/reset_counters": ok((s) => s.stats.resetCounters()),
};
