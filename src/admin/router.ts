/**
 * The admin router, built from the endpoint table (`spec/admin/endpoints.ts`): exact-match
 * dispatch on the path before `?`, POST-only enforcement for mutating paths (any other method
 * answers 400 `Method GET not allowed, POST required.` and the handler does not run), optional
 * feature gating ({@linkcode ABSENT_FEATURE}), Envoy's query parsing, the default headers
 * (`Cache-Control: no-cache, max-age=0`, `X-Content-Type-Options: nosniff`, content type
 * `text/plain; charset=UTF-8`), and `404 invalid path. <help>` for unknown paths. A handler that
 * throws answers 500 with the error text; the process keeps serving.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createAdminRouter } from "./router.ts";
 * import { testContext } from "./testing_context.ts";
 * const route = createAdminRouter(testContext(), {
 *   handlers: { "/ready": () => new Response("LIVE\n") },
 * });
 * // e.g. Deno.serve({ hostname: "127.0.0.1", port: 0 }, route)
 * const res = await route(new Request("http://127.0.0.1/ready", { method: "POST" }));
 * assert.equal(res.status, 200);
 * ```
 * @module
 */
import type { EndpointRow } from "../../spec/rule.ts";
import { ENDPOINTS, ERRORS, row } from "../../spec/mod.ts";
import type { ServerContext } from "../server/context.ts";
import type { AdminRequest, Handler } from "./types.ts";
import { type EndpointEntry, indexEndpoints } from "./endpoint_index.ts";
import { ABSENT_FEATURE } from "./feature_gate.ts";
import { helpText } from "./help_text.ts";
import { parseQuery } from "./query.ts";
import type { AdminGuard } from "./request_guard.ts";

/** The status of a mutating path requested with another method (`errors.get-on-mutating-path`). */
const NOT_POST_STATUS = row(ERRORS, "errors.get-on-mutating-path").status;

/** Largest form body read for parameters (bigger bodies are refused with 413). */
export const MAX_FORM_BODY = 1 << 20;

/** What {@linkcode createAdminRouter} needs. */
export interface RouterConfig {
  /** Endpoint rows (default: the specification's table). */
  rows?: readonly EndpointRow[];
  /** Handlers by path; a path of the table with no handler answers 501. */
  handlers: Readonly<Record<string, Handler>>;
  /** Refuses requests before dispatch (`request_guard.ts`); none by default. */
  guard?: AdminGuard;
}

/** Answers an admin request. */
export type AdminRoute = (req: Request) => Promise<Response>;

function text(body: string, status: number): Response {
  return new Response(body, { status, headers: { "content-type": "text/plain; charset=UTF-8" } });
}

/** Adds Envoy's fallback headers to a handler's response. */
export function withAdminHeaders(res: Response): Response {
  const headers = new Headers(res.headers);
  if (!headers.has("content-type")) headers.set("content-type", "text/plain; charset=UTF-8");
  if (!headers.has("cache-control")) headers.set("cache-control", "no-cache, max-age=0");
  headers.set("x-content-type-options", "nosniff");
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}

async function formParams(req: Request): Promise<string | Response> {
  const type = req.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("application/x-www-form-urlencoded") || !req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_FORM_BODY) {
      await reader.cancel();
      return text(`form body larger than ${MAX_FORM_BODY} bytes\n`, 413);
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return new TextDecoder().decode(all);
}

function countResponse(server: ServerContext, status: number): void {
  const scope = server.stats.scope("http").scope("admin");
  scope.counter("downstream_rq_total").inc();
  scope.counter(`downstream_rq_${Math.floor(status / 100)}xx`).inc();
}

/**
 * Builds the admin request handler for a server.
 */
export function createAdminRouter(server: ServerContext, config: RouterConfig): AdminRoute {
  const index: Map<string, EndpointEntry> = indexEndpoints(config.rows ?? ENDPOINTS);
  const notFound = () => text(`invalid path. ${helpText(index, server.features)}`, 404);

  async function dispatch(req: Request): Promise<Response> {
    const url = new URL(req.url);
    const path = url.pathname;
    const entry = index.get(path);
    const refused = config.guard?.(req, entry?.mutating === true);
    if (refused) return refused;
    if (!entry) return notFound();
    if (server.logging.enabled?.("admin", "debug")) {
      server.logging.log("admin", "debug", `admin request: ${req.method} ${path}${url.search}`);
    }
    const absent = entry.requires && !server.features.has(entry.requires)
      ? ABSENT_FEATURE[entry.requires]
      : undefined;
    if (absent?.kind === "unregistered") return notFound();
    if (entry.mutating && req.method !== "POST") {
      server.logging.log(
        "admin",
        "error",
        `admin path "${path}" mutates state, method=${req.method} rather than POST`,
      );
      return text(`Method ${req.method} not allowed, POST required.`, NOT_POST_STATUS);
    }
    if (absent?.kind === "answer") return text(absent.body, absent.status);
    const handler = config.handlers[path];
    if (!handler) return text(`${path} is not implemented in this build\n`, 501);
    let query = url.search.startsWith("?") ? url.search.slice(1) : url.search;
    let formBody: string | undefined;
    if (query === "" && req.method === "POST") {
      const body = await formParams(req);
      if (body instanceof Response) return body;
      query = body;
      if (req.bodyUsed) formBody = body;
    }
    const { params, pairs } = parseQuery(query);
    const adminReq: AdminRequest = { method: req.method, path, params, pairs, raw: req };
    if (formBody !== undefined) adminReq.formBody = formBody;
    try {
      await server.syncWorkers?.();
      return await handler(adminReq, server);
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      return text(`internal error while handling ${path}: ${msg}\n`, 500);
    }
  }

  return async (req: Request) => {
    const res = withAdminHeaders(await dispatch(req));
    countResponse(server, res.status);
    return res;
  };
}
