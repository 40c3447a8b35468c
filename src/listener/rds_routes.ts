/**
 * RDS for one HTTP connection manager (`rds.route_config_name` with its `config_source`): a
 * subscription to that one RouteConfiguration whose accepted updates replace the manager's
 * routes whole, in one assignment, so a request sees the old table or the new one and never a
 * mix. An update is refused (NACK, the routes stay) when it is not exactly that resource, has a
 * setting this build refuses (the support table), or does not compile; with `validate_clusters`
 * true its clusters must exist (RDS's default is false: a missing cluster answers 503). Statistics
 * are Envoy's, under `http.<stat_prefix>.rds.<route_config_name>.`.
 *
 * @example Not run: it needs a control plane.
 * ```ts ignore
 * import { subscribeRds } from "./rds_routes.ts";
 * const sub = subscribeRds(hcmConfig, spec, { xds, clusters, stats, log });
 * await sub.start();
 * ```
 * @module
 */
import type { JsonObject } from "../config/bootstrap_types.ts";
import type { SourceSpec } from "../config/config_source.ts";
import type { ConfigError } from "../config/errors.ts";
import { messageSupportErrors } from "../config/support_check.ts";
import { isObject } from "../config/values.ts";
import { TYPE_URLS } from "../config/xds_names.ts";
import type { Scope } from "../stats/types.ts";
import type { ClusterManager } from "../upstream/cluster_manager.ts";
import type { Subscription } from "../upstream/xds_clients.ts";
import { parseRouteConfig } from "../router/route_config.ts";
import type { HcmConfig } from "./http_connection_manager.ts";
import { prefixed } from "../platform/log_site.ts";

/** The accepted route configuration of an RDS subscription, as `/config_dump` shows it. */
export interface RdsState {
  version_info: string;
  route_config: JsonObject;
  last_updated: string;
}

/** What {@linkcode subscribeRds} needs. */
export interface RdsDeps {
  clusters: ClusterManager;
  stats: Scope;
  log: (level: string, msg: string) => void;
  /** Receives each accepted configuration. */
  onAccepted?: (s: RdsState) => void;
}

/** Subscribes `hcm` (which has `rds`) to its route configuration from `spec`. */
export function subscribeRds(hcm: HcmConfig, spec: SourceSpec, deps: RdsDeps): Subscription {
  const name = hcm.rds!.name;
  const scope = deps.stats.scope("http").scope(hcm.statPrefix).scope("rds").scope(name);
  return deps.clusters.xds.subscribe(spec, TYPE_URLS.rds, name, scope, {
    onConfigUpdate: (r) => {
      const mine = r.resources.filter((x) => x.name === name);
      if (mine.length !== 1) {
        throw new Error(`resources: expected the RouteConfiguration "${name}"`);
      }
      const { "@type": t, ...body } = mine[0];
      if (!/\.RouteConfiguration$/.test(String(t))) {
        throw new Error(`resources[0]: @type ${t} is not a RouteConfiguration`);
      }
      const errors: ConfigError[] = messageSupportErrors(
        "RouteConfiguration",
        body,
        "resources[0]",
      );
      const vc = body.validate_clusters;
      const validate = vc === true || (isObject(vc) && vc.value === true);
      const routes = parseRouteConfig(
        { ...body, validate_clusters: validate },
        "resources[0]",
        errors,
        validate ? deps.clusters.names() : null,
      );
      if (errors.length || !routes) {
        throw new Error(errors.map((e) => `${e.path}: ${e.message}`).join("; "));
      }
      hcm.routes = routes;
      deps.onAccepted?.({
        version_info: r.version_info,
        route_config: mine[0],
        last_updated: new Date().toISOString(),
      });
      deps.log("info", `rds: ${name}: update ${r.version_info} accepted`);
    },
    onConfigUpdateFailed: () => {},
  }, { log: prefixed(deps.log, `rds ${name}: `) });
}
