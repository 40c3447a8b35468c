/**
 * The one check of a loaded configuration that `--mode validate` and serve share, so that they
 * agree exactly: a bootstrap validate accepts is served as written, and one it rejects is refused
 * by serve with the same messages. It runs the cluster validator, the listener parser, the
 * settings of valid clusters the proxy core cannot honour (`checkClusterSupport`), the CDS file
 * source, the `support` column of every configuration field (`support_check.ts`) and the
 * `support` column of the command-line options.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkConfigurationWith } from "./configuration_check.ts";
 * import { parseArgs } from "../config/args.ts";
 * const options = parseArgs(["--config-yaml", "{}"]);
 * const bootstrap = {
 *   static_resources: { clusters: [{ name: "web", connect_timeout: "1s", lb_policy: "NOPE" }] },
 * };
 * const { errors } = checkConfigurationWith({}, options, bootstrap, { given: new Set() });
 * assert.equal(errors[0].path, "static_resources.clusters[0].lb_policy");
 * ```
 * @module
 */
import type { OptionRow } from "../../spec/rule.ts";
import { OPTIONS } from "../../spec/cli/options.ts";
import type { Options } from "../config/options.ts";
import { allowsUnknownStaticFields } from "../config/args.ts";
import type { Bootstrap, JsonObject } from "../config/bootstrap_types.ts";
import type { ConfigError } from "../config/errors.ts";
import type { EffectiveCluster } from "../config/effective_cluster.ts";
import { validateClusters } from "../config/validate_cluster.ts";
import { refusal, supportErrors } from "../config/support_check.ts";
import {
  checkClusterSupport,
  checkLocalCluster,
  edsXdsErrors,
} from "../upstream/cluster_support.ts";
import { configSourceOf } from "../config/config_source.ts";
import type { XdsClients } from "../upstream/xds_clients.ts";
import type { validateListeners } from "../listener/validate_listeners.ts";
import type { parseOverloadManager } from "./overload_manager.ts";
import { SecretStore } from "../config/secrets.ts";
import { parseAdminAccessLogs } from "../access_log/admin_access_log.ts";
import { parseHeaderMatcher } from "../router/header_matcher.ts";

/** Settings of {@linkcode checkConfigurationWith}. */
export interface CheckSettings {
  /** Called once per accepted unknown static field (with `--allow-unknown-static-fields`). */
  onUnknown?: (path: string) => void;
  /**
   * The long names of the options given on the command line. Unset (embedding): options are
   * taken as given, except that an unset-looking `--concurrency` above 1 runs one worker.
   */
  given?: ReadonlySet<string>;
  /**
   * False when the caller needs no effective clusters (`--mode validate`): unless the xDS
   * clients are given (they take the clusters), each valid cluster is checked as it is made and
   * then dropped, and `clusters` comes back empty. The errors are the same.
   */
  keepClusters?: boolean;
}

/**
 * The parts of the check that only some bootstraps need, and that load much of the proxy core:
 * the listener parser (listeners), the xDS clients (EDS, CDS, ADS and load reporting sources)
 * and the overload manager. `full_configuration_check.ts` gives all of them; `--mode validate`
 * loads those {@linkcode checkPartsNeeded} names.
 */
export interface CheckParts {
  validateListeners: typeof validateListeners;
  XdsClients: typeof XdsClients;
  parseOverloadManager: typeof parseOverloadManager;
}

/** Thrown when the check needs a part it was not given (see {@linkcode checkPartsNeeded}). */
export class MissingCheckPart extends Error {
  constructor(readonly part: keyof CheckParts) {
    super(`the configuration check needs ${part}, which was not loaded`);
    this.name = "MissingCheckPart";
  }
}

/** Cluster discovery types whose check needs no xDS client. */
const LOCAL_TYPES: ReadonlySet<unknown> = new Set([
  undefined,
  "STATIC",
  "STRICT_DNS",
  "LOGICAL_DNS",
  "ORIGINAL_DST",
]);

