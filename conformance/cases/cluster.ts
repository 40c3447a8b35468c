/**
 * Cluster cases, run through `--mode validate` on generated bootstraps: for every described
 * message, unset fields are accepted (defaults) and explicit defaults too; every enum field
 * rejects an unknown value; ranges, kinds and required fields are enforced; two members of an
 * exclusivity group are rejected; fields outside their discovery types are rejected or ignored as
 * the row says; the cross-field rules hold; random valid clusters are accepted. Every rejection
 * case first checks that the same cluster without the fault is accepted, so a rejection for an
 * unrelated reason cannot pass.
 *
 * @example
 * ```ts
 * import { allRules } from "../../spec/mod.ts";
 * import { clusterCases } from "./cluster.ts";
 * const cases = clusterCases({ rules: allRules(), variant: "new" });
 * ```
 * @module
 */
import fc from "fast-check";
import { CaseFailure, NotApplicable } from "../types.ts";
import type { Case, CaseContext } from "../types.ts";
import {
  clustersArbitrary,
  enumOf,
  FIELDS,
  invalidValues,
  messagePaths,
  validClusterArbitrary,
  validValue,
} from "../arbitraries.ts";
import type { Field, Step } from "../arbitraries.ts";

import { baseCluster } from "./bootstrap_files.ts";
import {
  accepted as acceptedAll,
  acceptedTogether,
  drawn,
  passes,
  rejected as rejectedAll,
  validate as validateAll,
} from "./cluster_validate.ts";
import { clusterRuleCases, constrainedFields } from "./cluster_rules.ts";
import { contextFor, host, minimal, place, sampleMessage, withMessage } from "./cluster_context.ts";
import type { Obj } from "./bootstrap_files.ts";
import { existing } from "./util.ts";
import type { BuildInput } from "./util.ts";

const validate = (ctx: CaseContext, clusters: Obj[], expected?: 0 | 1) =>
  validateAll(ctx, clusters, expected);
const accepted = (ctx: CaseContext, c: Obj, what: string) => acceptedAll(ctx, [c], what);
const rejected = (ctx: CaseContext, good: Obj, bad: Obj, what: string) =>
  rejectedAll(ctx, [good], [bad], what);

const extraRules = (f: Field): string[] => {
  const out: string[] = [];
  if (f.field === "load_balancing_weight") out.push("limits.host-weight");
  if (f.field === "minimum_ring_size") out.push("limits.ring-hash-minimum-ring-size");
  if (f.field === "maximum_ring_size") out.push("limits.ring-hash-maximum-ring-size");
  const e = enumOf(f);
  if (e) out.push(e.id);
  return out;
};

