/**
 * Subset load balancing (`lb_subset_config`), after Envoy's `SubsetLoadBalancer`: each
 * `subset_selectors` entry groups the hosts by the values of its keys in their `proxy.lb` (or
 * `envoy.lb`) endpoint metadata; a request whose route (or weighted cluster) `metadata_match`
 * has exactly one selector's keys is balanced, with the cluster's `lb_policy`, over the hosts of
 * the subset with those values. When no subset matches (or the request has no criteria), the
 * selector's `fallback_policy`, else the top-level one, decides: NO_FALLBACK (no host),
 * ANY_ENDPOINT (every host) or DEFAULT_SUBSET (the hosts matching `default_subset`; all of them
 * when it is empty); with `panic_mode_any`, a fallback that finds no host uses every host.
 * `list_as_any`: an endpoint value that is a list also matches each of its elements.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { subsetKey } from "./subset.ts";
 * assert.equal(subsetKey([["version", "v1"], ["stage", "prod"]]), '["stage","prod"],["version","v1"]');
 * ```
 * @module
 */
import type { Json, JsonObject } from "../../config/bootstrap_types.ts";
import type { Host } from "../host.ts";
import type { Counter, Gauge } from "../../stats/types.ts";
import type { LbContext, LoadBalancer } from "./load_balancer.ts";
import { valueOf } from "../../config/defaults.ts";

const TOP = "Cluster.LbSubsetConfig";
const SELECTOR = "Cluster.LbSubsetConfig.LbSubsetSelector";

/** The fallback policies of the two enums (the selector's NOT_DEFINED defers to the top). */
export type SubsetFallback = "NO_FALLBACK" | "ANY_ENDPOINT" | "DEFAULT_SUBSET";

/** `lb_subset_config` after defaults. */
export interface SubsetConfig {
  fallbackPolicy: SubsetFallback;
  defaultSubset: JsonObject;
  selectors: { keys: string[]; fallbackPolicy: SubsetFallback | null }[];
  panicModeAny: boolean;
  listAsAny: boolean;
  /** `locality_weight_aware`: subsets balance by locality weight (with locality weighting on). */
  localityWeightAware: boolean;
  /** `scale_locality_weight`: a subset's locality weights scale by its share of the locality. */
  scaleLocalityWeight: boolean;
}

/** A route's `metadata_match` criteria: key -> value, from the `proxy.lb` / `envoy.lb` namespace. */
export type MetadataMatch = Readonly<Record<string, Json>>;

/** Envoy's subset statistics (`lb_subsets_*`), kept across rebuilds of the balancer. */
export class SubsetStats {
  #known = new Set<string>();

  /** Stats under the cluster's scope. */
  constructor(
    readonly s: {
      active: Gauge;
      created: Counter;
      removed: Counter;
      selected: Counter;
      fallback: Counter;
      fallbackPanic: Counter;
    },
  ) {}

