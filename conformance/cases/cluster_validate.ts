/**
 * Runs `--mode validate` on generated clusters, once per distinct bootstrap and target in a
 * suite run, and turns the exit codes into case outcomes. A rejection only counts when the same
 * bootstrap without the fault is accepted (the control); otherwise the case cannot tell why the
 * target rejected it and ends NOT_APPLICABLE.
 *
 * Bootstraps that cases expect to be accepted are, when the runner rehearses the cases first,
 * validated ahead, many to a run ({@linkcode validatePlanned}); a case then gets the answer its
 * own run would have given, from far fewer processes.
 *
 * @example Not run: it needs a case context whose command runs a proxy binary.
 * ```ts ignore
 * import { baseCluster } from "./bootstrap_files.ts";
 * import { accepted } from "./cluster_validate.ts";
 * import type { CaseContext } from "../types.ts";
 * declare const ctx: CaseContext;
 * await accepted(ctx, [baseCluster()], "a minimal cluster");
 * ```
 * @module
 */
import fc from "fast-check";
import { CaseFailure, NotApplicable } from "../types.ts";
import type { CaseContext } from "../types.ts";
import type { CommandResult } from "../command_client.ts";
import { writeBootstrap } from "./bootstrap_files.ts";
import type { Obj } from "./bootstrap_files.ts";
import { preview } from "./util.ts";

const memo = new Map<string, Promise<CommandResult>>();

/**
 * Cluster sets that rehearsed cases expect to be accepted, per command: validated ahead by
 * {@linkcode validatePlanned}, many sets to a run.
 */
const planned = new Map<string, Obj[][]>();

/** The bootstrap a case validated, for the report (its temporary file is gone by then). */
function bootstrapText(clusters: Obj[]): string {
  const t = JSON.stringify({ static_resources: { clusters } });
  return t.length > 1200 ? `${t.slice(0, 1200)}…` : t;
}

const keyOf = (ctx: CaseContext, clusters: readonly Obj[]) =>
  `${ctx.command.key}|${JSON.stringify(clusters)}`;

/**
 * Validates a bootstrap holding `clusters` with the target binary.
 *
 * In a rehearsal (`rehearse` in `runner.ts`) nothing runs: the answer is the one the caller
 * expects (`expected`, 0 unless given), so the case goes on as against a conforming target,
 * and a set expected to be accepted is noted for {@linkcode validatePlanned}.
 *
 * @param ctx the case context
 * @param clusters the clusters
 * @param expected the exit code the caller expects, when it expects one: 0 notes the set
 * @returns the run
 */
export async function validate(
  ctx: CaseContext,
  clusters: Obj[],
  expected?: 0 | 1,
): Promise<CommandResult> {
  const key = keyOf(ctx, clusters);
  if (ctx.command.rehearsal) {
    if (expected === 0 && !memo.has(key)) {
      let list = planned.get(ctx.command.key);
      if (list === undefined) planned.set(ctx.command.key, list = []);
      list.push(structuredClone(clusters));
    }
    return { code: expected ?? 0, stdout: "", stderr: "", line: "" };
  }
  let p = memo.get(key);
  if (!p) {
    p = (async () => {
      const file = await writeBootstrap(ctx, { static_resources: { clusters } });
      return await ctx.command.run(["--mode", "validate", "-c", file]);
    })();
    memo.set(key, p);
    p.catch(() => memo.delete(key));
  }
  const r = await p;
  ctx.command.log.push(r.line);
  return r;
}

/**
 * The clusters of `sets` in one list, each set's clusters renamed apart (`<name>__<set>`, with
 * `load_assignment.cluster_name` following the name it equalled).
 */
function renamedApart(sets: readonly Obj[][]): Obj[] {
  return sets.flatMap((set, i) =>
    set.map((c) => {
      const out = structuredClone(c);
      const name = `${String(c.name)}__${i}`;
      const la = out.load_assignment as Obj | undefined;
      if (la && la.cluster_name === c.name) la.cluster_name = name;
      out.name = name;
      return out;
    })
  );
}

