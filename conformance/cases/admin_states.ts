/**
 * The States table as a fast-check model-based test: random sequences of admin commands
 * (recent lookups enable/disable/clear, health check fail/ok, runtime_modify set/delete, logging
 * levels) run against the target and against a tiny model, and after each command the target's
 * visible state must equal the model's. Everything changed is undone at the end.
 *
 * @example
 * ```ts
 * import { allRules } from "../../spec/mod.ts";
 * import { stateCases } from "./admin_states.ts";
 * const cases = stateCases({ rules: allRules(), variant: "new" });
 * ```
 * @module
 */
import fc from "fast-check";
import { CaseFailure, NotApplicable } from "../types.ts";
import type { Case, CaseContext } from "../types.ts";
import { lookupsEnabled } from "./admin_actions.ts";
import { existing, expect, expectStatus, getJson, listenerUrl } from "./util.ts";
import type { BuildInput } from "./util.ts";

/** The model: only what the States table talks about. */
interface Model {
  lookups: boolean;
  hcFailed: boolean;
  /** Admin-layer overrides of the suite's own keys. */
  runtime: Map<string, string>;
  level: string | null;
}

/** The real system: the target, and where health checks are sent (if anywhere). */
interface Real {
  ctx: CaseContext;
  healthUrl: string | null;
}

const KEYS = ["conformance.model_a", "conformance.model_b"];
const LEVELS = ["trace", "debug", "info", "warning", "error", "critical", "off"];

async function post(real: Real, t: string): Promise<void> {
  const r = await real.ctx.http.request("POST", t);
  expectStatus(r, 200, `POST ${t}`);
}

type Cmd = fc.AsyncCommand<Model, Real>;

function command(
  label: string,
  apply: (m: Model) => void,
  send: (r: Real) => Promise<void>,
  verify: (m: Model, r: Real) => Promise<void>,
  when: (m: Model, r?: Real) => boolean = () => true,
): Cmd {
  return {
    check: (m) => when(m),
    run: async (m, r) => {
      await send(r);
      apply(m);
      await verify(m, r);
    },
    toString: () => label,
  };
}

async function verifyLookups(m: Model, r: Real) {
  const on = await lookupsEnabled(r.ctx);
  expect(on === m.lookups, `recent lookups are ${on ? "on" : "off"}, the model says otherwise`);
}

async function verifyHealth(m: Model, r: Real) {
  if (r.healthUrl === null) return;
  const res = await fetch(r.healthUrl, { signal: AbortSignal.timeout(5000) });
  await res.body?.cancel();
  const want = m.hcFailed ? 503 : 200;
  expect(res.status === want, `health check answered ${res.status}, expected ${want}`);
}

async function verifyRuntime(m: Model, r: Real) {
  const v = await getJson(r.ctx, "/runtime");
  const entries = (v.entries ?? {}) as Record<string, { final_value?: string }>;
  for (const k of KEYS) {
    const got = entries[k]?.final_value ?? "";
    const want = m.runtime.get(k) ?? "";
    expect(
      got === want,
      `/runtime ${k} is ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`,
    );
  }
}

async function loggers(ctx: CaseContext): Promise<Array<[string, string]>> {
  const r = await ctx.http.request("POST", "/logging");
  return r.body.split("\n").map((l) => /^\s+(\S+): (\S+)$/.exec(l))
    .filter((x): x is RegExpExecArray => x !== null).map((x) => [x[1], x[2]]);
}

async function verifyLogging(m: Model, r: Real) {
  if (m.level === null) return;
  const bad = (await loggers(r.ctx)).find(([, l]) => l !== m.level);
  expect(bad === undefined, `logger ${bad?.[0]} is at ${bad?.[1]}, expected ${m.level}`);
}