  /** Counts subsets that appeared and disappeared with a new host set. */
  rebuilt(keys: ReadonlySet<string>): void {
    for (const k of keys) if (!this.#known.has(k)) this.s.created.inc();
    for (const k of this.#known) if (!keys.has(k)) this.s.removed.inc();
    this.#known = new Set(keys);
    this.s.active.set(keys.size);
  }
}

/** JSON with object keys sorted, so equal values have equal text. */
export function canonical(v: Json | undefined): string {
  if (v === null || typeof v !== "object") return JSON.stringify(v ?? null);
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  const keys = Object.keys(v).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(",")}}`;
}

/** The name of the subset of `pairs` (key, value): sorted by key. */
export function subsetKey(pairs: readonly (readonly [string, Json])[]): string {
  return [...pairs].sort((a, b) => a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)
    .map(([k, v]) => `[${JSON.stringify(k)},${canonical(v)}]`).join(",");
}

/** The names of the subsets of `selector` keys that `metadata` belongs to (several with lists). */
function subsetsOf(metadata: JsonObject, keys: readonly string[], listAsAny: boolean): string[] {
  let combos: [string, Json][][] = [[]];
  for (const k of keys) {
    const v = metadata[k];
    if (v === undefined) return [];
    const values: Json[] = listAsAny && Array.isArray(v) ? [v, ...v] : [v];
    combos = combos.flatMap((c) => values.map((x) => [...c, [k, x] as [string, Json]]));
  }
  return combos.map(subsetKey);
}

const keySet = (keys: readonly string[]) => JSON.stringify([...new Set(keys)].sort());

/** Balances over the subset a request's metadata criteria select. */
export class SubsetLoadBalancer implements LoadBalancer {
  readonly #subsets = new Map<string, LoadBalancer>();
  /** Selector key sets (sorted) -> the selector's own fallback, or null. */
  readonly #selectors = new Map<string, SubsetFallback | null>();
  readonly #any: LoadBalancer;
  readonly #default: LoadBalancer | null;
  readonly #c: SubsetConfig;
  readonly #stats: SubsetStats | null;

  /** Groups `hosts`; `child` builds the `lb_policy` balancer of a host list. */
  constructor(
    hosts: readonly Host[],
    c: SubsetConfig,
    child: (hosts: readonly Host[]) => LoadBalancer,
    stats: SubsetStats | null = null,
  ) {
    this.#c = c;
    this.#stats = stats;
    this.#any = child(hosts);
    const groups = new Map<string, Host[]>();
    for (const sel of c.selectors) {
      const ks = keySet(sel.keys);
      if (!this.#selectors.has(ks) || this.#selectors.get(ks) === null) {
        this.#selectors.set(ks, sel.fallbackPolicy);
      }
      const sorted = JSON.parse(ks) as string[];
      for (const h of hosts) {
        for (const name of subsetsOf(h.metadata, sorted, c.listAsAny)) {
          const g = groups.get(name) ?? [];
          if (!g.includes(h)) g.push(h);
          groups.set(name, g);
        }
      }
    }
    for (const [name, g] of groups) this.#subsets.set(name, child(g));
    stats?.rebuilt(new Set(groups.keys()));
    const d = Object.entries(c.defaultSubset);
    if (d.length === 0) this.#default = this.#any;
    else {
      const members = hosts.filter((h) => d.every(([k, v]) => matches(h.metadata[k], v, c)));
      this.#default = members.length ? child(members) : null;
    }
  }

  /** A host of the selected subset, or of the fallback. */
  choose(ctx: LbContext): Host | null {
    const mm = ctx.metadataMatch;
    const keys = mm ? Object.keys(mm) : [];
    if (mm && keys.length > 0) {
      const lb = this.#subsets.get(subsetKey(Object.entries(mm)));
      if (lb && this.#selectors.has(keySet(keys))) {
        this.#stats?.s.selected.inc();
        return lb.choose(ctx);
      }
    }
    const own = keys.length > 0 ? this.#selectors.get(keySet(keys)) ?? null : null;
    const policy = own ?? this.#c.fallbackPolicy;
    const fb = policy === "ANY_ENDPOINT"
      ? this.#any
      : policy === "DEFAULT_SUBSET"
      ? this.#default
      : null;
    const host = fb?.choose(ctx) ?? null;
    if (host) {
      this.#stats?.s.fallback.inc();
      return host;
    }
    if (this.#c.panicModeAny) {
      const any = this.#any.choose(ctx);
      if (any) this.#stats?.s.fallbackPanic.inc();
      return any;
    }
    return null;
  }
}

function matches(hostValue: Json | undefined, want: Json, c: SubsetConfig): boolean {
  if (hostValue === undefined) return false;
  const w = canonical(want);
  if (canonical(hostValue) === w) return true;
  return c.listAsAny && Array.isArray(hostValue) && hostValue.some((x) => canonical(x) === w);
}

/** `lb_subset_config` (validated) with the defaults of its rows; null when unset. */
export function subsetConfig(v: Json | undefined): SubsetConfig | null {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return null;
  const sels = Array.isArray(v.subset_selectors) ? v.subset_selectors : [];
  const d = v.default_subset;
  return {
    fallbackPolicy: valueOf(TOP, v, "fallback_policy") as SubsetFallback,
    defaultSubset: (d && typeof d === "object" && !Array.isArray(d) ? d : {}) as JsonObject,
    selectors: sels.flatMap((s) => {
      if (s === null || typeof s !== "object" || Array.isArray(s)) return [];
      const keys = Array.isArray(s.keys) ? s.keys.map(String) : [];
      const own = valueOf(SELECTOR, s, "fallback_policy") as string;
      return [{ keys, fallbackPolicy: own === "NOT_DEFINED" ? null : own as SubsetFallback }];
    }),
    panicModeAny: valueOf(TOP, v, "panic_mode_any") === true,
    listAsAny: valueOf(TOP, v, "list_as_any") === true,
    localityWeightAware: valueOf(TOP, v, "locality_weight_aware") === true,
    scaleLocalityWeight: valueOf(TOP, v, "scale_locality_weight") === true,
  };
}
