/**
 * The `connect_config` of a route's CONNECT `upgrade_config`: when present the proxy ends the
 * CONNECT itself (answers `200` and tunnels the bytes to a host of the route's cluster over
 * TCP), as Envoy's terminating CONNECT example does; when absent a CONNECT request is passed on to
 * the host, which is a proxy itself. `proxy_protocol_config` and `allow_post` are refused.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { connectTerminates } from "./connect_config.ts";
 * assert.equal(connectTerminates([{ upgrade_type: "CONNECT", connect_config: {} }]), true);
 * assert.equal(connectTerminates([{ upgrade_type: "CONNECT" }]), false);
 * ```
 * @module
 */
import type { Json } from "../config/bootstrap_types.ts";
import { type Errors, fail, isObject, unwrap } from "../config/config_values.ts";

/** Checks one `connect_config` object, reporting what this build does not do at its path. */
export function parseConnectConfig(v: Json, path: string, errors: Errors): void {
  if (!isObject(v)) return fail(errors, path, "connect_config must be an object");
  for (const [k, x] of Object.entries(v)) {
    if (k === "allow_post" && unwrap(x) === false) continue;
    if (k === "proxy_protocol_config" || k === "allow_post") {
      fail(
        errors,
        `${path}.${k}`,
        `${k} is not supported by this build (a CONNECT request is tunnelled over plain TCP)`,
      );
    } else fail(errors, `${path}.${k}`, `unknown field ${k} of ConnectConfig`);
  }
}

/** True when a route's `upgrade_configs` end CONNECT requests at the proxy (`connect_config`). */
export function connectTerminates(upgradeConfigs: Json | undefined): boolean {
  if (!Array.isArray(upgradeConfigs)) return false;
  return upgradeConfigs.some((u) =>
    isObject(u) && typeof u.upgrade_type === "string" &&
    u.upgrade_type.toLowerCase() === "connect" && u.connect_config !== undefined
  );
}
