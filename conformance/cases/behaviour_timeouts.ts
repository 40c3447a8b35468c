/**
 * Behaviour cases for time limits, checked through traffic: a cluster's `connect_timeout` against
 * an upstream whose connections never complete (`../blackhole.ts`), and a route's `timeout`
 * against an origin that holds the request. Neither asserts how long anything took: the
 * connect-timeout case compares two clusters, one with a short and one with a long limit, by
 * which request ends first; the route-timeout case by the status and counters of the answer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { allRules } from "../../spec/mod.ts";
 * import { timeoutCases } from "./behaviour_timeouts.ts";
 * const cases = timeoutCases({ rules: allRules(), variant: "new" });
 * assert.ok(cases.some((c) => c.rules.includes("cluster.fields.connect-timeout")));
 * ```
 * @module
 */
import { type Case, CaseFailure } from "../types.ts";
import { openBlackhole } from "../blackhole.ts";
import {
  hostStat,
  httpBootstrap,
  originCluster,
  serveBootstrap,
  statValue,
  until,
} from "../served_target.ts";
import { asCases, type Behaviour, origins } from "./behaviour.ts";
import { type BuildInput, expect } from "./util.ts";

const TIMEOUTS: readonly Behaviour[] = [
  {
    id: "connect-timeout",
    title:
      "connect_timeout ends a connect that never completes: with 0.25s the request is answered 503 while one sent earlier to a cluster with 30s still waits",
    rules: ["cluster.fields.connect-timeout", "admin.resources.host-stat.cx_connect_fail"],
    async run(ctx) {
      // The blackhole's queue fills while the target starts: the target connects to it only
      // when a request comes.
      const hole = openBlackhole();
      ctx.onUndo(() => hole.close());
      const member = [{ port: hole.port }];
      const host = `127.0.0.1:${hole.port}`;
      const [{ admin, traffic }] = await Promise.all([
        serveBootstrap(
          ctx,
          (port) =>
            httpBootstrap(port, [
              { prefix: "/short", cluster: "short" },
              { prefix: "/", cluster: "long" },
            ], [
              originCluster("short", member, { connect_timeout: "0.25s" }),
              originCluster("long", member, { connect_timeout: "30s" }),
            ]),
        ),
        hole.filled,
      ]);
      // Undos run latest first: the blackhole closes before the target is stopped, so the
      // target's pending connect fails at its next SYN rather than holding its shutdown (which
      // would wait out the stop's grace period).
      ctx.onUndo(() => hole.close());
      let longEnded = "";
      // The held request is checked while it waits, then abandoned: its 30 s connect timeout
      // (or the client's own limit) would only keep the case waiting.
      const abandon = new AbortController();
      const long = traffic.request("GET", "/long", { signal: abandon.signal }).then(
        (r) => void (longEnded = `answered ${r.status}`),
        (e) => void (longEnded = `failed: ${(e as Error).message}`),
      );
      ctx.onUndo(() => {
        abandon.abort();
        return long;
      });
      await until(
        ctx,
        "the cluster with connect_timeout 30s to open a connection",
        async () => await statValue(admin, "cluster.long.upstream_cx_total") >= 1,
      );
      const short = await traffic.request("GET", "/short").catch((e) => {
        throw new CaseFailure(
          `the request to the cluster with connect_timeout 0.25s was not answered: ${
            (e as Error).message
          }`,
        );
      });
      expect(
        longEnded === "",
        `the request to the cluster with connect_timeout 30s, sent first, ended before the one with 0.25s: ${longEnded}`,
      );
      expect(short.status === 503, `a connect timeout was answered ${short.status}, not 503`);
      const timeouts = await statValue(admin, "cluster.short.upstream_cx_connect_timeout");
      expect(timeouts >= 1, `cluster.short.upstream_cx_connect_timeout is ${timeouts}`);
      const longTimeouts = await statValue(admin, "cluster.long.upstream_cx_connect_timeout");
      expect(longTimeouts === 0, `cluster.long.upstream_cx_connect_timeout is ${longTimeouts}`);
      const failed = await hostStat(admin, "short", host, "cx_connect_fail");
      expect(failed >= 1, `/clusters shows short::${host}::cx_connect_fail::${failed}`);
    },
  },
  {
    id: "route-timeout",
    title:
      "a route's timeout ends a request the origin holds: 504, counted in upstream_rq_timeout and the host's rq_timeout",
    rules: ["admin.resources.host-stat.rq_timeout"],
    async run(ctx) {
      const os = origins(ctx, 1, { hang: true });
      const { admin, traffic } = await serveBootstrap(
        ctx,
        (port) =>
          httpBootstrap(port, [{ prefix: "/", cluster: "slow", timeout: "0.5s" }], [
            originCluster("slow", os),
          ]),
      );
      const r = await traffic.request("GET", "/");
      expect(os[0].requests === 1, `the origin saw ${os[0].requests} requests, not 1`);
      expect(r.status === 504, `a request past the route's timeout was answered ${r.status}`);
      const timeouts = await statValue(admin, "cluster.slow.upstream_rq_timeout");
      expect(timeouts === 1, `cluster.slow.upstream_rq_timeout is ${timeouts}`);
      const host = await hostStat(admin, "slow", os[0].address, "rq_timeout");
      expect(host === 1, `/clusters shows slow::${os[0].address}::rq_timeout::${host}`);
      os[0].release();
    },
  },
];

/**
 * Builds the time-limit behaviour cases whose rules exist in this run.
 *
 * @param input the rules and variant
 * @returns one `command` case per behaviour
 */
export function timeoutCases(input: BuildInput): Case[] {
  return asCases(TIMEOUTS, input).map((c) => ({ ...c, id: `behaviour:${c.id}` }));
}
