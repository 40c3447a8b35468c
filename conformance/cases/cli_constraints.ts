/**
 * Cases for `cli.constraints`: each constraint row is triggered by an argv (below, by row ID, or
 * generically for a one-option row: the option with a bogus value) and must end with exit 1 and
 * its message, or, for a warning row, exit 0 and its message.
 *
 * @example
 * ```ts
 * import { allRules } from "../../spec/mod.ts";
 * import { OPTION_CONSTRAINTS } from "../../spec/mod.ts";
 * import { constraintCase } from "./cli_constraints.ts";
 * const c = constraintCase(OPTION_CONSTRAINTS[0], { rules: allRules(), variant: "new" });
 * ```
 * @module
 */
import { OPTIONS } from "../../spec/mod.ts";
import type { OptionConstraintRow, OptionRow } from "../../spec/mod.ts";
import { NotApplicable } from "../types.ts";
import type { Case } from "../types.ts";
import { expectExit, expectMessage, v, validateArgs } from "./command_util.ts";
import { existing } from "./util.ts";
import type { BuildInput } from "./util.ts";

type Constraint = OptionConstraintRow & { severity?: string };

/**
 * How to trigger each constraint row: the whole argv, given a valid bootstrap file, and the
 * value the message's `{}` names.
 */
const TRIGGERS: Record<string, { argv: (file: string) => string[]; value?: string }> = {
  "config-required": { argv: () => ["--mode", "validate"] },
  "unknown-option": { argv: (f) => [...v(f), "--conformance-bogus-flag"] },
  "repeated-option": { argv: (f) => [...v(f), "--mode", "validate"] },
  "missing-value": { argv: (f) => [...v(f), "--concurrency"] },
  "bad-integer": { argv: (f) => [...v(f), "--concurrency", "x"], value: "x" },
  "log-level": { argv: (f) => [...v(f), "--log-level", "loudest"], value: "loudest" },
  "component-format": {
    argv: (f) => [...v(f), "--component-log-level", "upstream"],
    value: "upstream",
  },
  "component-level": {
    argv: (f) => [...v(f), "--component-log-level", "upstream:loudest"],
    value: "loudest",
  },
  "component-unknown": {
    argv: (f) => [...v(f), "--component-log-level", "conformance_bogus:debug"],
    value: "conformance_bogus",
  },
  "mode": { argv: (f) => ["-c", f, "--mode", "bogus"], value: "bogus" },
  "ip-version": { argv: (f) => [...v(f), "--local-address-ip-version", "v5"], value: "v5" },
  "dynamic-base-id-epoch": {
    argv: (f) => [...v(f), "--use-dynamic-base-id", "--restart-epoch", "1"],
    value: "1",
  },
  "socket-mode-octal": {
    argv: (f) => [...v(f), "--socket-path", "/tmp/conformance-sock", "--socket-mode", "9z"],
    value: "9z",
  },
  "socket-mode-abstract": { argv: (f) => [...v(f), "--socket-mode", "644"] },
  "drain-strategy": { argv: (f) => [...v(f), "--drain-strategy", "bogus"], value: "bogus" },
  "bootstrap-version": { argv: (f) => [...v(f), "--bootstrap-version", "7"], value: "7" },
  "ignore-with-reject": {
    argv: (f) => [...v(f), "--ignore-unknown-dynamic-fields", "--reject-unknown-dynamic-fields"],
  },
  "allow-unknown-fields-deprecated": { argv: (f) => [...v(f), "--allow-unknown-fields"] },
  "concurrency-with-cpuset": {
    argv: (f) => [...v(f), "--concurrency", "1", "--cpuset-threads"],
  },
};

/**
 * Builds the case of one constraint row, or null when the suite cannot trigger it.
 *
 * @param k the row
 * @param input every rule and the variant
 * @returns the case, or null
 */
export function constraintCase(k: OptionConstraintRow, input: BuildInput): Case | null {
  const key = k.id.replace(/^cli\.constraints\./, "");
  if (key === "new-option-in-v2") return null;
  let trig = TRIGGERS[key];
  if (!trig && k.options.length === 1) {
    const opt = k.options[0];
    trig = { argv: (f) => [...v(f), opt, "conformance-bogus"], value: "conformance-bogus" };
  }
  if (!trig) return null;
  const argvOf = trig.argv;
  const value = trig.value ?? "";
  const warning = k.severity === "warning";
  // A row about the newer variant only says so in its statement ("In the newer variant ...").
  const newOnly = /\bnewer variant\b/i.test(k.statement) ||
    (OPTIONS as readonly OptionRow[]).some((o) =>
      o.variant === "new" && [...argvOf("f"), ...k.options].includes(o.long)
    );
  return {
    id: `cli:constraint:${key}`,
    title: k.statement,
    rules: existing(input.rules, k.id),
    target: "command",
    phase: "read",
    run: async (ctx) => {
      if (newOnly && ctx.variant === "v2") {
        throw new NotApplicable("the option is not in the v2 variant");
      }
      const base = await validateArgs(ctx);
      const args = argvOf(base[3]);
      const r = await ctx.command.run(args);
      expectExit(r, warning ? 0 : 1, args.join(" "));
      expectMessage(r, k.message, value, args.join(" "));
    },
  };
}
