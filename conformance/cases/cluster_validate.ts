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
