/**
 * `/runtime` (layers in order; every key with its per-layer values and final value, keys sorted
 * as Envoy's Struct output prints them) and `/runtime_modify` (sets keys in the admin layer; an
 * empty value deletes an admin override only; no parameters -> 400 usage; no admin layer -> 503
 * `No admin layer specified`). Parameters may also come as a form body (the router reads it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { RUNTIME_HANDLERS } from "./runtime_handler.ts";
 * import { call, testContext } from "./testing_context.ts";
 * const res = await call(testContext(), "GET", "/runtime", { handlers: RUNTIME_HANDLERS });
 * assert.equal(res.status, 200);
 * ```
 * @module
 */
import type { Handler } from "./types.ts";
import { jsonResponse, textResponse } from "../config/proto_json.ts";

/** The 400 body of `/runtime_modify` without parameters. */
export const RUNTIME_MODIFY_USAGE = "usage: /runtime_modify?key1=value1&key2=value2&keyN=valueN\n" +
  "       or send the parameters as form values\n" +
  "use an empty value to remove a previously added override";

const runtime: Handler = (_req, server) => {
  const entries: Record<string, { final_value: string; layer_values: string[] }> = {};
  for (const [k, e] of server.runtime.entries()) {
    entries[k] = { final_value: e.final_value, layer_values: e.layer_values };
  }
  return jsonResponse({ entries, layers: server.runtime.layerNames() }, {
    alwaysPrintPrimitives: true,
  });
};

const runtimeModify: Handler = (req, server) => {
  if (req.pairs.length === 0) return textResponse(RUNTIME_MODIFY_USAGE, 400);
  if (req.pairs.some(([k]) => k === "")) {
    return textResponse("runtime keys must not be empty\n" + RUNTIME_MODIFY_USAGE, 400);
  }
  if (!server.runtime.hasAdminLayer()) return textResponse("No admin layer specified", 503);
  // The first occurrence of a key wins, as in every admin query.
  server.runtime.modify([...req.params]);
  return textResponse("OK\n");
};

/** Handlers of this family, by path. */
export const RUNTIME_HANDLERS = {
  "/runtime": runtime,
  "/runtime_modify": runtimeModify,
} satisfies Record<string, Handler>;
