/**
 * Behaviour cases for defaults: a Cluster that leaves a field unset behaves as the field's
 * default says, seen through traffic and through the effective values `/clusters` prints (the
 * circuit-breaker limits and each host's weight). A "defaults" acceptance case shows only that a
 * configuration without the field loads; these show the default is in effect.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { allRules } from "../../spec/mod.ts";
 * import { defaultCases } from "./behaviour_defaults.ts";
 * const cases = defaultCases({ rules: allRules(), variant: "new" });
 * assert.ok(cases.some((c) => c.rules.includes("cluster.fields.type")));
 * ```
 * @module
 */
import type { Case } from "../types.ts";
import { hostHealth, hostStat, originCluster, spread, statValue, until } from "../served_target.ts";
import { asCases, type Behaviour, describe, origins, serveCluster } from "./behaviour.ts";
import { type BuildInput, expect } from "./util.ts";

/** The limits a cluster without `circuit_breakers` has, as `/clusters` prints them. */
const BREAKER_DEFAULTS = {
  max_connections: 1024,
  max_pending_requests: 1024,
  max_requests: 1024,
  max_retries: 3,
};

const DEFAULTS: readonly Behaviour[] = [
  {
    id: "member-defaults",
    title:
      "a cluster without type and members without load_balancing_weight: STATIC members from load_assignment, each of weight 1, sharing traffic equally",
    rules: [
      "cluster.fields.type",
      "cluster.objects.endpoint.lb-endpoint.load-balancing-weight",
      "admin.resources.host-stat.weight",
    ],
    async run(ctx) {
      const os = origins(ctx, 2);
      const cluster = originCluster("plain", os);
      delete cluster.type;
      const { admin, traffic } = await serveCluster(ctx, cluster);
      for (const o of os) {
        const w = await hostStat(admin, "plain", o.address, "weight");
        expect(w === 1, `/clusters shows plain::${o.address}::weight::${w}`);
      }
      const seen = await spread(traffic, "/", 20);
      expect(
        seen.get("a") === 10 && seen.get("b") === 10,
        `two members of weight 1 over 20 requests gave ${describe(seen)}`,
      );
    },
  },
  {
    id: "circuit-breaker-defaults",
    title:
      "a cluster without circuit_breakers has the limits 1024 connections, 1024 pending, 1024 requests and 3 retries; configured limits replace them",
    rules: ["cluster.fields.circuit-breakers", "admin.general.thresholds-fields"],
    async run(ctx) {
      const os = origins(ctx, 1);
      const { admin } = await serveCluster(ctx, originCluster("unset", os));
      const text = (await admin.request("GET", "/clusters")).body;
      for (const [field, value] of Object.entries(BREAKER_DEFAULTS)) {
        const line = `unset::default_priority::${field}::${value}`;
        expect(text.split("\n").includes(line), `/clusters lacks ${line}:\n${text}`);
      }
    },
  },
  {
    id: "circuit-breaker-set-shown",
    title: "configured circuit-breaker limits are the ones /clusters prints",
    rules: ["cluster.fields.circuit-breakers"],
    async run(ctx) {
      const os = origins(ctx, 1);
      const set = { max_connections: 7, max_pending_requests: 8, max_requests: 9, max_retries: 2 };
      const { admin } = await serveCluster(
        ctx,
        originCluster("set", os, { circuit_breakers: { thresholds: [set] } }),
      );
      const text = (await admin.request("GET", "/clusters")).body;
      for (const [field, value] of Object.entries(set)) {
        const line = `set::default_priority::${field}::${value}`;
        expect(text.split("\n").includes(line), `/clusters lacks ${line}:\n${text}`);
      }
    },
  },
  {
    id: "outlier-detection-defaults",
    title:
      "outlier_detection without consecutive_5xx ejects a host after 5 consecutive 5xx answers (its default), not after 4",
    rules: ["cluster.fields.outlier-detection", "admin.resources.health.failed_outlier_check"],
    async run(ctx) {
      const os = origins(ctx, 1, { status: 503 });
      const { admin, traffic } = await serveCluster(
        ctx,
        // max_ejection_percent is set so that the one member may be ejected: Envoy releases differ
        // on whether the default 10% lets a cluster of one eject its only host.
        originCluster("oddefault", os, { outlier_detection: { max_ejection_percent: 100 } }),
      );
      const b = os[0].address;
      const seen = await spread(traffic, "/", 4);
      expect(seen.get("status 503") === 4, `4 requests to the failing member: ${describe(seen)}`);
      const after4 = (await hostHealth(admin, "oddefault")).get(b);
      expect(after4 === "healthy", `after 4 consecutive 5xx ${b} is ${after4}`);
      const ejections = await statValue(
        admin,
        "cluster.oddefault.outlier_detection.ejections_total",
      );
      expect(ejections === 0, `after 4 consecutive 5xx ejections_total is ${ejections}`);
      await spread(traffic, "/", 1);
      await until(
        ctx,
        `${b} to be ejected after its fifth consecutive 5xx`,
        async () =>
          (await hostHealth(admin, "oddefault")).get(b)?.includes("/failed_outlier_check") ?? false,
      );
    },
  },
];

/**
 * Builds the default-value behaviour cases whose rules exist in this run.
 *
 * @param input the rules and variant
 * @returns one `command` case per behaviour
 */
export function defaultCases(input: BuildInput): Case[] {
  return asCases(DEFAULTS, input).map((c) => ({ ...c, id: `behaviour:${c.id}` }));
}
