/**
 * Probes the target before any case runs: which optional features it has (health check filter,
 * mutex tracing, dashboard sink, tap) and which fixtures it has loaded. Rules needing what is
 * absent end NOT_APPLICABLE rather than FAIL. Profilers cannot be probed without a change,
 * so their cases probe themselves (enable, then undo) and throw NotApplicable.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { HttpClient } from "./http_client.ts";
 * import { probeTarget } from "./probe.ts";
 * // A stand-in admin interface that knows only /server_info.
 * await using admin = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) =>
 *   new URL(req.url).pathname === "/server_info"
 *     ? Response.json({ version: "abc/1.0.0/Clean/RELEASE/BoringSSL" })
 *     : new Response("", { status: 404 }));
 * const found = await probeTarget(new HttpClient(`http://127.0.0.1:${admin.addr.port}`));
 * assert.equal(found.version, "abc/1.0.0/Clean/RELEASE/BoringSSL");
 * ```
 * @module
 */
import type { Feature } from "../spec/rule.ts";
import type { HttpClient } from "./http_client.ts";

/** What the probe found. */
export interface ProbeResult {
  /** Features found present. */
  features: Set<Feature>;
  /** Features the probe could decide (present or absent); others are decided by their cases. */
  decided: Set<Feature>;
  /** Fixture names found loaded. */
  fixtures: Set<string>;
  /** The target's `/config_dump` text ("" when unreadable), kept for fixture checks. */
  configDump: string;
  /** `version` of `/server_info`, when readable. */
  version?: string;
}

/** The conformance fixture, by the names it defines (fixtures/conformance/bootstrap.yaml). */
export const CONFORMANCE_FIXTURE = {
  cluster: "conformance_static",
  listener: "conformance_http",
  staticLayer: "conformance_static_layer",
  adminLayer: "conformance_admin_layer",
  runtimeKey: "conformance.static_key",
  /** The cluster whose TLS context loads the certificates of `fixtures/tls/` (`/certs`). */
  tlsCluster: "conformance_tls",
} as const;

/**
 * Fixture names a rule may need (`check: "fixture:<name>"`), each with the feature or names that
 * show it is loaded. A name not listed here is a fixture this suite cannot set up or recognise
 * (an EDS server, a failing upstream...): its rules end NOT_APPLICABLE.
 */
export const FIXTURE_PROBES: Record<string, { feature?: Feature; names?: readonly string[] }> = {
  "conformance": { names: [CONFORMANCE_FIXTURE.cluster, CONFORMANCE_FIXTURE.listener] },
  "bootstrap": { names: [CONFORMANCE_FIXTURE.cluster, CONFORMANCE_FIXTURE.listener] },
  "health-check-filter": { feature: "health_check_filter" },
  "cpu-profiler": { feature: "cpu_profiler" },
  "heap-profiler": { feature: "heap_profiler" },
  "health_check_filter": { feature: "health_check_filter" },
  "mutex-tracing": { feature: "mutex_tracing" },
  "dashboard-sink": { feature: "dashboard_sink" },
  "hystrix": { feature: "dashboard_sink" },
  "tap": { feature: "tap" },
  "runtime": { names: [CONFORMANCE_FIXTURE.staticLayer, CONFORMANCE_FIXTURE.adminLayer] },
  "admin-layer": { names: [CONFORMANCE_FIXTURE.adminLayer] },
  "static-cluster": { names: [CONFORMANCE_FIXTURE.cluster] },
  "tls-certs": { names: [CONFORMANCE_FIXTURE.tlsCluster] },
};

/**
 * Probes the admin interface.
 *
 * @param http the client
 * @returns what is present
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { HttpClient } from "./http_client.ts";
 * import { probeTarget } from "./probe.ts";
 * const found = await probeTarget(new HttpClient(null)); // nothing to probe: all empty
 * assert.equal(found.features.size, 0);
 * ```
 */
export async function probeTarget(http: HttpClient): Promise<ProbeResult> {
  const out: ProbeResult = {
    features: new Set(),
    decided: new Set(),
    fixtures: new Set(),
    configDump: "",
  };
  if (!http.available) return out;
  try {
    const dump = await http.request("GET", "/config_dump");
    if (dump.status === 200) out.configDump = dump.body;
  } catch { /* unreadable: decided below as absent where that is safe */ }
  const d = out.configDump;
  if (d !== "") {
    decide(out, "health_check_filter", /(envoy|proxy)\.(filters\.http\.)?health_check"/.test(d));
    decide(out, "dashboard_sink", /(stat_sinks\.hystrix|(envoy|proxy)\.hystrix)"/.test(d));
    decide(out, "tap", /"admin_config"/.test(d));
  }
  try {
    const info = await http.request("GET", "/server_info");
    const v = JSON.parse(info.body);
    if (typeof v?.version === "string") out.version = v.version;
    const m = v?.command_line_options?.enable_mutex_tracing;
    if (typeof m === "boolean") decide(out, "mutex_tracing", m);
  } catch { /* mutex tracing stays undecided */ }
  for (const [name, p] of Object.entries(FIXTURE_PROBES)) {
    if (p.feature !== undefined && out.features.has(p.feature)) out.fixtures.add(name);
    if (p.names !== undefined && d !== "" && p.names.every((n) => d.includes(`"${n}"`))) {
      out.fixtures.add(name);
    }
  }
  return out;
}

function decide(out: ProbeResult, f: Feature, present: boolean): void {
  out.decided.add(f);
  if (present) out.features.add(f);
}

/**
 * Explains why a fixture is missing, or returns null when it is loaded.
 *
 * @param probe what the probe found
 * @param fixture the name after `fixture:`
 * @returns a reason, or null
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { missingFixture } from "./probe.ts";
 * import type { ProbeResult } from "./probe.ts";
 * const probe: ProbeResult = {
 *   features: new Set(["health_check_filter"]),
 *   decided: new Set(["health_check_filter"]),
 *   fixtures: new Set(),
 *   configDump: "",
 * };
 * assert.equal(missingFixture(probe, "health-check-filter"), null); // the filter is loaded
 * probe.features.clear();
 * assert.match(missingFixture(probe, "health-check-filter")!, /lacks the optional feature/);
 * ```
 */
export function missingFixture(probe: ProbeResult, fixture: string): string | null {
  const p = FIXTURE_PROBES[fixture];
  if (p === undefined) {
    return `fixture "${fixture}" is not one this suite can recognise on a target ` +
      "(see conformance/INTERPRETING.md)";
  }
  if (p.feature !== undefined) {
    if (!probe.decided.has(p.feature) || probe.features.has(p.feature)) return null;
    return `fixture "${fixture}" is not loaded: the target lacks the optional feature ${p.feature}`;
  }
  if (probe.fixtures.has(fixture)) return null;
  return `fixture "${fixture}" is not loaded (looked for ${(p.names ?? []).join(", ")} in ` +
    "/config_dump); load fixtures/conformance/bootstrap.yaml into the target";
}
