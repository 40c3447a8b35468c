/**
 * EDS for one cluster: a {@linkcode FilesystemSubscription} to its source file, each update
 * checked against the `ClusterLoadAssignment` rows of the spec tables (unknown fields per the
 * {@linkcode DynamicFieldPolicy}) and turned into hosts (`hostsOf`, the same conversion as static
 * `load_assignment`). A good update replaces the cluster's host set; a bad one is rejected with
 * a logged reason and the previous hosts stay. Counts `cluster.<name>.update_empty`,
 * `membership_change` next to the subscription statistics.
 *
 * @example Not run: it watches an EDS file (`eds.yaml`) on disk.
 * ```ts ignore
 * import { EdsUpdater } from "./eds.ts";
 * const eds = new EdsUpdater(cluster, { ok: true, path: "eds.yaml", serviceName: "web" }, deps);
 * await eds.start(); // resolves after the first read, good or bad (the cluster's init target)
 * console.log(eds.version());
 * await eds.close();
 * ```
 * @module
 */
import { hostPortProblem } from "./host_port_problem.ts";
import type { JsonObject } from "../config/bootstrap_types.ts";
import { hostsOf } from "../config/effective_cluster.ts";
import type { DynamicFieldPolicy } from "../config/dynamic_fields.ts";
import { messageSupportErrors } from "../config/support_check.ts";
import type { ConfigError } from "../config/errors.ts";
import { validateMessage } from "../config/nested_schema.ts";
import { type DiscoveryResponse, FilesystemSubscription } from "../config/subscription.ts";
import type { SourceSpec } from "../config/config_source.ts";
import { TYPE_URLS } from "../config/xds_names.ts";
import type { Subscription, XdsClients } from "./xds_clients.ts";
import type { Counter } from "../stats/types.ts";
import type { Cluster } from "./cluster.ts";

/** Type URLs of a ClusterLoadAssignment (v2 and v3). */
export const CLA_TYPES: readonly string[] = [
  "envoy.api.v2.ClusterLoadAssignment",
  "envoy.config.endpoint.v3.ClusterLoadAssignment",
];

/** The v3 type URL used when dumping an assignment. */
export const CLA_TYPE_URL = "type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment";

/** One accepted assignment, as `/config_dump?include_eds` shows it. */
export interface EndpointConfig {
  version_info: string;
  endpoint_config: JsonObject;
  /** RFC 3339 time of the update. */
  last_updated: string;
}

/** What an {@linkcode EdsUpdater} needs. */
export interface EdsDeps {
  policy: DynamicFieldPolicy;
  log: (level: string, msg: string) => void;
  /** Debounce of file events (tests shorten it). */
  debounceMs?: number;
  /** The control-plane connections, for a source with a `spec` (ADS or gRPC). */
  xds?: XdsClients;
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const isIp = (a: string) => IPV4.test(a) || (a.includes(":") && /^[0-9a-fA-F:.]+$/.test(a));

/**
 * Checks one resource of an update for cluster `serviceName`; returns the normalized assignment
 * or throws an Error naming where the problem is.
 */
export function checkAssignment(
  resource: JsonObject,
  at: string,
  serviceName: string,
  policy: DynamicFieldPolicy,
): JsonObject {
  const type = String(resource["@type"]);
  const name = type.slice(type.lastIndexOf("/") + 1);
  if (!CLA_TYPES.includes(name)) {
    throw new Error(`${at}: @type ${type} is not a ClusterLoadAssignment`);
  }
  const { "@type": _, ...body } = resource;
  const errors: ConfigError[] = [];
  const cla = validateMessage(
    "ClusterLoadAssignment",
    body,
    at,
    policy.context("ClusterLoadAssignment", errors),
  ) as JsonObject;
  // Settings this build does not honour reject the update, as they do in a static cluster.
  errors.push(...messageSupportErrors("ClusterLoadAssignment", cla, at));
  if (errors.length) throw new Error(errors.map((e) => `${e.path}: ${e.message}`).join("; "));
  // Every endpoint must become a host: nothing is dropped silently.
  const groups = Array.isArray(cla.endpoints) ? cla.endpoints : [];
  groups.forEach((g, i) => {
    const lbs = (g as JsonObject).lb_endpoints;
    (Array.isArray(lbs) ? lbs : []).forEach((e, j) => {
      const ep = (e as JsonObject).endpoint as JsonObject | undefined;
      const sa = (ep?.address as JsonObject | undefined)?.socket_address;
      if (!sa) {
        throw new Error(
          `${at}.endpoints[${i}].lb_endpoints[${j}]: needs endpoint.address.socket_address` +
            ((e as JsonObject).endpoint_name ? " (named endpoints are not supported)" : ""),
        );
      }
    });
  });
  if (cla.named_endpoints !== undefined) {
    throw new Error(`${at}.named_endpoints: named endpoints are not supported`);
  }
  if (cla.cluster_name !== serviceName) {
    throw new Error(
      `${at}.cluster_name: unexpected EDS cluster (expecting ${serviceName}): ${cla.cluster_name}`,
    );
  }
  return cla;
}

/** Keeps one EDS cluster's hosts in step with its file. */
export class EdsUpdater {
  readonly #sub: Subscription;
  readonly #empty: Counter;
  readonly #change: Counter;
  #config: EndpointConfig | null = null;

