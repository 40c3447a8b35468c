/**
 * Command-line cases, generated from `cli.options` and `cli.constraints`: every option's
 * argument kind (a good value accepted with `--mode validate`, a bad one and a missing one
 * rejected with exit 1), every constraint (exit 1 and its message, or the warning), the option
 * variants, `--version`, `--hot-restart-version` and the `--mode validate` exit codes.
 *
 * @example
 * ```ts
 * import { allRules } from "../../spec/mod.ts";
 * import { cliCases } from "./cli.ts";
 * const cases = cliCases({ rules: allRules(), variant: "new" });
 * ```
 * @module
 */
import { OPTION_CONSTRAINTS, OPTIONS } from "../../spec/mod.ts";
import type { OptionConstraintRow, OptionRow } from "../../spec/mod.ts";
import { NotApplicable } from "../types.ts";
import type { Case, CaseContext } from "../types.ts";
import { baseCluster, writeBootstrap } from "./bootstrap_files.ts";
import { constraintCase } from "./cli_constraints.ts";
import { expectExit, expectMessage, validateArgs } from "./command_util.ts";
import { existing, expect, getJson, preview } from "./util.ts";
import type { BuildInput } from "./util.ts";

type Opt = OptionRow & { choices?: readonly string[] };
type Constraint = OptionConstraintRow & { severity?: string };

/** Good values for an option, as argv tails (none for `--mode`, handled by its own case). */
async function goodValues(ctx: CaseContext, o: Opt): Promise<string[][]> {
  const dir = await ctx.tempDir();
  const name = o.long.slice(2);
  switch (o.arg) {
    case "none":
      return [[o.long]];
    case "integer":
      return [[
        o.long,
        typeof o.default === "number"
          ? String(o.default)
          : name === "bootstrap-version"
          ? "3"
          : "1",
      ]];
    case "path":
      return name === "config-path" ? [] : [[o.long, `${dir}/${name}.out`]];
    case "yaml":
      return [];
    case "list":
      return [[
        o.long,
        ctx.profile.text("proxy.grpc_credentials/proxy.grpc_credentials.file_based_metadata"),
      ]];
    case "octal":
      return [["--socket-path", `${dir}/sock`, o.long, "644"]];
    case "level":
      return [[o.long, "debug"]];
    case "component-levels":
      return [[o.long, "upstream:debug"]];
    case "format":
      return [[o.long, "[%l] %v"]];
    default:
      return o.choices ? o.choices.map((c) => [o.long, c]) : [[o.long, "conformance"]];
  }
}

/** A bad value for an option and the constraint row that names the message, if any. */
function badValue(o: Opt): string[] | null {
  if (o.arg === "integer") return [o.long, "x"];
  if (o.arg === "level") return [o.long, "loudest"];
  if (o.arg === "component-levels") return [o.long, "upstream"];
  if (o.arg === "octal") return ["--socket-path", "/tmp/conformance-sock", o.long, "9z"];
  if (o.arg === "yaml") return [o.long, "{bad: ["];
  if (o.choices) return [o.long, "conformance-bogus"];
  return null;
}

function applies(o: Opt, variant: "new" | "v2"): boolean {
  return o.variant === "both" || variant === "new";
}