/**
 * Validates several sets of clusters that should each be accepted in one run of the target (the
 * sets renamed apart in one bootstrap), so a case with many valid samples starts one process, not
 * one per sample. Only a clean acceptance (exit 0) counts: then every set is taken as accepted
 * and remembered as such; on anything else the caller checks each set on its own, as it would
 * have without this, so a rejection is always reported against the set that caused it.
 *
 * @param ctx the case context
 * @param sets the cluster sets, each a valid bootstrap's clusters
 * @returns true when the target accepted them all together
 */
export async function acceptedTogether(ctx: CaseContext, sets: readonly Obj[][]): Promise<boolean> {
  if (ctx.command.rehearsal) {
    for (const set of sets) await validate(ctx, set, 0);
    return true;
  }
  const distinct = [...new Map(sets.map((set) => [keyOf(ctx, set), set])).values()]
    .filter((set) => !memo.has(keyOf(ctx, set)));
  if (distinct.length < 2) return false;
  const r = await validate(ctx, renamedApart(distinct));
  if (r.code !== 0) return false;
  for (const set of distinct) memo.set(keyOf(ctx, set), Promise.resolve(r));
  return true;
}

/** The most cluster sets {@linkcode validatePlanned} puts in one run. */
const PLANNED_PER_RUN = 32;

/**
 * True when renaming `set` apart leaves no reference to an old name (a cluster of an aggregate
 * naming another of the set would then name a cluster that is not there).
 */
function renamesCleanly(set: Obj[]): boolean {
  const text = JSON.stringify(renamedApart([set]));
  return set.every((c) => !text.includes(JSON.stringify(c.name)));
}

/**
 * The sets of a rejected run that its output names, by the index of one of their clusters in
 * `static_resources.clusters`: a hint of which to take out (a wrong hint only costs runs).
 */
function named(output: string, group: readonly Obj[][]): Set<number> {
  const owner: number[] = group.flatMap((set, i) => set.map(() => i));
  const out = new Set<number>();
  for (const m of output.matchAll(/clusters\[(\d+)\]/g)) {
    const i = owner[Number(m[1])];
    if (i !== undefined) out.add(i);
  }
  return out;
}

/**
 * Validates the cluster sets rehearsed cases expect to be accepted, before the cases run: many
 * sets to a run, renamed apart as {@linkcode acceptedTogether} does, and remembered as accepted
 * when the run exits 0. When a run does not, the sets its output names are validated alone and
 * the others together again (halves, when it names none), down to a set alone, whose result is
 * remembered whatever it is (it is the run the case would make). So every set ends with the
 * answer the case would get, a rejection always against the set that caused it, in far fewer
 * runs when most are accepted. A set that renaming would break (one cluster naming another) is
 * left to its case.
 *
 * @param ctx what a case context offers for it: the command (the real one, not a rehearsal's)
 *   and a temporary directory for the bootstraps
 * @param width how many runs at once
 */
export async function validatePlanned(
  ctx: Pick<CaseContext, "command" | "tempDir">,
  width = (navigator.hardwareConcurrency || 1) + 1,
): Promise<void> {
  const c = ctx as CaseContext;
  const sets = [
    ...new Map((planned.get(ctx.command.key) ?? []).map((set) => [keyOf(c, set), set])).values(),
  ].filter((set) => !memo.has(keyOf(c, set)) && renamesCleanly(set));
  planned.delete(ctx.command.key);
  const queue: Obj[][][] = [];
  for (let i = 0; i < sets.length; i += PLANNED_PER_RUN) {
    queue.push(sets.slice(i, i + PLANNED_PER_RUN));
  }
  const one = async (group: Obj[][]): Promise<void> => {
    if (group.length === 1) {
      await validate(c, group[0]).catch(() => {});
      return;
    }
    const r = await validate(c, renamedApart(group)).catch(() => null);
    if (r?.code === 0) {
      for (const set of group) memo.set(keyOf(c, set), Promise.resolve(r));
      return;
    }
    const out = named(r ? r.stderr + r.stdout : "", group);
    if (out.size > 0 && out.size < group.length) {
      const rest = group.filter((_, i) => !out.has(i));
      queue.push(rest, ...group.filter((_, i) => out.has(i)).map((set) => [set]));
      return;
    }
    const half = Math.ceil(group.length / 2);
    queue.push(group.slice(0, half), group.slice(half));
  };
  await Promise.all(Array.from({ length: width }, async () => {
    while (queue.length > 0) await one(queue.shift()!);
  }));
}

