/**
 * Runs `--mode validate` on generated clusters, once per distinct bootstrap and target in a
 * suite run, and turns the exit codes into case outcomes. A rejection only counts when the same
 * bootstrap without the fault is accepted (the control); otherwise the case cannot tell why the
 * target rejected it and ends NOT_APPLICABLE.
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

/** The bootstrap a case validated, for the report (its temporary file is gone by then). */
function bootstrapText(clusters: Obj[]): string {
  const t = JSON.stringify({ static_resources: { clusters } });
  return t.length > 1200 ? `${t.slice(0, 1200)}…` : t;
}

/**
 * Validates a bootstrap holding `clusters` with the target binary.
 *
 * @param ctx the case context
 * @param clusters the clusters
 * @returns the run
 */
export async function validate(ctx: CaseContext, clusters: Obj[]): Promise<CommandResult> {
  const key = `${ctx.command.key}|${JSON.stringify(clusters)}`;
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
  const keyOf = (set: readonly Obj[]) => `${ctx.command.key}|${JSON.stringify(set)}`;
  const distinct = [...new Map(sets.map((set) => [keyOf(set), set])).values()]
    .filter((set) => !memo.has(keyOf(set)));
  if (distinct.length < 2) return false;
  const r = await validate(ctx, renamedApart(distinct));
  if (r.code !== 0) return false;
  for (const set of distinct) memo.set(keyOf(set), Promise.resolve(r));
  return true;
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
  const r = await validate(ctx, clusters);
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
  const control = await validate(ctx, good);
  if (control.code !== 0) {
    throw new NotApplicable(
      `the bootstrap without the fault is itself rejected, so ${what} proves nothing: ` +
        preview(control.stderr || control.stdout),
    );
  }
  const r = await validate(ctx, bad);
  if (r.code !== 1) {
    throw new CaseFailure(
      `${what}: expected exit 1, got ${r.code}; ${preview(r.stdout)}\nbootstrap: ${
        bootstrapText(bad)
      }`,
    );
  }
}
