/**
 * The control-plane connections of one proxy: the aggregated stream (`dynamic_resources.ads_config`)
 * and one stream per `api_config_source` (by service, type and protocol variant), each an
 * {@linkcode XdsMux} opened on first use: over gRPC to the first host of a static cluster
 * (with the cluster's TLS when it has a TLS transport socket) or to a `google_grpc` target, or
 * polling a REST control plane (`src/upstream/rest_stream.ts`, over TLS likewise). The
 * node identity is the bootstrap's `node` (with `--service-node`, `--service-cluster` and
 * `--service-zone` applied). {@linkcode XdsClients.subscribe} hands out a subscription for any
 * {@linkcode SourceSpec}: a file, ADS or a gRPC source. {@linkcode XdsClients.check} says why a
 * source cannot be used (no `ads_config`, REST for ADS, a cluster that is not static or has no
 * host), with its path. REST to a cluster with a TLS transport socket polls over TLS.
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
import {
  apiSourceOf,
  type ApiSourceResult,
  type GrpcTarget,
  type SourceSpec,
} from "../config/config_source.ts";
import { FilesystemSubscription, type SubscriptionCallbacks } from "../config/subscription.ts";
import type { XdsMux } from "../config/xds_mux.ts";
import { PROTOBUF } from "../config/protobuf_module.ts";
import { GRPC_METHODS, REST_PATHS, TYPE_URLS } from "../config/xds_names.ts";
import type { Scope } from "../stats/types.ts";
import { grpcOpener, grpcTargetOpener } from "./grpc_stream.ts";
import { restOpener } from "./rest_stream.ts";
import { tlsPost } from "./rest_tls_post.ts";

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
  /** Root scope of the `grpc.<stat_prefix>.*` stats of `google_grpc` services. */
  stats?: Scope;
}

const SHORT: Record<string, keyof typeof TYPE_URLS> = Object.fromEntries(
  Object.entries(TYPE_URLS).map(([k, v]) => [v, k as keyof typeof TYPE_URLS]),
);

