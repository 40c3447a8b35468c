/**
 * How the suite exercises each mutating endpoint: what it sends, how it undoes the change, what
 * it checks afterwards, and in which phase it runs (destructive paths last, only with
 * `--destructive`). Paths not listed here are sent as their row says, in the mutating phase.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ENDPOINTS } from "../../spec/mod.ts";
 * import { postAction } from "./admin_actions.ts";
 * const home = ENDPOINTS.find((r) => r.path === "/")!;
 * assert.equal(postAction(home).phase, "mutating");
 * ```
 * @module
 */
import type { EndpointRow } from "../../spec/mod.ts";
import { NotApplicable } from "../types.ts";
import type { CaseContext, Phase } from "../types.ts";
import type { HttpResult } from "../http_client.ts";
import { expect, getJson, listenerUrl } from "./util.ts";

/** How one mutating row is exercised. */
export interface PostAction {
  phase: Phase;
  /** Extra rule IDs the action checks. */
  rules: string[];
  /** Sends the request (registering undos) and returns the answer to check. */
  run(ctx: CaseContext, target: string): Promise<HttpResult>;
  /** Checks after a 200 answer. */
  after?(ctx: CaseContext, r: HttpResult): Promise<void>;
}

/**
 * Tells whether recent-lookup collection is on, from `/stats/recentlookups`: while it is off the
 * page says that lookup tracking is not enabled (real Envoy's wording, which the specification
 * does not fix; an implementation that words it differently is read as enabled).
 */
export async function lookupsEnabled(ctx: CaseContext): Promise<boolean> {
  const r = await ctx.http.request("GET", "/stats/recentlookups");
  return !/not enabled/i.test(r.body);
}

const post = (ctx: CaseContext, t: string) => ctx.http.request("POST", t);

function profiler(row: EndpointRow): PostAction {
  const values = row.params.find((p) => p.name === "enable")?.values ?? ["y", "n"];
  return {
    phase: "mutating",
    rules: [],
    run: async (ctx) => {
      const r = await post(ctx, `${row.path}?enable=${values[0]}`);
      if (r.status === 500 || r.status === 501) {
        throw new NotApplicable(`${row.path}: the build has no profiler (HTTP ${r.status})`);
      }
      ctx.onUndo(async () => void await post(ctx, `${row.path}?enable=${values[1] ?? "n"}`));
      return r;
    },
  };
}

/**
 * Returns the action for a mutating (or POST) endpoint row.
 *
 * @param row the endpoint row
 * @returns how to exercise it
 */
export function postAction(row: EndpointRow): PostAction {
  switch (row.path) {
    case "/healthcheck/fail":
      return {
        phase: "mutating",
        rules: [],
        run: async (ctx, t) => {
          ctx.onUndo(async () => void await post(ctx, "/healthcheck/ok"));
          return await post(ctx, t);
        },
      };
    case "/cpuprofiler":
    case "/heapprofiler":
      return profiler(row);
    case "/quitquitquit":
      return {
        phase: "destructive",
        rules: ["admin.states.quitquitquit"],
        run: (ctx, t) => post(ctx, t),
        after: async (ctx) => {
          for (let i = 0; i < 50; i++) {
            try {
              await ctx.http.request("GET", "/ready");
            } catch {
              return;
            }
            await new Promise((r) => setTimeout(r, 100));
          }
          expect(false, "the server still answers 5 s after POST /quitquitquit");
        },
      };
    case "/drain_listeners":
      return {
        phase: "destructive",
        rules: row.query === "" ? ["admin.states.drain-listeners"] : [],
        run: async (ctx, t) => {
          const before = await listenerUrl(ctx).catch(() => null);
          const r = await post(ctx, t);
          if (row.query === "" && before !== null && r.status === 200) {
            let open = true;
            for (let i = 0; i < 50 && open; i++) {
              try {
                const res = await fetch(before, { signal: AbortSignal.timeout(1000) });
                await res.body?.cancel();
                await new Promise((ok) => setTimeout(ok, 100));
              } catch {
                open = false;
              }
            }
            expect(!open, `the listener at ${before} still accepts after POST /drain_listeners`);
          }
          return r;
        },
      };
    case "/stats/recentlookups/enable":
    case "/stats/recentlookups/disable":
      return {
        phase: "mutating",
        rules: [],
        run: async (ctx, t) => {
          const was = await lookupsEnabled(ctx);
          ctx.onUndo(async () => {
            await post(ctx, `/stats/recentlookups/${was ? "enable" : "disable"}`);
          });
          return await post(ctx, t);
        },
      };
    case "/runtime_modify":
      return {
        phase: "mutating",
        rules: ["admin.general.query-parameters-only"],
        run: async (ctx, t) => {
          const keys = t.split("?")[1].split("&").map((p) => decodeURIComponent(p.split("=")[0]));
          ctx.onUndo(async () => {
            await post(
              ctx,
              `/runtime_modify?${keys.map((k) => `${encodeURIComponent(k)}=`).join("&")}`,
            );
          });
          return await post(ctx, t);
        },
        after: async (ctx, r) => {
          void r;
          const rt = await getJson(ctx, "/runtime");
          const entries = (rt.entries ?? {}) as Record<string, { final_value?: string }>;
          const e = entries["conformance.endpoint_probe_0"];
          expect(
            e?.final_value === "value0",
            `after POST /runtime_modify?conformance.endpoint_probe_0=value0, /runtime shows ${
              JSON.stringify(e)
            } for the key`,
          );
        },
      };
    case "/tap":
      return {
        phase: "mutating",
        rules: [],
        run: () => {
          throw new NotApplicable(
            "the /tap payload is not specified, so the suite cannot form one",
          );
        },
      };
    default:
      return { phase: "mutating", rules: [], run: (ctx, t) => post(ctx, t) };
  }
}
