/**
 * Validation of an LDS update, shared by the listener manager of a single process and by the
 * main thread that holds LDS for data-plane workers (`src/server/worker_listeners.ts`): every
 * resource must be a Listener this build supports, its clusters must exist, its RDS source must
 * be usable, and it may not take the name of a static listener. The whole update is refused (the
 * subscription NACKs with every problem and its path) before anything changes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkLdsUpdate } from "./lds_update.ts";
 * assert.throws(
 *   () =>
 *     checkLdsUpdate(
 *       { version_info: "1", resources: [{ "@type": "type.googleapis.com/x.Cluster" }] },
 *       { clusterNames: new Set(), staticNames: new Set(), check: () => null },
 *     ),
 *   /resources\[0\]: @type type.googleapis.com\/x.Cluster is not a Listener/,
 * );
 * ```
 * @module
 */
import type { JsonObject } from "../config/bootstrap_types.ts";
import type { ConfigError } from "../config/errors.ts";
import type { DiscoveryResponse } from "../config/subscription.ts";
import { configSourceOf, type SourceSpec } from "../config/config_source.ts";
import { messageSupportErrors } from "../config/support_check.ts";
import { isSimple, type ListenerSpec } from "./listener_config.ts";
import { parseListeners } from "./validate_listeners.ts";
import type { ListenerView } from "./types.ts";
import { hostPort } from "../upstream/host.ts";

/** What an LDS update is checked against. */
export interface LdsCheckContext {
  /** The clusters routes and TCP proxies may name. */
  clusterNames: ReadonlySet<string>;
  /** Names of the static listeners (LDS cannot change them). */
  staticNames: ReadonlySet<string>;
  /** Why a config source cannot be used (the xDS clients' check), or null. */
  check(spec: SourceSpec, at: string): Omit<ConfigError, "rule"> | null;
}

/** An accepted LDS update: its listeners (bodies without `@type`) and when it came. */
export interface LdsUpdate {
  specs: ListenerSpec[];
  bodies: JsonObject[];
  update: { version_info: string; last_updated: string };
}

/** Checks `r`; throws an error naming every problem with its path. */
export function checkLdsUpdate(r: DiscoveryResponse, ctx: LdsCheckContext): LdsUpdate {
  const problems: string[] = [];
  const bodies = r.resources.map((x, i) => {
    const t = String(x["@type"]);
    if (!/\.Listener$/.test(t)) problems.push(`resources[${i}]: @type ${t} is not a Listener`);
    const { "@type": _, ...b } = x;
    for (const e of messageSupportErrors("Listener", b, `resources[${i}]`)) {
      problems.push(`${e.path}: ${e.message}`);
    }
    return b;
  });
  const { specs, errors } = parseListeners(bodies, "resources", ctx.clusterNames);
  errors.push(...rdsProblems(specs, "resources", ctx.check));
  for (const e of errors) problems.push(`${e.path}: ${e.message}`);
  specs.forEach((s, i) => {
    if (ctx.staticNames.has(s.name)) {
      problems.push(`resources[${i}].name: listener "${s.name}" is static; LDS cannot change it`);
    }
  });
  if (problems.length) throw new Error(problems.join("; "));
  return {
    specs,
    bodies: specs.map((s) => s.config),
    update: { version_info: r.version_info, last_updated: new Date().toISOString() },
  };
}

/** Why the RDS sources of `specs` (at `path[i]`) cannot be used. */
export function rdsProblems(
  specs: readonly ListenerSpec[],
  path: string,
  check: LdsCheckContext["check"],
): ConfigError[] {
  const out: ConfigError[] = [];
  specs.forEach((s, i) => {
    const f = s.filter;
    if (f.kind !== "http" || !f.hcm.rds) return;
    const chains = s.config.filter_chains as { filters?: unknown[] }[] | undefined;
    const n = (chains?.[0]?.filters?.length ?? 1) - 1;
    const at = `${path}[${i}].filter_chains[0].filters[${n}].typed_config.rds.config_source`;
    const src = configSourceOf(f.hcm.rds.source, at);
    if (!src.ok) out.push({ path: src.at, rule: "", message: src.message });
    const p = src.ok ? check(src.spec, at) : null;
    if (p) out.push({ ...p, rule: "" });
  });
  return out;
}

/** The RDS source of a listener's HTTP connection manager, when it has one RDS can serve. */
export function rdsSourceOf(s: ListenerSpec): SourceSpec | null {
  const f = s.filter;
  if (!isSimple(s) || f.kind !== "http" || !f.hcm.rds) return null;
  const src = configSourceOf(f.hcm.rds.source, "rds.config_source");
  return src.ok ? src.spec : null;
}

/**
 * The name of another listener in `live` that keeps the address of `s` once the update whose
 * listeners are `next` (by name) applies: Envoy refuses such an update ("duplicate address").
 * Port 0 never clashes; an LDS listener the update removes or moves frees its address.
 */
export function addressHolder(
  s: ListenerSpec,
  live: readonly ListenerView[],
  next: ReadonlyMap<string, ListenerSpec>,
): string | null {
  if (s.port === 0) return null;
  const same = (address: string, port: number) => address === s.address && port === s.port;
  for (const l of live) {
    if (l.stopped || l.name === s.name) continue;
    if (l.apiUpdate) {
      const n = next.get(l.name);
      if (!n || !same(n.address, n.port)) continue;
    }
    if (same(l.address, l.port)) return l.name;
  }
  return null;
}

/**
 * Tries the address of `s` (as the listeners bind it, with `reusePort` or not) before an update
 * is accepted, as Envoy creates a listener's sockets before it acknowledges: the port it got (the
 * one the system chose for port 0), or why it cannot bind, in Envoy's words. An address one of
 * the `live` listeners holds is not tried (it binds beside it with `reusePort`, or after it).
 */
export function tryBind(
  s: ListenerSpec,
  live: readonly ListenerView[],
  reusePort: boolean,
): number | string {
  if (s.port !== 0 && live.some((l) => l.address === s.address && l.port === s.port)) {
    return s.port;
  }
  try {
    const l = Deno.listen({ hostname: s.address, port: s.port, reusePort });
    const port = (l.addr as Deno.NetAddr).port;
    l.close();
    return port;
  } catch (e) {
    return `listener '${s.name}': cannot bind '${hostPort(s.address, s.port)}': ` +
      (e as Error).message;
  }
}

/**
 * What binding `s` would give, checked before an update is accepted: the port (see
 * {@linkcode tryBind}), or the problem ({@linkcode addressHolder}, then the bind error).
 */
export function checkAddress(
  s: ListenerSpec,
  live: readonly ListenerView[],
  next: ReadonlyMap<string, ListenerSpec>,
  reusePort: boolean,
): number | string {
  const other = addressHolder(s, live, next);
  if (other !== null) {
    return `error adding listener '${hostPort(s.address, s.port)}': listener '${other}' has ` +
      "duplicate address as existing listener";
  }
  return tryBind(s, live.filter((l) => !l.stopped), reusePort);
}

/** True when two listeners have the same configuration (an update that changes nothing). */
export function sameListener(a: JsonObject, b: JsonObject): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
