/**
 * Behaviour cases for Cluster settings whose effect shows in what the origins see or in the
 * names of stats: `alt_stat_name`, subset load balancing (`lb_subset_config` with a route's
 * `metadata_match`), `upstream_bind_config` (the source address an origin sees) and
 * `http2_protocol_options` (the HTTP/2 connection preface an origin receives). A target that
 * accepts one of these settings and ignores it fails here.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { allRules } from "../../spec/mod.ts";
 * import { settingCases } from "./behaviour_settings.ts";
 * const cases = settingCases({ rules: allRules(), variant: "new" });
 * assert.ok(cases.some((c) => c.rules.includes("cluster.fields.lb-subset-config")));
 * ```
 * @module
 */
import type { Case } from "../types.ts";
import {
  httpBootstrap,
  type Obj,
  originCluster,
  serveBootstrap,
  spread,
  statValue,
  until,
} from "../served_target.ts";
import { asCases, type Behaviour, describe, origins, serveCluster } from "./behaviour.ts";
import { type BuildInput, expect } from "./util.ts";

/** Gives member `i` of `cluster` the `envoy.lb` metadata `md`. */
function withMetadata(cluster: Obj, md: readonly Record<string, string>[]): Obj {
  const la = cluster.load_assignment as { endpoints: { lb_endpoints: Obj[] }[] };
  la.endpoints[0].lb_endpoints.forEach((e, i) => {
    e.metadata = { filter_metadata: { "envoy.lb": md[i] } };
  });
  return cluster;
}

const SETTINGS: readonly Behaviour[] = [
  {
    id: "alt-stat-name",
    title: "alt_stat_name names the cluster's stats, with each ':' replaced by '_'",
    rules: ["cluster.fields.alt-stat-name"],
    async run(ctx) {
      const os = origins(ctx, 1);
      const { admin, traffic } = await serveCluster(
        ctx,
        originCluster("named", os, { alt_stat_name: "other:name" }),
      );
      await spread(traffic, "/", 3);
      const alt = await statValue(admin, "cluster.other_name.upstream_rq_total");
      expect(alt === 3, `cluster.other_name.upstream_rq_total is ${alt} after 3 requests`);
      const own = await statValue(admin, "cluster.named.upstream_rq_total");
      expect(own === 0, `cluster.named.upstream_rq_total is ${own}: stats kept the cluster name`);
    },
  },
  {
    id: "subset-selection",
    title:
      "lb_subset_config: a route's metadata_match reaches only the members whose metadata match; without a match and without fallback_policy (NO_FALLBACK) there is no host",
    rules: [
      "cluster.fields.lb-subset-config",
      "cluster.objects.lb-subset-config.subset-selectors",
      "cluster.objects.lb-subset-config.lb-subset-selector.keys",
      "cluster.objects.lb-subset-config.fallback-policy",
    ],
    async run(ctx) {
      const os = origins(ctx, 3);
      const cluster = withMetadata(
        originCluster("subset", os, {
          lb_subset_config: { subset_selectors: [{ keys: ["version"] }] },
        }),
        [{ version: "v1" }, { version: "v2" }, { version: "v2" }],
      );
      const { traffic } = await serveBootstrap(
        ctx,
        (port) =>
          httpBootstrap(port, [
            { prefix: "/v2", cluster: "subset", subset: { version: "v2" } },
            { prefix: "/v3", cluster: "subset", subset: { version: "v3" } },
            { prefix: "/", cluster: "subset" },
          ], [cluster]),
      );
      const v2 = await spread(traffic, "/v2", 12);
      expect(
        (v2.get("b") ?? 0) + (v2.get("c") ?? 0) === 12 && (v2.get("b") ?? 0) > 0 &&
          (v2.get("c") ?? 0) > 0,
        `metadata_match version=v2 over members v1, v2, v2 gave ${describe(v2)}`,
      );
      const v3 = await spread(traffic, "/v3", 3);
      expect(
        v3.get("status 503") === 3,
        `metadata_match version=v3 (no such member, NO_FALLBACK) gave ${describe(v3)}`,
      );
    },
  },
  {
    id: "upstream-bind-config",
    title: "upstream_bind_config: the origin sees connections from the configured source address",
    rules: [
      "cluster.fields.upstream-bind-config",
      "cluster.objects.upstream-bind-config.source-address",
    ],
    async run(ctx) {
      const os = origins(ctx, 1);
      const { traffic } = await serveCluster(
        ctx,
        originCluster("bound", os, {
          upstream_bind_config: {
            source_address: { socket_address: { address: "127.0.0.2", port_value: 0 } },
          },
        }),
      );
      const seen = await spread(traffic, "/", 2);
      expect(seen.get("a") === 2, `requests through the bound cluster: ${describe(seen)}`);
      expect(
        os[0].peers.length > 0 && os[0].peers.every((p) => p === "127.0.0.2"),
        `the origin saw connections from ${os[0].peers.join(", ")}, not 127.0.0.2`,
      );
    },
  },
  {
    id: "http2-prior-knowledge",
    title:
      "http2_protocol_options {} makes the proxy open upstream connections with the HTTP/2 preface; without it the origin gets HTTP/1.1",
    rules: ["cluster.fields.http2-protocol-options"],
    async run(ctx) {
      const os = origins(ctx, 2);
      const { traffic } = await serveBootstrap(
        ctx,
        (port) =>
          httpBootstrap(port, [
            { prefix: "/h2", cluster: "h2" },
            { prefix: "/", cluster: "h1" },
          ], [
            originCluster("h2", [os[0]], { http2_protocol_options: {} }),
            originCluster("h1", [os[1]]),
          ]),
      );
      // The origin speaks only HTTP/1.1: the HTTP/2 request fails, but its first line is seen.
      await traffic.request("GET", "/h2").catch(() => {});
      await until(
        ctx,
        "the HTTP/2 origin to receive something",
        () => Promise.resolve(os[0].requestLines.length > 0),
      );
      expect(
        os[0].requestLines[0] === "PRI * HTTP/2.0",
        `with http2_protocol_options the origin first received '${os[0].requestLines[0]}'`,
      );
      const h1 = await traffic.request("GET", "/");
      expect(h1.status === 200, `the HTTP/1.1 cluster answered ${h1.status}`);
      expect(
        /^GET \/ HTTP\/1\.1$/.test(os[1].requestLines[0] ?? ""),
        `without http2_protocol_options the origin first received '${os[1].requestLines[0]}'`,
      );
    },
  },
];

/**
 * Builds the cluster-setting behaviour cases whose rules exist in this run.
 *
 * @param input the rules and variant
 * @returns one `command` case per behaviour
 */
export function settingCases(input: BuildInput): Case[] {
  return asCases(SETTINGS, input).map((c) => ({ ...c, id: `behaviour:${c.id}` }));
}