/**
 * The parts {@linkcode checkConfigurationWith} may use on `bootstrap`: a part left out is not
 * needed (the check throws {@linkcode MissingCheckPart} if it is after all).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkPartsNeeded } from "./configuration_check.ts";
 * assert.deepEqual(checkPartsNeeded({ static_resources: { clusters: [{ name: "a" }] } }), []);
 * assert.deepEqual(checkPartsNeeded({ static_resources: { listeners: [{}] } }), ["validateListeners"]);
 * ```
 */
export function checkPartsNeeded(bootstrap: Bootstrap): (keyof CheckParts)[] {
  const b = bootstrap as JsonObject;
  const sr = (b.static_resources ?? {}) as JsonObject;
  const out: (keyof CheckParts)[] = [];
  const listeners = sr.listeners;
  if (listeners !== undefined && !(Array.isArray(listeners) && listeners.length === 0)) {
    out.push("validateListeners");
  }
  const clusters = Array.isArray(sr.clusters) ? sr.clusters : [];
  const remote = clusters.some((c) =>
    !c || typeof c !== "object" || Array.isArray(c) ||
    !LOCAL_TYPES.has((c as JsonObject).type) || (c as JsonObject).eds_cluster_config !== undefined
  );
  const cm = b.cluster_manager as JsonObject | undefined;
  if (remote || b.dynamic_resources !== undefined || cm?.load_stats_config !== undefined) {
    out.push("XdsClients");
  }
  if (b.overload_manager !== undefined) out.push("parseOverloadManager");
  return out;
}

/** The result: every error, and the clusters in effective form (when they are valid). */
export interface CheckedConfiguration {
  errors: ConfigError[];
  clusters: EffectiveCluster[];
}

/** Values a `default-only` option accepts beyond its default, by long name. */
const OPTION_ACCEPTS: Readonly<Record<string, (v: unknown) => boolean>> = {
  "--concurrency": (v) => typeof v === "number" && v >= 0,
};

/** Refusals of command-line options this build does not honour (by the options' rows). */
export function optionSupportErrors(
  options: Options,
  given: ReadonlySet<string> | undefined,
): ConfigError[] {
  const out: ConfigError[] = [];
  for (const row of OPTIONS as readonly OptionRow[]) {
    if (row.support !== "refused" && row.support !== "default-only") continue;
    const key = row.long.slice(2).replaceAll("-", "_");
    const v = (options as unknown as Record<string, unknown>)[key];
    if (row.long === "--concurrency" && !(given?.has(row.long) ?? false)) continue;
    if (given && !given.has(row.long)) continue;
    const ok = row.support === "default-only" &&
      (v === row.default || (OPTION_ACCEPTS[row.long]?.(v) ?? false));
    if (ok) continue;
    out.push({
      path: row.long,
      rule: row.id,
      message: refusal(`${row.long} ${v}`, row.supportNote),
    });
  }
  return out;
}

/**
 * The options serve runs with. `--concurrency` left unset is the hardware thread count (or the
 * cpuset size) on the command line; an embedded server (`given` unset) runs one worker unless
 * told otherwise, and `why` says so for the log. Every setting runs with workers: the main thread
 * holds the xDS subscriptions (LDS, CDS, RDS, EDS, load reporting) and tells every worker, `/tap`
 * sessions are copied to the workers, and the overload manager's actions reach them through
 * shared memory.
 */
export function effectiveOptions(
  options: Options,
  given: ReadonlySet<string> | undefined,
): { options: Options; why: string | null } {
  if (options.concurrency <= 1 || given) return { options, why: null };
  return {
    options: { ...options, concurrency: 1 },
    why: `concurrency is 1, not ${options.concurrency} (the hardware threads): ` +
      "an embedded server runs one worker",
  };
}

/**
 * Checks the whole loaded configuration with the given parts; see the module documentation.
 * `full_configuration_check.ts` gives every part.
 *
 * @throws {MissingCheckPart} when the configuration needs a part not given
 */