/** The control-plane connections; see the module documentation. */
export class XdsClients {
  readonly #muxes = new Map<string, { mux: XdsMux; close(): void }>();
  readonly #log: (level: string, msg: string) => void;
  #adsSource?: ApiSourceResult;

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
      const at2 = "dynamic_resources.ads_config";
      const a = this.#ads();
      if (!a.ok) return { path: a.at, message: a.message };
      if (a.api.type === "REST") {
        return { path: `${at2}.api_type`, message: "ads_config needs GRPC or DELTA_GRPC" };
      }
      return this.#serviceError(a.api.service, `${at2}.grpc_services[0]`);
    }
    if (spec.kind === "rest") {
      return this.#clusterError(spec.clusterName, `${at}.api_config_source.cluster_names[0]`);
    }
    return this.#serviceError(spec.service, `${at}.api_config_source.grpc_services[0]`);
  }

  /** The bootstrap's `ads_config`, parsed once for every subscription that uses it. */
  #ads(): ApiSourceResult {
    return this.#adsSource ??= apiSourceOf(this.deps.ads, "dynamic_resources.ads_config");
  }

  /**
   * Why `cluster_manager.load_stats_config` (at `at`) cannot be used, or null: load reporting
   * is one gRPC stream (`api_type: GRPC`).
   */
  checkLoadStats(source: unknown, at: string): { path: string; message: string } | null {
    const a = apiSourceOf(source, at);
    if (!a.ok) return { path: a.at, message: a.message };
    if (a.api.type !== "GRPC") {
      return { path: `${at}.api_type`, message: "load reporting needs api_type GRPC" };
    }
    return this.#serviceError(a.api.service, `${at}.grpc_services[0]`);
  }

  /** Streams to the load reporting service of `source` (checked by `checkLoadStats`). */
  loadStatsOpener(source: unknown): ReturnType<typeof grpcOpener> {
    const a = apiSourceOf(source, "cluster_manager.load_stats_config");
    if (!a.ok || a.api.type === "REST") throw new Error("load_stats_config: not a gRPC source");
    return this.#opener(a.api.service);
  }

  #serviceError(s: GrpcTarget, at: string) {
    return s.kind === "envoy_grpc"
      ? this.#clusterError(s.clusterName, `${at}.envoy_grpc.cluster_name`)
      : null;
  }

  #clusterError(name: string, path: string): { path: string; message: string } | null {
    const c = this.deps.clusters.find((x) => x.name === name);
    if (!c) return { path, message: `unknown static cluster "${name}"` };
    if (c.type !== "STATIC" || c.hosts.length === 0) {
      return { path, message: `cluster "${name}" must be STATIC with at least one endpoint` };
    }
    return null;
  }

  #host(clusterName: string) {
    const c = this.deps.clusters.find((x) => x.name === clusterName);
    const h = c?.hosts[0];
    if (!c || !h) throw new Error(`unknown static cluster "${clusterName}"`);
    return { c, h };
  }

  #opener(s: GrpcTarget) {
    if (s.kind === "google_grpc") {
      const cr = s.credentials;
      return grpcTargetOpener(s.targetUri, {
        tls: cr.kind === "ssl"
          ? {
            rootCerts: cr.rootCerts,
            privateKey: cr.privateKey,
            certChain: cr.certChain,
            verifyWithoutRoots: true,
          }
          : undefined,
        scope: this.deps.stats?.scope(`grpc.${s.statPrefix}`),
      });
    }
    const { c, h } = this.#host(s.clusterName);
    const t = c.tls;
    return grpcOpener(h.address, h.port, {
      tls: t
        ? {
          rootCerts: t.trustedCa?.join("\n"),
          privateKey: t.privateKey,
          certChain: t.certChain,
          serverName: t.sni,
        }
        : undefined,
    });
  }

  #mux(
    key: string,
    open: () => ReturnType<typeof restOpener>,
    method: string,
    delta: boolean,
    nodeFirstOnly = false,
  ): XdsMux {
    const have = this.#muxes.get(key);
    if (have) return have.mux;
    const { XdsMux } = PROTOBUF.get();
    const opener = open();
    const mux = new XdsMux(opener, {
      node: this.deps.node ?? {},
      nodeFirstOnly,
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
    this.#muxes.set(key, { mux, close: () => opener.close() });
    return mux;
  }

  /** One stream per control plane and settings: sources that differ in any get their own. */
  #serviceKey(s: GrpcTarget, nodeFirstOnly: boolean) {
    const who = s.kind === "envoy_grpc" ? s.clusterName : `google:${JSON.stringify(s)}`;
    return `${who}|node-first-only:${nodeFirstOnly}`;
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
      const a = this.#ads();
      if (!a.ok) throw new Error(`${a.at}: ${a.message}`);
      const api = a.api;
      if (api.type === "REST") throw new Error("dynamic_resources.ads_config: REST is not ADS");
      const delta = api.type === "DELTA_GRPC";
      mux = this.#mux(
        "ads",
        () => this.#opener(api.service),
        delta ? GRPC_METHODS.adsDelta : GRPC_METHODS.ads,
        delta,
        api.nodeFirstOnly,
      );
    } else if (spec.kind === "rest") {
      const path = REST_PATHS[typeUrl];
      if (!path) throw new Error(`no REST discovery path for ${typeUrl}`);
      const { c, h } = this.#host(spec.clusterName);
      const host = h.address.includes(":") ? `[${h.address}]` : h.address;
      const tls = c.tls;
      mux = this.#mux(
        `rest:${spec.clusterName}|${path}|${spec.refreshDelayMs}|${spec.requestTimeoutMs}`,
        () =>
          restOpener(`${tls ? "https" : "http"}://${host}:${h.port}`, {
            refreshDelayMs: spec.refreshDelayMs,
            requestTimeoutMs: spec.requestTimeoutMs,
            post: tls ? tlsPost(h.address, h.port, tls, c.connectTimeoutMs) : undefined,
          }),
        path,
        false,
      );
    } else {
      const short = SHORT[typeUrl];
      if (!short) throw new Error(`no discovery service for ${typeUrl}`);
      const method = GRPC_METHODS[spec.delta ? `${short}Delta` as const : short];
      const service = spec.service;
      mux = this.#mux(
        `${this.#serviceKey(service, spec.nodeFirstOnly)}|${method}`,
        () => this.#opener(service),
        method,
        spec.delta,
        spec.nodeFirstOnly,
      );
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