  /** Subscribes `cluster` to `source.path`. */
  constructor(
    readonly cluster: Cluster,
    readonly source: { path: string; serviceName: string; spec?: SourceSpec },
    readonly deps: EdsDeps,
  ) {
    const scope = cluster.stats.s;
    this.#empty = scope.counter("update_empty");
    this.#change = scope.counter("membership_change");
    scope.counter("update_no_rebuild");
    const callbacks = {
      onConfigUpdate: (r: DiscoveryResponse) => this.#apply(r),
      onConfigUpdateFailed: () => {
        // Startup goes on with whatever hosts the cluster has (none before a first update).
        this.cluster.initialized = true;
      },
    };
    const fileOpts = {
      policy: deps.policy,
      log: (level: string, msg: string) => deps.log(level, `cluster ${cluster.name}: ${msg}`),
      debounceMs: deps.debounceMs,
    };
    if (source.spec && source.spec.kind !== "path") {
      if (!deps.xds) throw new Error(`cluster ${cluster.name}: no control-plane connections`);
      this.#sub = deps.xds.subscribe(
        source.spec,
        TYPE_URLS.eds,
        source.serviceName,
        scope,
        callbacks,
        fileOpts,
      );
    } else this.#sub = new FilesystemSubscription(source.path, scope, callbacks, fileOpts);
  }

  #apply(r: DiscoveryResponse) {
    if (r.resources.length === 0) {
      this.#empty.inc();
      this.cluster.initialized = true;
      return;
    }
    if (r.resources.length > 1) {
      throw new Error(`resources: expected one ClusterLoadAssignment, got ${r.resources.length}`);
    }
    const cla = checkAssignment(
      r.resources[0],
      "resources[0]",
      this.source.serviceName,
      this.deps.policy,
    );
    const hosts = hostsOf({ load_assignment: cla }, "EDS");
    hosts.forEach((h, i) => {
      if (!isIp(h.address)) {
        throw new Error(`resources[0].endpoints: host ${i} address "${h.address}" is not an IP`);
      }
      const problem = hostPortProblem(h.address, h.port);
      if (problem !== null) throw new Error(`resources[0].endpoints: ${problem}`);
    });
    const { added, removed } = this.cluster.updateHosts(hosts);
    if (added + removed > 0) this.#change.inc();
    this.#config = {
      version_info: r.version_info,
      endpoint_config: { "@type": CLA_TYPE_URL, ...cla },
      last_updated: new Date().toISOString(),
    };
    this.cluster.initialized = true;
    this.deps.log(
      "info",
      `cluster ${this.cluster.name}: EDS update ${r.version_info}: ${hosts.length} hosts ` +
        `(${added} added, ${removed} removed)`,
    );
  }

  /** Reads the file once, then watches it; resolves after the first read (good or bad). */
  start(): Promise<void> {
    return this.#sub.start();
  }

  /** Re-reads the file now. */
  refresh(): Promise<void> {
    return this.#sub.refresh();
  }

  /** The `version_info` of the last accepted update (`""` before any). */
  version(): string {
    return this.#config?.version_info ?? "";
  }

  /** The last accepted assignment, or null before any. */
  endpointConfig(): EndpointConfig | null {
    return this.#config;
  }

  /** Stops watching. */
  close(): Promise<void> {
    return this.#sub.close();
  }
}