export function checkConfigurationWith(
  parts: Partial<CheckParts>,
  options: Options,
  bootstrap: Bootstrap,
  settings: CheckSettings = {},
): CheckedConfiguration {
  const part = <K extends keyof CheckParts>(k: K): CheckParts[K] => {
    const p = parts[k];
    if (p === undefined) throw new MissingCheckPart(k);
    return p as CheckParts[K];
  };
  const sr = (bootstrap.static_resources ?? {}) as { clusters?: unknown[]; listeners?: unknown[] };
  const rawClusters = (sr.clusters ?? []) as JsonObject[];
  const secrets = new SecretStore((bootstrap.static_resources as JsonObject | undefined)?.secrets);
  const localName = bootstrap.cluster_manager?.local_cluster_name;
  // Kept or not (`keepClusters`), each valid cluster meets the same checks, in the same order.
  const stream = settings.keepClusters === false && parts.XdsClients === undefined;
  const streamed = { support: [] as ConfigError[], eds: false, local: [] as { name: string }[] };
  const result = validateClusters(rawClusters, {
    secrets,
    path: "static_resources.clusters",
    allowUnknown: allowsUnknownStaticFields(options),
    onUnknown: settings.onUnknown,
    bindConfig: bootstrap.cluster_manager?.upstream_bind_config,
    keep: !stream,
    onEffective: stream
      ? (c, i) => {
        // Used only when no cluster has an error (as checkClusterSupport below).
        for (const e of checkClusterSupport([c], "static_resources.clusters", i)) {
          streamed.support.push(e);
        }
        if (c.type === "EDS") streamed.eds = true;
        if (c.name === localName) streamed.local.push({ name: c.name });
      }
      : undefined,
  });
  const errors: ConfigError[] = [...result.errors];
  const names = new Set(
    rawClusters.map((c) => (c && typeof c === "object" && !Array.isArray(c) ? c.name : null))
      .filter((n): n is string => typeof n === "string"),
  );
  const listeners = sr.listeners ?? [];
  if (!(Array.isArray(listeners) && listeners.length === 0)) {
    errors.push(
      ...part("validateListeners")(listeners, "static_resources.listeners", names, secrets),
    );
  }
  parseAdminAccessLogs(bootstrap.admin as JsonObject | undefined, errors, parseHeaderMatcher);
  let clients: XdsClients | undefined;
  const xds = () =>
    clients ??= new (part("XdsClients"))({
      clusters: result.clusters,
      ads: (bootstrap.dynamic_resources as JsonObject | undefined)?.ads_config,
    });
  if (result.errors.length === 0) {
    errors.push(...(stream ? streamed.support : checkClusterSupport(result.clusters)));
    errors.push(...checkLocalCluster(localName, stream ? streamed.local : result.clusters));
    if (stream ? streamed.eds : result.clusters.some((c) => c.type === "EDS")) {
      errors.push(...edsXdsErrors(result.clusters, "static_resources.clusters", xds()));
    }
  }
  const lrs = bootstrap.cluster_manager?.load_stats_config;
  if (lrs !== undefined && result.errors.length === 0) {
    const p = xds().checkLoadStats(lrs, "cluster_manager.load_stats_config");
    if (p) errors.push({ ...p, rule: "" });
  }
  const cds = (bootstrap.dynamic_resources as JsonObject | undefined)?.cds_config;
  if (cds && typeof cds === "object" && !Array.isArray(cds)) {
    const src = configSourceOf(cds as JsonObject, "dynamic_resources.cds_config");
    if (!src.ok) errors.push({ path: src.at, rule: "", message: src.message });
    else {
      const p = xds().check(src.spec, "dynamic_resources.cds_config");
      if (p) errors.push({ ...p, rule: "" });
    }
  }
  const overload = (bootstrap as JsonObject).overload_manager;
  if (overload !== undefined && overload !== null) {
    errors.push(...part("parseOverloadManager")(overload, "overload_manager").errors);
  }
  // A refusal by the support column replaces a parser's own complaint about the same field, so
  // every unsupported field reads the same way.
  const refused = supportErrors(bootstrap as Record<string, unknown>);
  const paths = new Set(refused.map((e) => e.path));
  return {
    errors: [
      ...errors.filter((e) => !paths.has(e.path)),
      ...refused,
      ...optionSupportErrors(options, settings.given),
    ],
    clusters: result.clusters,
  };
}