function messageCases(m: string, paths: Map<string, Step[]>, input: BuildInput): Case[] {
  const out: Case[] = [];
  const constrained = constrainedFields();
  const at = host(m, paths);
  const rows = FIELDS.filter((f) => f.message === m && f.check !== "internal");
  if (at === null || rows.length === 0) return out;
  const add = (
    id: string,
    title: string,
    ids: string[],
    run: (ctx: CaseContext) => Promise<void>,
  ) =>
    out.push({
      id: `cluster:${m}:${id}`,
      title,
      rules: existing(input.rules, ...ids),
      target: "command",
      phase: "read",
      run,
    });
  const defaulted = rows.filter((f) => f.default !== undefined);
  if (defaulted.length > 0) {
    add(
      "defaults",
      `${m}: unset fields and explicit defaults are accepted`,
      defaulted.map((f) => f.id),
      async (ctx) => {
        await accepted(ctx, at.cluster, `a cluster with ${m} and its fields unset`);
        const all = Object.fromEntries(
          defaulted.filter((f) => !f.group).map((f) => [f.field, f.default]),
        );
        const r = await validate(ctx, [place(at.cluster, at.steps, all)], 0);
        if (passes(r)) return;
        for (const f of defaulted.filter((x) => !x.group)) {
          await accepted(
            ctx,
            place(at.cluster, at.steps, { [f.field]: f.default }),
            `${m}.${f.field} = ${JSON.stringify(f.default)} (its default)`,
          );
        }
      },
    );
  }
  for (const f of rows) {
    const bads = invalidValues(f);
    if (bads.length > 0) {
      add(`${f.field}:invalid`, `${m}.${f.field} rejects values its row forbids`, [
        f.id,
        ...extraRules(f),
      ], async (ctx) => {
        for (const b of bads) {
          await rejected(
            ctx,
            at.cluster,
            place(at.cluster, at.steps, { [f.field]: b.value }),
            `${m}.${f.field} = ${JSON.stringify(b.value)} (${b.why})`,
          );
        }
      });
    }
    const good = validValue(f);
    if (
      good !== null && !f.group && !constrained.has(f.field) &&
      !(f.field === "name" || (m === "Cluster" && f.field === "lb_policy"))
    ) {
      add(
        `${f.field}:valid`,
        `${m}.${f.field} accepts values its row allows`,
        [f.id],
        async (ctx) => {
          const opts = { seed: ctx.seed, numRuns: Math.max(1, Math.ceil(ctx.numRuns / 10)) };
          const withValue = (v: unknown) => place(at.cluster, at.steps, { [f.field]: v });
          const values = await drawn(good, opts);
          if (await acceptedTogether(ctx, values.map((v) => [withValue(v)]))) return;
          const out = await fc.check(
            fc.asyncProperty(good, async (v) => passes(await validate(ctx, [withValue(v)]))),
            opts,
          );
          if (out.failed) {
            throw new CaseFailure(
              `${m}.${f.field}: a valid value was rejected`,
              JSON.stringify(out.counterexample?.[0]),
            );
          }
        },
      );
    }
    const present = withMessage(f, at);
    if (present !== null) {
      add(`${f.field}:present`, `${m}.${f.field} is accepted when set`, [f.id], async (ctx) => {
        await accepted(ctx, present, `${m}.${f.field} = ${JSON.stringify(sampleMessage(f))}`);
      });
    }
    if (f.required) {
      add(`${f.field}:required`, `${m}.${f.field} is required`, [f.id], async (ctx) => {
        const good = m === "Cluster" ? at.cluster : place(at.cluster, at.steps, {});
        const bad = structuredClone(good);
        let o: Obj = bad;
        for (const s of at.steps) o = (s.repeated ? (o[s.field] as Obj[])[0] : o[s.field]) as Obj;
        delete o[f.field];
        await rejected(ctx, good, bad, `${m} without ${f.field}`);
      });
    }
    if (f.appliesTo && f.outside) {
      const other = (["STATIC", "STRICT_DNS", "LOGICAL_DNS", "EDS", "ORIGINAL_DST"] as const)
        .find((t) => !f.appliesTo!.includes(t) && t !== "EDS" && t !== "ORIGINAL_DST");
      const v = validValue(f);
      if (m === "Cluster" && other && (v !== null || f.kind === "message")) {
        add(
          `${f.field}:outside`,
          `${f.field} on a ${other} cluster is ${f.outside === "error" ? "rejected" : "ignored"}`,
          [f.id],
          async (ctx) => {
            const base = { ...baseCluster(), type: other };
            const value = v === null
              ? sampleMessage(f)
              : fc.sample(v, { seed: ctx.seed, numRuns: 1 })[0];
            const withIt = { ...base, [f.field]: value };
            if (f.outside === "error") {
              await rejected(ctx, base, withIt, `${f.field} on a ${other} cluster`);
            } else await accepted(ctx, withIt, `${f.field} on a ${other} cluster`);
          },
        );
      }
    }
  }
  const groups = new Map<string, Field[]>();
  for (const f of rows.filter((x) => x.group)) {
    groups.set(f.group!, [...(groups.get(f.group!) ?? []), f]);
  }
  for (const [g, members] of groups) {
    // Groups of maps are checked with their values by cluster_extensions.ts.
    if (members.length < 2 || members.some((f) => f.cardinality === "map")) continue;
    add(
      `group:${g}`,
      `${m}: two members of ${g} are rejected`,
      members.map((f) => f.id),
      async (ctx) => {
        const val = (f: Field) =>
          f.kind === "message"
            ? (minimal(f.type ?? "") ?? {})
            : f.default ?? fc.sample(validValue(f)!, 1)[0];
        for (const [a, b] of [[members[0], members[1]], [members[1], members[0]]]) {
          const base = m === "Cluster" ? contextFor(a.field) : at.cluster;
          if (base === null) continue;
          const one = place(base, at.steps, { [a.field]: val(a) });
          if ((await validate(ctx, [one])).code !== 0) continue;
          return await rejected(
            ctx,
            one,
            place(one, at.steps, { [b.field]: val(b) }),
            `${m} with both ${a.field} and ${b.field}`,
          );
        }
        throw new NotApplicable(
          `no member of ${g} is accepted alone, so the group cannot be checked`,
        );
      },
    );
  }
  return out;
}

/**
 * Builds the cluster cases.
 *
 * @param input every rule and the variant
 * @returns the cases
 */
export function clusterCases(input: BuildInput): Case[] {
  const paths = messagePaths();
  const out: Case[] = [];
  for (const m of paths.keys()) out.push(...messageCases(m, paths, input));
  out.push(...clusterRuleCases(input));
  out.push({
    id: "cluster:random-valid",
    title: "random valid clusters built from the tables are accepted",
    rules: existing(input.rules, "errors.validate-ok"),
    target: "command",
    phase: "read",
    run: async (ctx) => {
      const res = await fc.check(
        fc.asyncProperty(
          validClusterArbitrary(),
          async (c) => passes(await validate(ctx, [c])),
        ),
        { seed: ctx.seed, numRuns: Math.max(2, Math.ceil(ctx.numRuns / 4)) },
      );
      if (res.failed) {
        throw new CaseFailure(
          "a valid cluster was rejected",
          JSON.stringify(res.counterexample?.[0]),
        );
      }
    },
  });
  out.push({
    id: "cluster:random-valid-set",
    title: "random sets of valid clusters of every discovery type and policy are accepted",
    rules: existing(input.rules, "errors.validate-ok", "cluster.rules.unique-name"),
    target: "command",
    phase: "read",
    run: async (ctx) => {
      const res = await fc.check(
        fc.asyncProperty(clustersArbitrary(3), async (cs) => passes(await validate(ctx, cs))),
        { seed: ctx.seed, numRuns: Math.max(2, Math.ceil(ctx.numRuns / 4)) },
      );
      if (res.failed) {
        throw new CaseFailure(
          "a set of valid clusters was rejected",
          JSON.stringify(res.counterexample?.[0]),
        );
      }
    },
  });
  return out.filter((c) => c.rules.length > 0);
}
