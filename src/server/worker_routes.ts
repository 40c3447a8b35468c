/**
 * RDS for the static listeners that data-plane workers serve (`--concurrency` above 1): the main
 * thread holds each HTTP connection manager's subscription, as the listener manager would in a
 * single process (its statistics, ACKs and NACKs are the server's, counted once), keeps what
 * `/config_dump` shows, and hands every accepted route configuration to the workers
 * (`src/listener/route_feed.ts`). The workers start once each subscription's first fetch has
 * ended, with the configurations known then.
 *
 * @example Not run: it subscribes through a cluster manager.
 * ```ts ignore
 * const routes = new WorkerRoutes(bootstrap, cm, store, log, (name, rc) => broadcast(name, rc));
 * await routes.start();
 * routes.current(); // { [route_config_name]: RouteConfiguration }
 * ```
 * @module
 */
import type { Bootstrap, JsonObject } from "../config/bootstrap_types.ts";
import { configSourceOf, type SourceSpec } from "../config/config_source.ts";
import type { HcmConfig } from "../listener/http_connection_manager.ts";
import { type RdsState, subscribeRds } from "../listener/rds_routes.ts";
import { parseListeners } from "../listener/validate_listeners.ts";
import type { Store } from "../stats/store.ts";
import type { ClusterManager } from "../upstream/cluster_manager.ts";
import type { Subscription } from "../upstream/xds_clients.ts";

/** The main thread's RDS subscriptions on behalf of the workers. */
export class WorkerRoutes {
  /** Accepted route configurations by name, as `/config_dump` shows them. */
  readonly routeConfigs = new Map<string, RdsState>();
  readonly #subs: Subscription[] = [];
  /** Subscriptions for LDS listeners, by route configuration name, with their first fetch. */
  readonly #static = new Set<string>();
  readonly #dynamic = new Map<string, { sub: Subscription; ready: Promise<void> }>();

  /** Subscribes for every static listener of `bootstrap` whose connection manager has `rds`. */
  constructor(
    bootstrap: Bootstrap,
    readonly clusters: ClusterManager,
    readonly stats: Store,
    readonly log: (level: string, msg: string) => void,
    readonly onAccepted: (name: string, routeConfig: JsonObject) => void,
  ) {
    const raw = bootstrap.static_resources?.listeners ?? [];
    const { specs } = parseListeners(raw, "static_resources.listeners", null);
    for (const s of specs) {
      if (s.filter.kind !== "http" || !s.filter.hcm.rds) continue;
      const hcm = s.filter.hcm;
      const src = configSourceOf(hcm.rds!.source, "rds.config_source");
      if (!src.ok) continue;
      this.#static.add(hcm.rds!.name);
      this.#subs.push(subscribeRds(hcm, src.spec, {
        clusters,
        stats,
        log,
        onAccepted: (st) => {
          this.routeConfigs.set(hcm.rds!.name, st);
          onAccepted(hcm.rds!.name, bodyOf(st.route_config));
        },
      }));
    }
  }

  /** Starts every subscription; resolves when each first fetch has ended. */
  async start(): Promise<void> {
    await Promise.all(this.#subs.map((s) => s.start()));
  }

  /**
   * Subscribes for an LDS listener whose connection manager `hcm` has `rds` from `src`, unless a
   * subscription for its route configuration runs; resolves when its first fetch has ended (the
   * listener warms until then). The configurations it accepts reach every worker.
   */
  follow(hcm: HcmConfig, src: SourceSpec): Promise<void> {
    const name = hcm.rds!.name;
    const known = this.#dynamic.get(name);
    if (known) return known.ready;
    // A static listener's subscription serves it too (its first fetch ended before start).
    if (this.#static.has(name)) return Promise.resolve();
    const sub = subscribeRds(hcm, src, {
      clusters: this.clusters,
      stats: this.stats,
      log: this.log,
      onAccepted: (st) => {
        this.routeConfigs.set(name, st);
        this.onAccepted(name, bodyOf(st.route_config));
      },
    });
    const ready = sub.start();
    this.#dynamic.set(name, { sub, ready });
    return ready;
  }

  /** Ends the LDS listeners' subscriptions whose route configuration no listener uses now. */
  release(inUse: ReadonlySet<string>): void {
    for (const [name, { sub }] of this.#dynamic) {
      if (inUse.has(name)) continue;
      this.#dynamic.delete(name);
      this.routeConfigs.delete(name);
      void sub.close();
    }
  }

  /** The accepted configurations now, by name (what a starting worker begins with). */
  current(): Record<string, JsonObject> {
    const out: Record<string, JsonObject> = {};
    for (const [name, st] of this.routeConfigs) out[name] = bodyOf(st.route_config);
    return out;
  }

  /** Ends every subscription. */
  async close(): Promise<void> {
    await Promise.all(this.#subs.map((s) => s.close()));
    await Promise.all([...this.#dynamic.values()].map((d) => d.sub.close()));
    this.#dynamic.clear();
  }
}

/** A RouteConfiguration resource without its `@type`. */
function bodyOf(rc: JsonObject): JsonObject {
  const { "@type": _, ...body } = rc;
  return body;
}
