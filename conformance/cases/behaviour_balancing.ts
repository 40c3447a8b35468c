/**
 * Behaviour cases for load balancing beyond one flat list of equal members, checked through
 * traffic to origins the suite runs: LEAST_REQUEST (`choice_count`), the ORIGINAL_DST discovery
 * type with `use_http_header`, zone-aware routing (`zone_aware_lb_config` against the local
 * cluster and `--service-zone`), locality-weighted balancing, priority failover with Envoy's
 * overprovisioning factor (1.4), and the aggregate cluster.
 *
 * Health comes from the members' `health_status` in `load_assignment` (known at load, no health
 * checker to wait for), so the outcomes are exact counts ("all 20 requests reached c") wherever
 * the rule makes them exact; where it draws at random the bounds are ones a correct target misses
 * with a probability below one in a million.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { allRules } from "../../spec/mod.ts";
 * import { balancingCases } from "./behaviour_balancing.ts";
 * const cases = balancingCases({ rules: allRules(), variant: "new" });
 * assert.ok(cases.some((c) => c.rules.includes("cluster.objects.least-request-lb-config.choice-count")));
 * ```
 * @module
 */
import { type Case, type CaseContext, CaseFailure } from "../types.ts";
import type { Origin } from "../origin.ts";
import { HttpClient } from "../http_client.ts";
import {
  hostHealth,
  httpBootstrap,
  type Obj,
  originCluster,
  type RouteSpec,
  serveBootstrap,
  spread,
  until,
} from "../served_target.ts";
import { asCases, type Behaviour, describe, origins } from "./behaviour.ts";
import { type BuildInput, expect } from "./util.ts";

/** One member of a locality: an origin, UNHEALTHY by EDS health status when `down`. */
interface Member {
  origin: Pick<Origin, "port">;
  down?: boolean;
}

/** One `LocalityLbEndpoints` entry. */
interface Group {
  zone?: string;
  priority?: number;
  weight?: number;
  members: readonly Member[];
}

/** A STATIC cluster whose `load_assignment` has the given localities and priorities. */
function groupedCluster(name: string, groups: readonly Group[], extra: Obj = {}): Obj {
  return {
    name,
    type: "STATIC",
    connect_timeout: "2s",
    load_assignment: {
      cluster_name: name,
      endpoints: groups.map((g) => ({
        ...(g.zone ? { locality: { zone: g.zone } } : {}),
        ...(g.priority ? { priority: g.priority } : {}),
        ...(g.weight ? { load_balancing_weight: g.weight } : {}),
        lb_endpoints: g.members.map((m) => ({
          endpoint: {
            address: { socket_address: { address: "127.0.0.1", port_value: m.origin.port } },
          },
          ...(m.down ? { health_status: "UNHEALTHY" } : {}),
        })),
      })),
    },
    ...extra,
  };
}

/** Serves `clusters` behind `routes`, with more command-line arguments when given. */
function serve(
  ctx: CaseContext,
  routes: readonly RouteSpec[],
  clusters: readonly Obj[],
  more: (b: Obj) => Obj = (b) => b,
  args: readonly string[] = [],
) {
  return serveBootstrap(ctx, (port) => more(httpBootstrap(port, routes, clusters)), args);
}

/** The number of answers from the named origins. */
function count(seen: Map<string, number>, ...names: string[]): number {
  return names.reduce((n, k) => n + (seen.get(k) ?? 0), 0);
}

/** Waits (briefly, in small steps) until `ok` holds; fails naming `what` after 10 s. */
async function waitFor(ctx: CaseContext, what: string, ok: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!ok()) {
    if (Date.now() > deadline || ctx.signal.aborted) {
      throw new CaseFailure(`timed out after 10000 ms waiting for ${what}`);
    }
    await new Promise((r) => setTimeout(r, 2));
  }
}

/**
 * Sends one request and returns who took it: the origin that answered, or `busy`'s name when
 * `busy` (an origin holding its requests) received it. Held requests go to `held`.
 */