function optionCases(o: Opt, input: BuildInput): Case[] {
  const out: Case[] = [];
  const c = (id: string, title: string, ids: string[], run: (ctx: CaseContext) => Promise<void>) =>
    out.push({
      id: `cli:${id}`,
      title,
      rules: existing(input.rules, ...ids),
      target: "command",
      phase: "read",
      run,
    });
  const name = o.long.slice(2);
  if (!applies(o, input.variant)) {
    c(`${name}:unknown-in-v2`, `${o.long} is unknown in the older variant`, [
      o.id,
      "cli.constraints.new-option-in-v2",
    ], async (ctx) => {
      const r = await ctx.command.run([...await validateArgs(ctx), o.long]);
      expectExit(r, 1, `${o.long} in the older variant`);
    });
    return out;
  }
  if (name === "version") {
    c(
      "version",
      "--version prints five slash-separated parts",
      [o.id, "versioning.version-string"],
      async (ctx) => {
        const r = await ctx.command.run(["--version"]);
        expectExit(r, 0, "--version");
        const m = /version:\s*(\S+)/.exec(r.stdout);
        expect(
          m !== null && m[1].split("/").length === 5,
          `--version printed ${preview(r.stdout)}`,
        );
      },
    );
    return out;
  }
  if (name === "hot-restart-version") {
    c("hot-restart-version", "--hot-restart-version prints a version and exits 0", [
      o.id,
      "versioning.hot-restart-version",
    ], async (ctx) => {
      const r = await ctx.command.run(["--hot-restart-version"]);
      expectExit(r, 0, "--hot-restart-version");
      const v = (r.stderr + r.stdout).trim().split("\n").at(-1)?.trim() ?? "";
      expect(v !== "", "--hot-restart-version printed nothing");
      if (ctx.http.available) {
        const h = await ctx.http.request("GET", "/hot_restart_version");
        expect(
          h.body.trim() === v,
          `GET /hot_restart_version says ${h.body.trim()}, the binary ${v}`,
        );
      }
    });
    return out;
  }
  if (name === "mode") {
    c("mode-validate", "--mode validate accepts a valid configuration with exit 0 and OK", [
      o.id,
      "errors.validate-ok",
    ], async (ctx) => {
      const args = await validateArgs(ctx);
      const r = await ctx.command.run(args);
      expectExit(r, 0, "--mode validate on a valid bootstrap");
      expect(/OK/.test(r.stdout), `no OK message on stdout: ${preview(r.stdout)}`);
      expect(r.stdout.includes(`'${args[3]}'`), `the OK line does not name '${args[3]}'`);
    });
    c("mode-validate-errors", "--mode validate rejects a bad configuration with exit 1", [
      o.id,
      "errors.validate-errors",
    ], async (ctx) => {
      const file = await writeBootstrap(ctx, {
        static_resources: { clusters: [{ ...baseCluster(), lb_policy: "CONFORMANCE_BOGUS" }] },
      });
      const r = await ctx.command.run(["--mode", "validate", "-c", file]);
      expectExit(r, 1, "--mode validate on an invalid bootstrap");
      expect((r.stderr + r.stdout).trim() !== "", "no error was printed");
    });
  }
  // `--mode` and `--config-path` are part of every validate run: their argv is built whole.
  const own = name === "mode" || name === "config-path";
  if (name !== "mode") {
    c(`${name}:good`, `${o.long} accepts a good value`, [o.id], async (ctx) => {
      const base = await validateArgs(ctx);
      const tails = name === "config-path"
        ? [["--config-path", base[3]]]
        : name === "config-yaml"
        ? [[o.long, "node: {id: conformance}"]]
        : await goodValues(ctx, o);
      for (const t of tails) {
        const args = own ? ["--mode", "validate", ...t] : [...base, ...t];
        const r = await ctx.command.run(args);
        expectExit(r, 0, `${t.join(" ")} with --mode validate`);
      }
    });
  }
  const bad = badValue(o);
  if (bad !== null) {
    // A non-number fails the integer parse; other kinds fail their own constraint.
    const constraint = o.arg === "integer"
      ? (OPTION_CONSTRAINTS as readonly Constraint[]).find((k) => k.id.endsWith("bad-integer"))
      : (OPTION_CONSTRAINTS as readonly Constraint[]).find((k) =>
        k.options.length === 1 && k.options[0] === o.long && k.severity !== "warning"
      );
    c(`${name}:bad`, `${o.long} rejects a bad value with exit 1`, [o.id], async (ctx) => {
      const base = await validateArgs(ctx);
      const r = await ctx.command.run(own ? ["-c", base[3], ...bad] : [...base, ...bad]);
      expectExit(r, 1, bad.join(" "));
      if (constraint) {
        expectMessage(r, constraint.message, bad.at(-1)!, bad.join(" "));
      }
    });
  }
  if (o.arg !== "none") {
    c(`${name}:missing`, `${o.long} without its value is rejected`, [o.id], async (ctx) => {
      const base = await validateArgs(ctx);
      const head = name === "mode"
        ? ["-c", base[3]]
        : name === "config-path"
        ? ["--mode", "validate"]
        : base;
      const r = await ctx.command.run([...head, o.long]);
      expectExit(r, 1, `${o.long} as the last argument`);
    });
  }
  return out;
}

/**
 * Builds the command-line cases.
 *
 * @param input every rule and the variant
 * @returns the cases
 */
export function cliCases(input: BuildInput): Case[] {
  const out: Case[] = [];
  for (const o of OPTIONS as readonly Opt[]) out.push(...optionCases(o, input));
  for (const k of OPTION_CONSTRAINTS as readonly Constraint[]) {
    const c = constraintCase(k, input);
    if (c) out.push(c);
  }
  out.push({
    id: "cli:unknown-static-fields",
    title: "unknown static fields are rejected, and accepted with --allow-unknown-static-fields",
    rules: existing(input.rules, "errors.unknown-static-fields"),
    target: "command",
    phase: "read",
    run: async (ctx) => {
      const file = await writeBootstrap(ctx, {
        static_resources: { clusters: [{ ...baseCluster(), conformance_unknown_field: 1 }] },
      });
      const r = await ctx.command.run(["--mode", "validate", "-c", file]);
      expectExit(r, 1, "a cluster with an unknown field");
      if (ctx.variant === "new") {
        const ok = await ctx.command.run([
          "--mode",
          "validate",
          "-c",
          file,
          "--allow-unknown-static-fields",
        ]);
        expectExit(ok, 0, "the same with --allow-unknown-static-fields");
      }
    },
  });
  out.push({
    id: "cli:bootstrap-v2-upgrade",
    title: "a v2 bootstrap (cluster hosts) loads without --bootstrap-version",
    rules: existing(input.rules, "versioning.bootstrap-version"),
    target: "command",
    phase: "read",
    run: async (ctx) => {
      const { load_assignment: _, ...rest } = baseCluster();
      const cluster = {
        ...rest,
        hosts: [{ socket_address: { address: "127.0.0.1", port_value: 8080 } }],
      };
      const file = await writeBootstrap(ctx, { static_resources: { clusters: [cluster] } });
      const r = await ctx.command.run(["--mode", "validate", "-c", file]);
      expectExit(r, 0, "a v2 bootstrap without --bootstrap-version");
    },
  });
  out.push({
    id: "cli:variant-log-format",
    title: "the server's default log format is its variant's",
    rules: existing(input.rules, "versioning.option-variants"),
    target: "http",
    phase: "read",
    run: async (ctx) => {
      const row = (OPTIONS as readonly Opt[]).find((o) => o.long === "--log-format");
      if (!row) throw new NotApplicable("no --log-format row");
      const want = ctx.variant === "v2" && row.defaultV2 !== undefined
        ? row.defaultV2
        : row.default;
      const info = await getJson(ctx, "/server_info");
      const got = (info.command_line_options as Record<string, unknown>)?.log_format;
      expect(
        got === want,
        `log_format is ${JSON.stringify(got)}, the ${ctx.variant} default ${want}`,
      );
    },
  });
  return out.filter((x) => x.rules.length > 0);
}
