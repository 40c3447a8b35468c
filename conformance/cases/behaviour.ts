/**
 * Behaviour cases: Cluster settings and server actions checked through traffic, not only through
 * acceptance. Each case starts the `--command` binary on a bootstrap of its own
 * (`served_target.ts`) in front of origins the suite runs (`origin.ts`), sends requests through the listener and reads `/clusters`
 * and `/stats`. A target that accepts a setting and ignores it fails here; one that refuses it at
 * load gets NOT_APPLICABLE with its message.
 *
 * Counts are exact where the rule makes them exact (round robin over equal weights, a hash that
 * sticks, a breaker that overflows), and bounded where randomness is allowed (a weighted or random
 * balancer: bounds that a correct target misses with a probability below one in a million).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { allRules } from "../../spec/mod.ts";
 * import { behaviourCases } from "./behaviour.ts";
 * const cases = behaviourCases({ rules: allRules(), variant: "new" });
 * assert.ok(cases.some((c) => c.rules.includes("cluster.fields.health-checks")));
 * ```
 * @module
 */
import type { Case, CaseContext } from "../types.ts";
import { type Origin, type OriginMode, startOrigin } from "../origin.ts";
import {
  accepts,
  hostHealth,
  httpBootstrap,
  type Obj,
  originCluster,
  rawHead,
  type RouteSpec,
  serveBootstrap,
  type Served,
  spread,
  statValue,
  until,
} from "../served_target.ts";
import { type BuildInput, existing, expect } from "./util.ts";

/** What a behaviour case declares: its rules and what it does with a started target. */
export interface Behaviour {
  id: string;
  title: string;
  rules: readonly string[];
  run(ctx: CaseContext): Promise<void>;
}

/** Starts `n` origins named a, b, c, ... and closes them when the case ends. */
export function origins(ctx: CaseContext, n: number, mode?: OriginMode): Origin[] {
  const list = Array.from({ length: n }, (_, i) => startOrigin(String.fromCharCode(97 + i), mode));
  ctx.onUndo(async () => {
    await Promise.all(list.map((o) => o.close()));
  });
  return list;
}

/** Serves one cluster `c` behind the route `/` (hashing on `x-user` when asked). */
export function serveCluster(ctx: CaseContext, cluster: Obj, hash = false): Promise<Served> {
  const route: RouteSpec = {
    prefix: "/",
    cluster: String(cluster.name),
    ...(hash ? { hashHeader: "x-user" } : {}),
  };
  return serveBootstrap(ctx, (port) => httpBootstrap(port, [route], [cluster]));
}

/**
 * Waits until a batch of requests satisfies `ok`: a health change reaches the balancers within
 * the cluster's `update_merge_window` (1 s by default), not necessarily at once.
 */
function settle(
  ctx: CaseContext,
  traffic: Served["traffic"],
  what: string,
  ok: (seen: Map<string, number>) => boolean,
): Promise<void> {
  return until(ctx, what, async () => ok(await spread(traffic, "/", 6)));
}

/** The answers per origin, as one line for a failure message. */
export function describe(seen: Map<string, number>): string {
  return JSON.stringify(Object.fromEntries([...seen].sort()));
}

/** Fast health checking as the cases use it (also without traffic: `no_traffic_interval`). */
const HEALTH_CHECK = {
  timeout: "1s",
  interval: "0.2s",
  no_traffic_interval: "0.2s",
  unhealthy_threshold: 1,
  healthy_threshold: 1,
  http_health_check: { path: "/healthz" },
};

/** Outlier detection that ejects a host after three 5xx answers in a row, for a minute. */
const EJECT_AFTER_3 = {
  consecutive_5xx: 3,
  base_ejection_time: "60s",
  max_ejection_percent: 100,
};

/**
 * Serves cluster `name` over origins a (answering 200) and b (answering 503) with
 * {@linkcode EJECT_AFTER_3} and `extra`, and sends traffic until b shows `/failed_outlier_check`.
 */
async function ejectB(ctx: CaseContext, name: string, extra: Obj = {}) {
  const os = origins(ctx, 2);
  os[1].mode = { status: 503 };
  const served = await serveCluster(
    ctx,
    originCluster(name, os, { outlier_detection: EJECT_AFTER_3, ...extra }),
  );
  const b = os[1].address;
  await until(ctx, `${b} to be ejected`, async () => {
    await spread(served.traffic, "/", 2);
    return (await hostHealth(served.admin, name)).get(b)?.includes("/failed_outlier_check") ??
      false;
  });
  return { os, b, ...served };
}

