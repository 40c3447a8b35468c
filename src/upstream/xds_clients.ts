/**
 * The control-plane connections of one proxy: the aggregated stream (`dynamic_resources.ads_config`)
 * and one stream per `api_config_source` (by cluster, type and protocol variant), each an
 * {@linkcode XdsMux} over gRPC to the first host of a static cluster, opened on first use. The
 * node identity is the bootstrap's `node` (with `--service-node`, `--service-cluster` and
 * `--service-zone` applied). {@linkcode XdsClients.subscribe} hands out a subscription for any
 * {@linkcode SourceSpec}: a file, ADS or a gRPC source. {@linkcode XdsClients.check} says why a
 * source cannot be used (no `ads_config`, a cluster that is not static, has no host or uses TLS),
 * with its path.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { XdsClients } from "./xds_clients.ts";
 * const x = new XdsClients({ clusters: [], node: { id: "n" } });
 * const e = x.check({ kind: "ads", initialFetchTimeoutMs: 15000 }, "dynamic_resources.cds_config");
 * assert.match(e!.message, /ads_config/);
 * ```
 * @module
 */
import type { JsonObject } from "../config/bootstrap_types.ts";
import type { EffectiveCluster } from "../config/effective_cluster.ts";
import type { DynamicFieldPolicy } from "../config/dynamic_fields.ts";
import { apiSourceOf, type SourceSpec } from "../config/config_source.ts";
import { FilesystemSubscription, type SubscriptionCallbacks } from "../config/subscription.ts";
import { XdsMux } from "../config/xds_mux.ts";
import { GRPC_METHODS, TYPE_URLS } from "../config/xds_wire.ts";
import type { Scope } from "../stats/types.ts";
import { grpcOpener } from "./grpc_stream.ts";

/** What every subscription offers (files and streams alike). */
export interface Subscription {
  start(): Promise<void>;
  refresh(): Promise<void>;
  close(): Promise<void>;
}

/** What {@linkcode XdsClients} needs. */
export interface XdsClientsDeps {
  /** The static clusters: a gRPC source names one of them. */
  clusters: readonly EffectiveCluster[];
  /** The bootstrap's `node` (overrides applied). */
  node?: JsonObject;
  /** The bootstrap's `dynamic_resources.ads_config`. */
  ads?: unknown;
  log?: (level: string, msg: string) => void;
  /** Back-off of reconnections (tests shorten it). */
  backoffBaseMs?: number;
  /** How unknown fields of resources are treated (the dynamic-fields options). */
  policy?: DynamicFieldPolicy;
}

const SHORT: Record<string, keyof typeof TYPE_URLS> = Object.fromEntries(
  Object.entries(TYPE_URLS).map(([k, v]) => [v, k as keyof typeof TYPE_URLS]),
);

/** The control-plane connections; see the module documentation. */
export class XdsClients {
  readonly #muxes = new Map<string, { mux: XdsMux; close(): void }>();
  readonly #log: (level: string, msg: string) => void;

  /** Nothing connects until a subscription starts. */
  constructor(readonly deps: XdsClientsDeps) {
    this.#log = deps.log ?? (() => {});
  }

  /** Why `spec` (at `at`) cannot be used, or null. */
  check(spec: SourceSpec, at: string): { path: string; message: string } | null {
    if (spec.kind === "path") return null;
    if (spec.kind === "ads") {
      if (this.deps.ads === undefined) {
        return {
          path: `${at}.ads`,
          message: "ads is not supported by this build without dynamic_resources.ads_config " +
            "(an ads config source uses the bootstrap's aggregated stream)",
        };
      }
      const a = apiSourceOf(this.deps.ads, "dynamic_resources.ads_config");
      if (!a.ok) return { path: a.at, message: a.message };
      return this.#clusterError(a.clusterName, "dynamic_resources.ads_config");
    }
    return this.#clusterError(spec.clusterName, `${at}.api_config_source`);
  }

  #clusterError(name: string, at: string): { path: string; message: string } | null {
    const path = `${at}.grpc_services[0].envoy_grpc.cluster_name`;
    const c = this.deps.clusters.find((x) => x.name === name);
    if (!c) return { path, message: `unknown static cluster "${name}"` };
    if (c.type !== "STATIC" || c.hosts.length === 0) {
      return { path, message: `cluster "${name}" must be STATIC with at least one endpoint` };
    }
    if (c.tls) {
      return { path, message: `cluster "${name}": TLS to a control plane is not supported` };
    }
    return null;
  }

  #mux(key: string, clusterName: string, method: string, delta: boolean): XdsMux {
    const have = this.#muxes.get(key);
    if (have) return have.mux;
    const c = this.deps.clusters.find((x) => x.name === clusterName);
    const h = c?.hosts[0];
    if (!h) throw new Error(`unknown static cluster "${clusterName}"`);
    const open = grpcOpener(h.address, h.port);
    const mux = new XdsMux(open, {
      node: this.deps.node ?? {},
      method,
      delta,
      log: this.#log,
      backoffBaseMs: this.deps.backoffBaseMs,
      onUnknownField: (message, path) => {
        const p = this.deps.policy;
        if (p?.mode === "reject") throw new Error(`${path}: unknown field in ${message}`);
        p?.onUnknown(message, path);
      },
    });
    this.#muxes.set(key, { mux, close: () => open.close() });
    return mux;
  }

  /**
   * A subscription to `name` (null: every resource) of `typeUrl` from `spec`, counting under
   * `scope`. A file source reads the whole file (`name` does not filter it).
   */
  subscribe(
    spec: SourceSpec,
    typeUrl: string,
    name: string | null,
    scope: Scope,
    callbacks: SubscriptionCallbacks,
    fileOpts: {
      policy?: DynamicFieldPolicy;
      log?: (l: string, m: string) => void;
      debounceMs?: number;
    } = {},
  ): Subscription {
    if (spec.kind === "path") {
      return new FilesystemSubscription(spec.path, scope, callbacks, fileOpts);
    }
    let mux: XdsMux;
    if (spec.kind === "ads") {
      const a = apiSourceOf(this.deps.ads, "dynamic_resources.ads_config");
      if (!a.ok) throw new Error(`${a.at}: ${a.message}`);
      mux = this.#mux(
        "ads",
        a.clusterName,
        a.delta ? GRPC_METHODS.adsDelta : GRPC_METHODS.ads,
        a.delta,
      );
    } else {
      const short = SHORT[typeUrl];
      if (!short) throw new Error(`no discovery service for ${typeUrl}`);
      const method = GRPC_METHODS[spec.delta ? `${short}Delta` as const : short];
      mux = this.#mux(`${spec.clusterName}|${method}`, spec.clusterName, method, spec.delta);
    }
    return mux.subscribe(typeUrl, name, scope, callbacks, {
      initialFetchTimeoutMs: spec.initialFetchTimeoutMs,
    });
  }

  /** Closes every stream. */
  async close(): Promise<void> {
    for (const m of this.#muxes.values()) {
      await m.mux.close();
      m.close();
    }
    this.#muxes.clear();
  }
}
