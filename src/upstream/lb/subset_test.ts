import assert from "node:assert/strict";
import fc from "fast-check";
import type { Json, JsonObject } from "../../config/bootstrap_types.ts";
import { Host } from "../host.ts";
import { createLoadBalancer, defaultLbOptions } from "./load_balancer.ts";
import { type SubsetConfig, subsetConfig, SubsetLoadBalancer, SubsetStats } from "./subset.ts";
import { Store } from "../../stats/store.ts";

function host(port: number, metadata: JsonObject, health_status?: string): Host {
  return new Host({
    address: "127.0.0.1",
    port,
    hostname: "",
    weight: 1,
    priority: 0,
    region: "",
    zone: "",
    sub_zone: "",
    metadata,
    ...(health_status ? { health_status } : {}),
  });
}

const child = (hs: readonly Host[]) => createLoadBalancer("ROUND_ROBIN", hs, defaultLbOptions());

function config(over: Json): SubsetConfig {
  return subsetConfig(over)!;
}

function picks(lb: SubsetLoadBalancer, mm: Record<string, Json> | undefined, n = 12) {
  const out = new Set<number | null>();
  for (let i = 0; i < n; i++) out.add(lb.choose({ metadataMatch: mm })?.port ?? null);
  return out;
}

const HOSTS = () => [
  host(1, { version: "v1", stage: "prod" }),
  host(2, { version: "v1", stage: "canary" }),
  host(3, { version: "v2", stage: "prod" }),
  host(4, {}),
];

Deno.test("cluster.objects.lb-subset-config.subset-selectors: a route's criteria select the hosts with exactly those values", () => {
  const c = config({ subset_selectors: [{ keys: ["version"] }, { keys: ["version", "stage"] }] });
  const lb = new SubsetLoadBalancer(HOSTS(), c, child);
  assert.deepEqual(picks(lb, { version: "v1" }), new Set([1, 2]));
  assert.deepEqual(picks(lb, { version: "v2" }), new Set([3]));
  assert.deepEqual(picks(lb, { stage: "prod", version: "v1" }), new Set([1]));
  // Keys no selector has, values no host has, or no criteria: the fallback (NO_FALLBACK).
  assert.deepEqual(picks(lb, { stage: "prod" }), new Set([null]));
  assert.deepEqual(picks(lb, { version: "v3" }), new Set([null]));
  assert.deepEqual(picks(lb, undefined), new Set([null]));
});

Deno.test("cluster.enums.lb-subset-fallback-policy: NO_FALLBACK, ANY_ENDPOINT and DEFAULT_SUBSET behave as their rows say", () => {
  const sel = [{ keys: ["version"] }];
  const none = new SubsetLoadBalancer(HOSTS(), config({ subset_selectors: sel }), child);
  assert.deepEqual(picks(none, { version: "v9" }), new Set([null]));
  const any = new SubsetLoadBalancer(
    HOSTS(),
    config({ subset_selectors: sel, fallback_policy: "ANY_ENDPOINT" }),
    child,
  );
  assert.deepEqual(picks(any, { version: "v9" }), new Set([1, 2, 3, 4]));
  const dflt = new SubsetLoadBalancer(
    HOSTS(),
    config({
      subset_selectors: sel,
      fallback_policy: "DEFAULT_SUBSET",
      default_subset: { stage: "prod" },
    }),
    child,
  );
  assert.deepEqual(picks(dflt, { version: "v9" }), new Set([1, 3]));
  assert.deepEqual(picks(dflt, undefined), new Set([1, 3]));
  // An empty default subset is every host; one no host matches is as NO_FALLBACK.
  const emptyDefault = new SubsetLoadBalancer(
    HOSTS(),
    config({ subset_selectors: sel, fallback_policy: "DEFAULT_SUBSET" }),
    child,
  );
  assert.deepEqual(picks(emptyDefault, undefined), new Set([1, 2, 3, 4]));
  const noMatch = new SubsetLoadBalancer(
    HOSTS(),
    config({
      subset_selectors: sel,
      fallback_policy: "DEFAULT_SUBSET",
      default_subset: { stage: "none" },
    }),
    child,
  );
  assert.deepEqual(picks(noMatch, undefined), new Set([null]));
});