async function sendOne(
  ctx: CaseContext,
  traffic: HttpClient,
  busy: Origin,
  held: Promise<unknown>[],
): Promise<string> {
  const before = busy.requests;
  let answer: string | null = null;
  const p = traffic.request("GET", "/").then(
    (r) => answer = r.status === 200 ? r.headers.get("x-origin") ?? "?" : `status ${r.status}`,
    (e) => answer = `error ${(e as Error).message}`,
  );
  await waitFor(ctx, "the request to be answered or held", () => {
    return answer !== null || busy.requests > before;
  });
  if (answer !== null) return answer;
  held.push(p);
  return busy.name;
}

const BALANCING: readonly Behaviour[] = [
  {
    id: "least-request-avoids-busy",
    title:
      "LEAST_REQUEST with choice_count 5: once a member holds a request, new requests go to the idle members (a busy member wins only when all 5 draws hit it)",
    rules: [
      "cluster.fields.least-request-lb-config",
      "cluster.objects.least-request-lb-config.choice-count",
      "cluster.enums.lb-policy",
    ],
    async run(ctx) {
      const os = origins(ctx, 5);
      const a = os[0];
      a.mode = { hang: true };
      const { port } = await serve(ctx, [{ prefix: "/", cluster: "lr" }], [
        originCluster("lr", os, {
          lb_policy: "LEAST_REQUEST",
          least_request_lb_config: { choice_count: 5 },
        }),
      ]);
      // A held request must outlive the whole case: one that timed out would free a.
      const traffic = new HttpClient(`http://127.0.0.1:${port}`, 120_000);
      traffic.signal = ctx.signal;
      traffic.log = ctx.command.log;
      const held: Promise<unknown>[] = [];
      try {
        // While every member is idle each is as likely as the others: a gets one soon.
        for (let i = 0; i < 200 && a.requests === 0; i++) {
          await sendOne(ctx, traffic, a, held);
        }
        expect(a.requests === 1, `200 requests over 5 idle members never reached a`);
        const seen = new Map<string, number>();
        for (let i = 0; i < 50; i++) {
          const who = await sendOne(ctx, traffic, a, held);
          seen.set(who, (seen.get(who) ?? 0) + 1);
        }
        expect(
          count(seen, "a", "b", "c", "d", "e") === 50,
          `not every request was taken by a member: ${describe(seen)}`,
        );
        // Round robin or a random pick would give a about 10 of 50.
        expect(
          count(seen, "a") <= 5,
          `with a holding a request, 50 more requests went ${describe(seen)}`,
        );
      } finally {
        a.release();
        await Promise.all(held);
      }
    },
  },
  {
    id: "original-dst-header",
    title:
      "ORIGINAL_DST with use_http_header: the request's x-proxy-original-dst-host names the origin it reaches; the host appears in /clusters and goes after cleanup_interval unused",
    rules: [
      "cluster.enums.discovery-type",
      "cluster.fields.original-dst-lb-config",
      "cluster.objects.original-dst-lb-config.use-http-header",
      "cluster.fields.cleanup-interval",
    ],
    async run(ctx) {
      const os = origins(ctx, 2);
      const header = `x-${ctx.profile.word}-original-dst-host`;
      const { admin, traffic } = await serve(ctx, [{ prefix: "/", cluster: "od" }], [{
        name: "od",
        type: "ORIGINAL_DST",
        lb_policy: "CLUSTER_PROVIDED",
        connect_timeout: "2s",
        cleanup_interval: "1s",
        original_dst_lb_config: { use_http_header: true },
      }]);
      for (const o of [os[1], os[0], os[1]]) {
        const seen = await spread(traffic, "/", 5, { [header]: o.address });
        expect(
          seen.get(o.name) === 5,
          `5 requests with ${header}: ${o.address} gave ${describe(seen)}`,
        );
      }
      const hosts = await hostHealth(admin, "od");
      expect(
        hosts.has(os[0].address) && hosts.has(os[1].address),
        `/clusters lists ${[...hosts.keys()].join(", ") || "no host"} for od`,
      );
      await until(
        ctx,
        "the unused original-destination hosts to be removed",
        async () => (await hostHealth(admin, "od")).size === 0,
      );
    },
  },
  {
    id: "zone-aware-routing",
    title:
      "zone_aware_lb_config: with the local cluster as spread over zones as the upstream, every request stays in the proxy's zone (--service-zone); below min_cluster_size or with routing_enabled 0 every zone gets traffic; with no healthy local-zone member the other zone serves",
    rules: [
      "cluster.objects.common-lb-config.zone-aware-lb-config",
      "cluster.objects.common-lb-config.zone-aware-lb-config.min-cluster-size",
      "cluster.objects.common-lb-config.zone-aware-lb-config.routing-enabled",
      "cli.options.service-zone",
    ],
    async run(ctx) {
      const os = origins(ctx, 4);
      const [a, b, c, d] = os;
      const zoned = (name: string, za: Obj, down = false) =>
        groupedCluster(name, [
          { zone: "z1", members: [{ origin: a, down }, { origin: b, down }] },
          { zone: "z2", members: [{ origin: c }, { origin: d }] },
        ], { common_lb_config: { zone_aware_lb_config: za } });
      const { traffic } = await serve(
        ctx,
        [
          { prefix: "/small", cluster: "small" },
          { prefix: "/off", cluster: "off" },
          { prefix: "/down", cluster: "down" },
          { prefix: "/", cluster: "zoned" },
        ],
        [
          zoned("zoned", { min_cluster_size: 2, routing_enabled: { value: 100 } }),
          zoned("small", { min_cluster_size: 5 }),
          zoned("off", { min_cluster_size: 2, routing_enabled: { value: 0 } }),
          zoned("down", { min_cluster_size: 2 }, true),
          groupedCluster("local", [
            { zone: "z1", members: [{ origin: a }] },
            { zone: "z2", members: [{ origin: c }] },
          ]),
        ],
        (bs) => ({ ...bs, cluster_manager: { local_cluster_name: "local" } }),
        ["--service-zone", "z1"],
      );
      const local = await spread(traffic, "/", 20);
      expect(
        count(local, "a", "b") === 20 && count(local, "a") > 0 && count(local, "b") > 0,
        `zone-aware routing from z1 (upstream and local cluster both half in z1) gave ${
          describe(local)
        }`,
      );
      for (const path of ["/small", "/off"]) {
        const seen = await spread(traffic, path, 20);
        expect(
          count(seen, "a", "b", "c", "d") === 20 && count(seen, "c", "d") > 0 &&
            count(seen, "a", "b") > 0,
          `without zone-aware routing (${path}) 20 requests gave ${describe(seen)}`,
        );
      }
      const down = await spread(traffic, "/down", 20);
      expect(
        count(down, "c", "d") === 20,
        `with both z1 members unhealthy 20 requests gave ${describe(down)}`,
      );
    },
  },
  {
    id: "locality-weighted",
    title:
      "locality_weighted_lb_config: localities share requests by their load_balancing_weight (1 for three members, 3 for one), not by member count; without it the weights are not used",
    rules: [
      "cluster.objects.common-lb-config.locality-weighted-lb-config",
      "cluster.fields.common-lb-config",
      "cluster.objects.endpoint.locality-lb-endpoints.load-balancing-weight",
    ],
    async run(ctx) {
      const os = origins(ctx, 4);
      const [a, b, c, d] = os;
      const weighted = (name: string, extra: Obj) =>
        groupedCluster(name, [
          { zone: "z1", weight: 1, members: [{ origin: a }, { origin: b }, { origin: c }] },
          { zone: "z2", weight: 3, members: [{ origin: d }] },
        ], extra);
      const { traffic } = await serve(
        ctx,
        [{ prefix: "/plain", cluster: "plain" }, { prefix: "/", cluster: "lw" }],
        [
          weighted("lw", { common_lb_config: { locality_weighted_lb_config: {} } }),
          weighted("plain", {}),
        ],
      );
      const seen = await spread(traffic, "/", 40);
      expect(
        count(seen, "a", "b", "c", "d") === 40 && count(seen, "d") >= 25 &&
          count(seen, "d") <= 35,
        `locality weights 1 (a, b, c) and 3 (d) over 40 requests gave ${describe(seen)}`,
      );
      const plain = await spread(traffic, "/plain", 40);
      expect(
        count(plain, "d") <= 15,
        `without locality_weighted_lb_config 40 requests gave ${describe(plain)}`,
      );
    },
  },
  {
    id: "priority-failover",
    title:
      "priorities: priority 1 gets nothing while priority 0 is healthy (3 of 4 healthy is 105% with the 1.4 overprovisioning factor), part of the traffic with 1 of 2 healthy (70%), and all of it with none",
    rules: [
      "cluster.fields.load-assignment",
      "cluster.objects.endpoint.locality-lb-endpoints.priority",
      "cluster.objects.endpoint.lb-endpoint.health-status",
    ],
    async run(ctx) {
      const os = origins(ctx, 5);
      const [a, b, c, d, e] = os;
      const spare = { priority: 1, members: [{ origin: e }] };
      const { traffic } = await serve(
        ctx,
        [
          { prefix: "/half", cluster: "half" },
          { prefix: "/none", cluster: "none" },
          { prefix: "/", cluster: "most" },
        ],
        [
          groupedCluster("most", [{
            members: [{ origin: a }, { origin: b }, { origin: c }, { origin: d, down: true }],
          }, spare]),
          groupedCluster("half", [{ members: [{ origin: a }, { origin: b, down: true }] }, spare]),
          groupedCluster("none", [{
            members: [{ origin: a, down: true }, { origin: b, down: true }],
          }, spare]),
        ],
      );
      const most = await spread(traffic, "/", 20);
      expect(
        count(most, "a", "b", "c") === 20,
        `priority 0 with 3 of 4 healthy: 20 requests gave ${describe(most)}`,
      );
      // Priority 0 takes 70%: e's count over 200 has mean 60 and deviation 6.5.
      const half = await spread(traffic, "/half", 200);
      expect(
        count(half, "a", "e") === 200 && count(half, "e") >= 20 && count(half, "e") <= 100,
        `priority 0 with 1 of 2 healthy: 200 requests gave ${describe(half)}`,
      );
      const none = await spread(traffic, "/none", 20);
      expect(
        count(none, "e") === 20,
        `priority 0 with no healthy member: 20 requests gave ${describe(none)}`,
      );
    },
  },
  {
    id: "aggregate-cluster",
    title:
      "an aggregate cluster (cluster_type proxy.clusters.aggregate, CLUSTER_PROVIDED) sends every request to the first cluster of its list while it is healthy, and to the next one when it is not",
    rules: [
      "cluster.fields.cluster-type",
      "cluster.objects.custom-cluster-type.name",
      "cluster.enums.lb-policy",
    ],
    async run(ctx) {
      const os = origins(ctx, 3);
      const [a, b, c] = os;
      const aggregate = (name: string, clusters: string[]): Obj => ({
        name,
        connect_timeout: "2s",
        lb_policy: "CLUSTER_PROVIDED",
        cluster_type: {
          name: ctx.profile.name("proxy.clusters.aggregate"),
          typed_config: {
            "@type": "type.googleapis.com/envoy.extensions.clusters.aggregate.v3.ClusterConfig",
            clusters,
          },
        },
      });
      const { traffic } = await serve(
        ctx,
        [{ prefix: "/failover", cluster: "agg-down" }, { prefix: "/", cluster: "agg" }],
        [
          groupedCluster("primary", [{ members: [{ origin: a }] }]),
          groupedCluster("broken", [{ members: [{ origin: b, down: true }] }]),
          groupedCluster("secondary", [{ members: [{ origin: c }] }]),
          aggregate("agg", ["primary", "secondary"]),
          aggregate("agg-down", ["broken", "secondary"]),
        ],
      );
      const first = await spread(traffic, "/", 20);
      expect(
        first.get("a") === 20,
        `the aggregate over a healthy first cluster gave ${describe(first)}`,
      );
      const next = await spread(traffic, "/failover", 20);
      expect(
        next.get("c") === 20,
        `the aggregate over an unhealthy first cluster gave ${describe(next)}`,
      );
    },
  },
];

/**
 * Builds the load-balancing behaviour cases whose rules exist in this run.
 *
 * @param input the rules and variant
 * @returns one `command` case per behaviour
 */
export function balancingCases(input: BuildInput): Case[] {
  return asCases(BALANCING, input).map((c) => ({ ...c, id: `behaviour:${c.id}` }));
}
