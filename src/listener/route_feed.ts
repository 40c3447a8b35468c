/**
 * Route configurations a data-plane worker receives instead of subscribing to RDS itself: the
 * main thread holds the one subscription per HTTP connection manager (its statistics counted
 * once, its updates validated once, `src/server/worker_routes.ts`) and sends each accepted
 * configuration to every worker, which compiles it and swaps its manager's routes whole, as the
 * subscription would.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { RouteFeed } from "./route_feed.ts";
 * const feed = new RouteFeed({ r: { name: "r", virtual_hosts: [] } });
 * const seen: string[] = [];
 * const sub = feed.follow("r", (rc) => seen.push(JSON.stringify(rc)));
 * feed.update("r", { name: "r", virtual_hosts: [{ name: "v", domains: ["*"], routes: [] }] });
 * await sub.close();
 * feed.update("r", { name: "r", virtual_hosts: [] });
 * assert.equal(seen.length, 2);
 * ```
 * @module
 */
import type { JsonObject } from "../config/bootstrap_types.ts";
import type { Subscription } from "../upstream/xds_clients.ts";

/** The route configurations of a worker, by `route_config_name`, as the main thread sent them. */
export class RouteFeed {
  readonly #configs: Map<string, JsonObject>;
  readonly #followers = new Map<string, Set<(rc: JsonObject) => void>>();

  /** Starts with the configurations the main thread had when the worker started. */
  constructor(initial: Readonly<Record<string, JsonObject>> = {}) {
    this.#configs = new Map(Object.entries(initial));
  }

  /**
   * Calls `apply` with the configuration of `name` now (when there is one) and with each one
   * sent later, until the returned subscription is closed. Its first fetch has already ended:
   * the main thread waited for it before starting the workers.
   */
  follow(name: string, apply: (rc: JsonObject) => void): Subscription {
    let set = this.#followers.get(name);
    if (!set) this.#followers.set(name, set = new Set());
    set.add(apply);
    const now = this.#configs.get(name);
    if (now !== undefined) apply(now);
    return {
      start: () => Promise.resolve(),
      refresh: () => Promise.resolve(),
      close: () => {
        set!.delete(apply);
        return Promise.resolve();
      },
    };
  }

  /** A configuration the main thread accepted for `name`. */
  update(name: string, rc: JsonObject): void {
    this.#configs.set(name, rc);
    for (const apply of this.#followers.get(name) ?? []) apply(rc);
  }
}