Deno.test("cluster.enums.lb-subset-selector-fallback-policy: a selector's own policy overrides the top-level one for its keys", () => {
  const lb = new SubsetLoadBalancer(
    HOSTS(),
    config({
      fallback_policy: "ANY_ENDPOINT",
      subset_selectors: [
        { keys: ["version"], fallback_policy: "NO_FALLBACK" },
        { keys: ["stage"], fallback_policy: "NOT_DEFINED" },
      ],
    }),
    child,
  );
  assert.deepEqual(picks(lb, { version: "v9" }), new Set([null]));
  assert.deepEqual(picks(lb, { stage: "none" }), new Set([1, 2, 3, 4]), "NOT_DEFINED: the top");
});

Deno.test("cluster.objects.lb-subset-config.panic-mode-any: a fallback that finds no host uses any host; counted", () => {
  const store = new Store();
  const s = store.scope("cluster.c.lb_subsets");
  const stats = new SubsetStats({
    active: s.gauge("active"),
    created: s.counter("created"),
    removed: s.counter("removed"),
    selected: s.counter("selected"),
    fallback: s.counter("fallback"),
    fallbackPanic: s.counter("fallback_panic"),
  });
  const c = config({ subset_selectors: [{ keys: ["version"] }], panic_mode_any: true });
  const lb = new SubsetLoadBalancer(HOSTS(), c, child, stats);
  assert.deepEqual(picks(lb, { version: "v9" }, 8), new Set([1, 2, 3, 4]));
  assert.equal(store.counter("cluster.c.lb_subsets.fallback_panic").value(), 8);
  lb.choose({ metadataMatch: { version: "v1" } });
  assert.equal(store.counter("cluster.c.lb_subsets.selected").value(), 1);
  assert.equal(store.gauge("cluster.c.lb_subsets.active").value(), 2);
  assert.equal(store.counter("cluster.c.lb_subsets.created").value(), 2);
  // A new host set without v2 hosts removes that subset.
  new SubsetLoadBalancer(HOSTS().slice(0, 2), c, child, stats);
  assert.equal(store.counter("cluster.c.lb_subsets.removed").value(), 1);
  assert.equal(store.gauge("cluster.c.lb_subsets.active").value(), 1);
});

Deno.test("cluster.objects.lb-subset-config.list-as-any: an endpoint list value matches each element, and only with list_as_any", () => {
  const hs = () => [host(1, { version: ["v1", "v2"] }), host(2, { version: "v2" })];
  const sel = [{ keys: ["version"] }];
  const on = new SubsetLoadBalancer(
    hs(),
    config({ subset_selectors: sel, list_as_any: true }),
    child,
  );
  assert.deepEqual(picks(on, { version: "v1" }), new Set([1]));
  assert.deepEqual(picks(on, { version: "v2" }), new Set([1, 2]));
  const off = new SubsetLoadBalancer(hs(), config({ subset_selectors: sel }), child);
  assert.deepEqual(picks(off, { version: "v1" }), new Set([null]));
  assert.deepEqual(picks(off, { version: ["v1", "v2"] }), new Set([1]));
});

Deno.test("cluster.objects.lb-subset-config.subset-selectors: subset selection returns only matching hosts (property)", () => {
  const value = fc.constantFrom("a", "b", "c");
  const meta = fc.record({ k1: value, k2: value }, { requiredKeys: [] });
  fc.assert(
    fc.property(
      fc.array(meta, { minLength: 1, maxLength: 12 }),
      fc.record({ k1: value, k2: value }, { requiredKeys: [] }),
      fc.constantFrom("NO_FALLBACK", "ANY_ENDPOINT"),
      (metas, mm, fallback) => {
        const hosts = metas.map((m, i) => host(i + 1, m as JsonObject));
        const c = config({
          subset_selectors: [{ keys: ["k1"] }, { keys: ["k2"] }, { keys: ["k1", "k2"] }],
          fallback_policy: fallback,
        });
        const lb = new SubsetLoadBalancer(hosts, c, child);
        const keys = Object.keys(mm);
        const matching = hosts.filter((h) =>
          keys.every((k) => h.metadata[k] === (mm as Record<string, string>)[k])
        );
        for (let i = 0; i < hosts.length + 1; i++) {
          const h = lb.choose({ metadataMatch: mm });
          if (keys.length > 0 && matching.length > 0) {
            assert.ok(h && matching.includes(h), "a host of the subset");
          } else if (fallback === "NO_FALLBACK") assert.equal(h, null);
          else assert.ok(h && hosts.includes(h), "any host");
        }
      },
    ),
  );
});