function commands(withHealth: boolean): fc.Arbitrary<Cmd>[] {
  const list: fc.Arbitrary<Cmd>[] = [
    fc.constant(
      command(
        "lookups enable",
        (m) => void (m.lookups = true),
        (r) => post(r, "/stats/recentlookups/enable"),
        verifyLookups,
      ),
    ),
    fc.constant(
      command(
        "lookups disable",
        (m) => void (m.lookups = false),
        (r) => post(r, "/stats/recentlookups/disable"),
        verifyLookups,
      ),
    ),
    fc.constant(
      command(
        "lookups clear",
        () => {},
        (r) => post(r, "/stats/recentlookups/clear"),
        verifyLookups,
      ),
    ),
    fc.tuple(fc.constantFrom(...KEYS), fc.stringMatching(/^[a-z0-9]{1,8}$/)).map(([k, v]) =>
      command(
        `runtime ${k}=${v}`,
        (m) => void m.runtime.set(k, v),
        (r) => post(r, `/runtime_modify?${k}=${v}`),
        verifyRuntime,
      )
    ),
    fc.constantFrom(...KEYS).map((k) =>
      command(
        `runtime ${k}= (delete)`,
        (m) => void m.runtime.delete(k),
        (r) => post(r, `/runtime_modify?${k}=`),
        verifyRuntime,
      )
    ),
    fc.constantFrom(...LEVELS).map((l) =>
      command(
        `logging level=${l}`,
        (m) => void (m.level = l),
        (r) => post(r, `/logging?level=${l}`),
        verifyLogging,
      )
    ),
  ];
  if (withHealth) {
    list.push(
      fc.constant(
        command(
          "healthcheck fail",
          (m) => void (m.hcFailed = true),
          (r) => post(r, "/healthcheck/fail"),
          verifyHealth,
        ),
      ),
      fc.constant(
        command(
          "healthcheck ok",
          (m) => void (m.hcFailed = false),
          (r) => post(r, "/healthcheck/ok"),
          verifyHealth,
        ),
      ),
    );
  }
  return list;
}

async function runModel(ctx: CaseContext, withHealth: boolean): Promise<void> {
  const initialLookups = await lookupsEnabled(ctx);
  const initialLoggers = await loggers(ctx);
  let healthUrl: string | null = null;
  if (withHealth) {
    healthUrl = `${await listenerUrl(ctx)}/healthz`;
    const probe = await fetch(healthUrl, { signal: AbortSignal.timeout(5000) });
    await probe.body?.cancel();
    if (probe.status !== 200) {
      throw new NotApplicable(`${healthUrl} answered ${probe.status}; load the fixture's filter`);
    }
  }
  ctx.onUndo(async () => {
    await ctx.http.request("POST", `/stats/recentlookups/${initialLookups ? "enable" : "disable"}`);
    await ctx.http.request("POST", `/runtime_modify?${KEYS.map((k) => `${k}=`).join("&")}`);
    if (withHealth) await ctx.http.request("POST", "/healthcheck/ok");
    for (const [name, level] of initialLoggers) {
      await ctx.http.request("POST", `/logging?${encodeURIComponent(name)}=${level}`);
    }
  });
  const real: Real = { ctx, healthUrl };
  const out = await fc.check(
    fc.asyncProperty(fc.commands(commands(withHealth), { maxCommands: 8 }), async (cmds) => {
      await ctx.http.request("POST", `/runtime_modify?${KEYS.map((k) => `${k}=`).join("&")}`);
      if (withHealth) await ctx.http.request("POST", "/healthcheck/ok");
      const model: Model = {
        lookups: await lookupsEnabled(ctx),
        hcFailed: false,
        runtime: new Map(),
        level: null,
      };
      await fc.asyncModelRun(() => ({ model, real }), cmds);
    }),
    { seed: ctx.seed, numRuns: Math.max(1, Math.ceil(ctx.numRuns / 2)) },
  );
  if (out.failed) {
    const err = out.errorInstance as Error | undefined;
    throw new CaseFailure(
      `a command sequence left the target unlike the model: ${err?.message ?? out.error}`,
      String(out.counterexample?.[0]),
    );
  }
}

/**
 * Builds the model-based state cases.
 *
 * @param input every rule and the variant
 * @returns the cases
 */
export function stateCases(input: BuildInput): Case[] {
  const base = [
    "admin.states.recentlookups-enable",
    "admin.states.recentlookups-disable",
    "admin.states.recentlookups-clear",
    "admin.states.runtime-modify",
  ];
  return [
    {
      id: "states:model",
      title: "random admin command sequences behave like the States model",
      rules: existing(input.rules, ...base),
      target: "http" as const,
      phase: "mutating" as const,
      run: (ctx: CaseContext) => runModel(ctx, false),
    },
    {
      id: "states:model-healthcheck",
      title: "with the health check filter, fail/ok sequences behave like the model",
      rules: existing(input.rules, "admin.states.healthcheck-fail", "admin.states.healthcheck-ok"),
      target: "http" as const,
      phase: "mutating" as const,
      requires: "health_check_filter" as const,
      run: (ctx: CaseContext) => runModel(ctx, true),
    },
  ].filter((c) => c.rules.length > 0);
}
