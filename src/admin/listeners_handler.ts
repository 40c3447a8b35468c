/**
 * `/listeners` (text `name::ip:port` per listener, or `?format=json` as
 * `envoy.admin.v3.Listeners` with `listener_statuses[].local_address`) and `/drain_listeners`
 * (`inboundonly`: only listeners whose `traffic_direction` is INBOUND; `graceful`: stop them after
 * the drain period of `--drain-time-s` / `--drain-strategy`). Once the listeners of a direction
 * are stopped, the listener manager refuses additions and changes in that direction.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { listenersText } from "./listeners_handler.ts";
 * import { testContext, testListener } from "./testing_context.ts";
 * const server = testContext({ listeners: [testListener("l0", 8080)] });
 * assert.equal(listenersText(server.listeners), "l0::127.0.0.1:8080\n");
 * ```
 * @module
 */
import type { ListenerManagerView } from "../listener/types.ts";
import type { Handler } from "./types.ts";
import { jsonResponse, textResponse } from "../config/proto_json.ts";
import { hostPort } from "../upstream/host.ts";

/** The text form of `/listeners`. */
export function listenersText(lm: ListenerManagerView): string {
  return lm.listeners().map((l) => `${l.name}::${hostPort(l.address, l.port)}\n`).join("");
}

const listeners: Handler = (req, server) => {
  if (req.params.get("format") !== "json") return textResponse(listenersText(server.listeners));
  return jsonResponse({
    listener_statuses: server.listeners.listeners().map((l) => ({
      name: l.name,
      local_address: { socket_address: { address: l.address, port_value: l.port } },
    })),
  });
};

const drainListeners: Handler = async (req, server) => {
  const inboundOnly = req.params.has("inboundonly");
  const graceful = req.params.has("graceful");
  const done = server.listeners.drain({ inboundOnly, graceful });
  if (graceful) {
    // The drain period can last minutes: answer now, stop the listeners when it ends.
    done.catch((e) =>
      console.error(`drain_listeners failed: ${e instanceof Error ? e.message : e}`)
    );
  } else {
    await done;
  }
  return textResponse("OK\n");
};

/** Handlers of this family, by path. */
export const LISTENERS_HANDLERS = {
  "/listeners": listeners,
  "/drain_listeners": drainListeners,
} satisfies Record<string, Handler>;