/**
 * The values a seeded property draws when every run holds: the property run with a predicate that
 * only records, with the same seed and number of runs, so a check of these values is a check of
 * exactly the values the property itself would test.
 *
 * @param arb the arbitrary
 * @param opts the property's seed and number of runs
 * @returns the drawn values, in order
 */
export async function drawn<T>(
  arb: fc.Arbitrary<T>,
  opts: { seed: number; numRuns: number },
): Promise<T[]> {
  const out: T[] = [];
  await fc.assert(
    fc.asyncProperty(arb, (v) => {
      out.push(structuredClone(v));
      return Promise.resolve(true);
    }),
    opts,
  );
  return out;
}

/**
 * True when the target accepted the clusters, or refused them only because it does not support
 * a setting (a missing feature, not a validation error; see {@linkcode onlyUnsupported}).
 *
 * @param r the run
 */
export function passes(r: CommandResult): boolean {
  return r.code === 0 || onlyUnsupported(r.stderr || r.stdout);
}

/**
 * Fails unless the clusters are accepted (exit 0).
 *
 * @param ctx the case context
 * @param clusters the clusters
 * @param what a description for the message
 */
export async function accepted(ctx: CaseContext, clusters: Obj[], what: string): Promise<void> {
  const r = await validate(ctx, clusters, 0);
  if (r.code !== 0 && onlyUnsupported(r.stderr || r.stdout)) {
    throw new NotApplicable(
      `${what} is valid, but the target refuses a setting it does not support: ` +
        preview(r.stderr || r.stdout),
    );
  }
  if (r.code !== 0) {
    throw new CaseFailure(
      `${what} was rejected (exit ${r.code}): ${preview(r.stderr || r.stdout)}`,
    );
  }
}

/** The phrase an implementation uses to refuse a valid setting it does not honour. */
export const UNSUPPORTED = "is not supported by this build";

/**
 * True when every error line of a rejection refuses an unsupported setting (`<path>: <field> is
 * not supported by this build`), so the configuration was valid and the target lacks a feature.
 *
 * @param output what the target printed
 */
export function onlyUnsupported(output: string): boolean {
  const lines = output.split("\n").map((l) =>
    l.replace(/^.*error initializing configuration '[^']*': /, "")
  )
    .filter((l) => /^[\w.\[\]@-]+: /.test(l));
  return lines.length > 0 && lines.every((l) => l.includes(UNSUPPORTED));
}

/**
 * Fails unless `bad` is rejected (exit 1) while `good` is accepted.
 *
 * @param ctx the case context
 * @param good the clusters without the fault
 * @param bad the clusters with it
 * @param what a description of the fault
 */
export async function rejected(ctx: CaseContext, good: Obj[], bad: Obj[], what: string) {
  const control = await validate(ctx, good, 0);
  if (control.code !== 0) {
    throw new NotApplicable(
      `the bootstrap without the fault is itself rejected, so ${what} proves nothing: ` +
        preview(control.stderr || control.stdout),
    );
  }
  const r = await validate(ctx, bad, 1);
  if (r.code !== 1) {
    throw new CaseFailure(
      `${what}: expected exit 1, got ${r.code}; ${preview(r.stdout)}\nbootstrap: ${
        bootstrapText(bad)
      }`,
    );
  }
}