const BEHAVIOURS: readonly Behaviour[] = [
  {
    id: "round-robin-default",
    title: "without lb_policy, requests go round robin: equal counts over equal members",
    rules: ["cluster.fields.lb-policy", "cluster.enums.lb-policy"],
    async run(ctx) {
      const os = origins(ctx, 3);
      const { traffic } = await serveCluster(ctx, originCluster("rr", os));
      const seen = await spread(traffic, "/", 30);
      for (const o of os) {
        const n = seen.get(o.name) ?? 0;
        expect(
          n >= 9 && n <= 11,
          `round robin over 3 members for 30 requests gave ${describe(seen)}`,
        );
      }
    },
  },
  {
    id: "weighted-round-robin",
    title: "load_balancing_weight 1 and 3 share traffic about 1:3",
    rules: ["cluster.objects.endpoint.lb-endpoint.load-balancing-weight"],
    async run(ctx) {
      const os = origins(ctx, 2);
      const { traffic } = await serveCluster(
        ctx,
        originCluster("weighted", os, { lb_policy: "ROUND_ROBIN" }, [1, 3]),
      );
      const seen = await spread(traffic, "/", 40);
      const a = seen.get("a") ?? 0;
      const b = seen.get("b") ?? 0;
      expect(a + b === 40, `not every request was answered: ${describe(seen)}`);
      expect(a >= 5 && a <= 15 && b >= 25, `weights 1:3 over 40 requests gave ${describe(seen)}`);
    },
  },
  {
    id: "random",
    title: "RANDOM reaches every member",
    rules: ["cluster.enums.lb-policy"],
    async run(ctx) {
      const os = origins(ctx, 3);
      const { traffic } = await serveCluster(
        ctx,
        originCluster("random", os, { lb_policy: "RANDOM" }),
      );
      const seen = await spread(traffic, "/", 60);
      for (const o of os) {
        expect(
          (seen.get(o.name) ?? 0) > 0,
          `RANDOM over 3 members for 60 requests gave ${describe(seen)}`,
        );
      }
    },
  },
  ...["RING_HASH", "MAGLEV"].map((policy): Behaviour => ({
    id: `${policy.toLowerCase()}-sticks`,
    title: `${policy}: one hash key always reaches one member, and keys spread over members`,
    rules: ["cluster.enums.lb-policy"],
    async run(ctx) {
      const os = origins(ctx, 3);
      const { traffic } = await serveCluster(
        ctx,
        originCluster(policy.toLowerCase(), os, { lb_policy: policy }),
        true,
      );
      const used = new Set<string>();
      for (let user = 0; user < 12; user++) {
        const seen = await spread(traffic, "/", 4, { "x-user": `user-${user}` });
        expect(seen.size === 1, `${policy}: key user-${user} reached ${describe(seen)}`);
        used.add([...seen.keys()][0]);
      }
      expect(used.size > 1, `${policy}: 12 keys all reached ${[...used].join(", ")}`);
    },
  })),
  {
    id: "health-check-ejects",
    title: "an active health check failure marks the host /failed_active_hc and traffic avoids it",
    rules: [
      "cluster.fields.health-checks",
      "admin.resources.health.failed_active_hc",
      "admin.resources.host-stat.healthy",
    ],
    async run(ctx) {
      const os = origins(ctx, 3);
      os[2].healthStatus = 503;
      const { admin, traffic } = await serveCluster(
        ctx,
        originCluster("hc", os, { health_checks: [HEALTH_CHECK] }),
      );
      const c = os[2].address;
      await until(
        ctx,
        `${c} to show /failed_active_hc`,
        async () => (await hostHealth(admin, "hc")).get(c)?.includes("/failed_active_hc") ?? false,
      );
      const health = await hostHealth(admin, "hc");
      for (const o of os.slice(0, 2)) {
        expect(health.get(o.address) === "healthy", `${o.address} is ${health.get(o.address)}`);
      }
      await settle(ctx, traffic, "traffic to leave c", (seen) => !seen.has("c"));
      const seen = await spread(traffic, "/", 20);
      expect(
        !seen.has("c") && (seen.get("a") ?? 0) + (seen.get("b") ?? 0) === 20,
        `traffic with c failing health checks: ${describe(seen)}`,
      );
      os[2].healthStatus = 200;
      await until(
        ctx,
        `${c} to become healthy again`,
        async () => (await hostHealth(admin, "hc")).get(c) === "healthy",
      );
      await settle(ctx, traffic, "c, healthy again, to get traffic", (seen) => seen.has("c"));
    },
  },
  {
    id: "no-health-checks-all-healthy",
    title: "without health_checks every member is healthy and used, whatever it answers",
    rules: ["cluster.fields.health-checks"],
    async run(ctx) {
      const os = origins(ctx, 2);
      os[1].mode = { status: 503 };
      os[1].healthStatus = 503;
      const { admin, traffic } = await serveCluster(ctx, originCluster("nohc", os));
      const seen = await spread(traffic, "/", 10);
      expect((seen.get("status 503") ?? 0) > 0, `the 503 member got no traffic: ${describe(seen)}`);
      const health = await hostHealth(admin, "nohc");
      for (const o of os) {
        expect(health.get(o.address) === "healthy", `${o.address} is ${health.get(o.address)}`);
      }
      expect(os.every((o) => o.healthChecks === 0), "a member was health-checked");
    },
  },
  {
    id: "panic-threshold-default",
    title: "below the default 50% healthy, the balancer panics and uses every member",
    rules: ["cluster.objects.common-lb-config.healthy-panic-threshold"],
    async run(ctx) {
      const os = origins(ctx, 3);
      os[1].healthStatus = 503;
      os[2].healthStatus = 503;
      const { admin, traffic } = await serveCluster(
        ctx,
        originCluster("panic", os, { health_checks: [HEALTH_CHECK] }),
      );
      await until(ctx, "b and c to fail health checks", async () => {
        const h = await hostHealth(admin, "panic");
        return os.slice(1).every((o) => h.get(o.address)?.includes("/failed_active_hc"));
      });
      await until(ctx, "the balancer to count a panic", async () => {
        await spread(traffic, "/", 6);
        return await statValue(admin, "cluster.panic.lb_healthy_panic") > 0;
      });
      const seen = await spread(traffic, "/", 30);
      expect(
        (seen.get("b") ?? 0) > 0 && (seen.get("c") ?? 0) > 0,
        `with 1 of 3 members healthy (33% < 50%) traffic was ${describe(seen)}`,
      );
      const panics = await statValue(admin, "cluster.panic.lb_healthy_panic");
      expect(panics > 0, `cluster.panic.lb_healthy_panic is ${panics}`);
    },
  },
  {
    id: "panic-threshold-set",
    title: "healthy_panic_threshold 0 turns panic off: only healthy members get traffic",
    rules: [
      "cluster.objects.common-lb-config.healthy-panic-threshold",
      "cluster.fields.common-lb-config",
    ],
    async run(ctx) {
      const os = origins(ctx, 3);
      os[1].healthStatus = 503;
      os[2].healthStatus = 503;
      const { admin, traffic } = await serveCluster(
        ctx,
        originCluster("nopanic", os, {
          health_checks: [HEALTH_CHECK],
          common_lb_config: { healthy_panic_threshold: { value: 0 } },
        }),
      );
      await until(ctx, "b and c to fail health checks", async () => {
        const h = await hostHealth(admin, "nopanic");
        return os.slice(1).every((o) => h.get(o.address)?.includes("/failed_active_hc"));
      });
      await settle(ctx, traffic, "traffic to reach only a", (seen) => seen.get("a") === 6);
      const seen = await spread(traffic, "/", 20);
      expect(seen.get("a") === 20, `with panic off traffic was ${describe(seen)}`);
    },
  },
  {
    id: "outlier-ejects",
    title: "consecutive 5xx eject a host (/failed_outlier_check) and traffic avoids it",
    rules: ["cluster.fields.outlier-detection", "admin.resources.health.failed_outlier_check"],
    async run(ctx) {
      const { os, traffic } = await ejectB(ctx, "od");
      await settle(ctx, traffic, "traffic to reach only a", (seen) => seen.get("a") === 6);
      const before = os[1].requests;
      const seen = await spread(traffic, "/", 20);
      expect(
        seen.get("a") === 20 && os[1].requests === before,
        `after ejection traffic was ${describe(seen)}`,
      );
    },
  },
  {
    id: "health-flags-concatenate",
    title: "a host failing both outlier detection and health checks shows both flags",
    rules: ["admin.resources.health.concatenated"],
    async run(ctx) {
      // A passing check would return the ejected host (successful_active_health_check_uneject_host,
      // true by default) if one answered between the ejection and the origin's turn to 503.
      const { os, b, admin } = await ejectB(ctx, "both", {
        health_checks: [HEALTH_CHECK],
        outlier_detection: { ...EJECT_AFTER_3, successful_active_health_check_uneject_host: false },
      });
      os[1].healthStatus = 503;
      await until(ctx, `${b} to show two flags`, async () => {
        const h = (await hostHealth(admin, "both")).get(b) ?? "";
        return h.includes("/failed_outlier_check") && h.includes("/failed_active_hc");
      });
      const h = (await hostHealth(admin, "both")).get(b) ?? "";
      expect(/^(\/failed_[a-z_]+){2,}$/.test(h), `${b} health string is ${h}`);
    },
  },
  {
    id: "circuit-breaker-overflow",
    title: "over max_pending_requests a request is answered 503 at once and counted",
    rules: ["cluster.fields.circuit-breakers"],
    async run(ctx) {
      const os = origins(ctx, 1, { hang: true });
      const { admin, traffic } = await serveCluster(
        ctx,
        originCluster("cb", os, {
          circuit_breakers: {
            thresholds: [{ max_connections: 1, max_pending_requests: 1 }],
          },
        }),
      );
      const first = traffic.request("GET", "/");
      first.catch(() => {}); // awaited below; handled here in case the case ends first
      await until(
        ctx,
        "the origin to hold the first request",
        () => Promise.resolve(os[0].requests === 1),
      );
      const second = traffic.request("GET", "/");
      second.catch(() => {});
      await until(
        ctx,
        "the second request to be pending",
        async () => await statValue(admin, "cluster.cb.upstream_rq_pending_active") >= 1,
      );
      const third = await traffic.request("GET", "/");
      expect(third.status === 503, `the request over the limit got ${third.status}`);
      const overflow = await statValue(admin, "cluster.cb.upstream_rq_pending_overflow");
      expect(overflow >= 1, `cluster.cb.upstream_rq_pending_overflow is ${overflow}`);
      os[0].release();
      const [r1, r2] = await Promise.all([first, second]);
      expect(
        r1.status === 200 && r2.status === 200,
        `held requests ended ${r1.status}, ${r2.status}`,
      );
    },
  },
  {
    id: "max-requests-per-connection",
    title: "max_requests_per_connection 1 opens one upstream connection per request; unset reuses",
    rules: ["cluster.fields.max-requests-per-connection"],
    async run(ctx) {
      const os = origins(ctx, 2);
      const { admin, traffic } = await serveBootstrap(
        ctx,
        (port) =>
          httpBootstrap(port, [{ prefix: "/one", cluster: "one" }, {
            prefix: "/",
            cluster: "many",
          }], [
            originCluster("one", [os[0]], { max_requests_per_connection: 1 }),
            originCluster("many", [os[1]]),
          ]),
      );
      await spread(traffic, "/one", 5);
      await spread(traffic, "/", 5);
      expect(
        os[0].connections === 5,
        `5 requests with a limit of 1 used ${os[0].connections} connections`,
      );
      expect(
        os[1].connections === 1,
        `5 requests without a limit used ${os[1].connections} connections`,
      );
      const total = await statValue(admin, "cluster.one.upstream_cx_total");
      expect(total === 5, `cluster.one.upstream_cx_total is ${total}`);
    },
  },
  {
    id: "eds-unhealthy",
    title: "a member EDS marks UNHEALTHY shows /failed_eds_health and gets no traffic",
    rules: ["admin.resources.health.failed_eds_health", "cluster.fields.eds-cluster-config"],
    async run(ctx) {
      const os = origins(ctx, 2);
      const dir = await ctx.tempDir();
      const eds = `${dir}/eds.json`;
      await Deno.writeTextFile(
        eds,
        JSON.stringify({
          version_info: "1",
          resources: [{
            "@type": "type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment",
            cluster_name: "eds",
            endpoints: [{
              lb_endpoints: os.map((o, i) => ({
                endpoint: {
                  address: { socket_address: { address: "127.0.0.1", port_value: o.port } },
                },
                health_status: i === 1 ? "UNHEALTHY" : "HEALTHY",
              })),
            }],
          }],
        }),
      );
      const { admin, traffic } = await serveCluster(ctx, {
        name: "eds",
        type: "EDS",
        connect_timeout: "2s",
        eds_cluster_config: {
          eds_config: { path_config_source: { path: eds }, resource_api_version: "V3" },
        },
      });
      await until(
        ctx,
        "EDS hosts to load",
        async () => (await hostHealth(admin, "eds")).size === 2,
      );
      const h = await hostHealth(admin, "eds");
      expect(
        h.get(os[1].address) === "/failed_eds_health",
        `${os[1].address} is ${h.get(os[1].address)}`,
      );
      const seen = await spread(traffic, "/", 10);
      expect(seen.get("a") === 10, `traffic with b unhealthy by EDS: ${describe(seen)}`);
    },
  },
  {
    id: "drain-listeners",
    title: "POST /drain_listeners stops the listener; the admin interface goes on answering",
    rules: ["admin.endpoints.drain_listeners", "admin.states.drain-listeners"],
    async run(ctx) {
      const os = origins(ctx, 1);
      const { admin, traffic, port } = await serveCluster(ctx, originCluster("drain", os));
      const before = await traffic.request("GET", "/");
      expect(before.status === 200, `before the drain the listener answered ${before.status}`);
      const r = await admin.request("POST", "/drain_listeners");
      expect(r.status === 200, `POST /drain_listeners answered ${r.status}`);
      await until(ctx, "the listener to stop accepting", async () => !(await accepts(port)));
      const ready = await admin.request("GET", "/ready");
      expect(ready.status === 200, `after the drain GET /ready answered ${ready.status}`);
    },
  },
  {
    id: "drain-graceful",
    title:
      "POST /drain_listeners?graceful with --drain-strategy immediate: responses close their connections, then the listener stops after --drain-time-s",
    rules: [
      "admin.endpoints.drain_listeners-graceful",
      "cli.options.drain-strategy",
      "cli.options.drain-time-s",
    ],
    async run(ctx) {
      const os = origins(ctx, 1);
      const { admin, port } = await serveBootstrap(
        ctx,
        (p) =>
          httpBootstrap(p, [{ prefix: "/", cluster: "graceful" }], [originCluster("graceful", os)]),
        ["--drain-strategy", "immediate", "--drain-time-s", "2"],
      );
      const before = await rawHead(port);
      expect(before !== null && /^HTTP\/1\.1 200/.test(before), `before the drain: ${before}`);
      expect(
        !/^connection:\s*close/im.test(before),
        `before the drain the answer closed: ${before}`,
      );
      const r = await admin.request("POST", "/drain_listeners?graceful");
      expect(r.status === 200, `POST /drain_listeners?graceful answered ${r.status}`);
      const during = await rawHead(port);
      expect(
        during !== null && /^HTTP\/1\.1 200/.test(during) && /^connection:\s*close/im.test(during),
        `during an immediate graceful drain the answer was: ${during}`,
      );
      await until(
        ctx,
        "the listener to stop after the drain time",
        async () => !(await accepts(port)),
      );
    },
  },
];

/**
 * Builds the behaviour cases whose rules exist in this run.
 *
 * @param input the rules and variant
 * @returns one `command` case per behaviour
 */
export function behaviourCases(input: BuildInput): Case[] {
  return asCases(BEHAVIOURS, input).map((c) => ({ ...c, id: `behaviour:${c.id}` }));
}

/**
 * Turns behaviours into `command` cases that serve traffic, keeping those whose rules exist. Each
 * case keeps its behaviour's ID: the builder that lists the behaviours prefixes it
 * (`behaviour:<id>`), so that the case is credited to the file that defines it.
 *
 * @param list the behaviours
 * @param input the rules and variant
 * @returns the cases
 */
export function asCases(list: readonly Behaviour[], input: BuildInput): Case[] {
  return list.map((b): Case => ({
    id: b.id,
    title: b.title,
    rules: existing(input.rules, ...b.rules),
    target: "command",
    phase: "read",
    serves: true,
    run: b.run,
  })).filter((c) => c.rules.length > 0);
}
