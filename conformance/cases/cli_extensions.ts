/**
 * Cases for `--disable-extensions` that the generic constraint cases cannot build: a bootstrap
 * that uses a disabled extension must fail to load (exit 1) with the row's message naming the
 * extension and the place, while the same bootstrap loads without the option; a well-formed name
 * that names no extension is a warning only (exit 0, the row's message). Names are spelled as the
 * profile says; the `envoy.`/`proxy.` cross-spellings are checked with the `seed` profile only.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { allRules } from "../../spec/mod.ts";
 * import { cliExtensionCases } from "./cli_extensions.ts";
 * const cases = cliExtensionCases({ rules: allRules(), variant: "new" });
 * assert.deepEqual(cases.map((c) => c.id), [
 *   "cli:disable-extensions:used",
 *   "cli:disable-extensions:unknown",
 * ]);
 * ```
 * @module
 */
import { OPTION_CONSTRAINTS } from "../../spec/mod.ts";
import type { OptionConstraintRow } from "../../spec/mod.ts";
import { NotApplicable } from "../types.ts";
import type { Case, CaseContext } from "../types.ts";
import type { CommandResult } from "../command_client.ts";
import { baseCluster, writeBootstrap } from "./bootstrap_files.ts";
import type { Obj } from "./bootstrap_files.ts";
import { expectExit, fillMessage, v } from "./command_util.ts";
import { existing, expect, preview } from "./util.ts";
import type { BuildInput } from "./util.ts";

const OPTION = "--disable-extensions";

/** A listener on 127.0.0.1, port 0, with one filter chain holding `filters`. */
function listener(filters: Obj[]): Obj {
  return {
    name: "conformance_listener",
    address: { socket_address: { address: "127.0.0.1", port_value: 0 } },
    filter_chains: [{ filters }],
  };
}

/** A bootstrap whose listener proxies TCP to the base cluster through `filter` (a name). */
function tcpProxyBootstrap(filter: string): Obj {
  return {
    static_resources: {
      clusters: [baseCluster()],
      listeners: [listener([{
        name: filter,
        typed_config: {
          "@type": "type.googleapis.com/envoy.config.filter.network.tcp_proxy.v2.TcpProxy",
          stat_prefix: "conformance",
          cluster: "conformance_cluster",
        },
      }])],
    },
  };
}

/** A bootstrap whose HTTP connection manager ends with the HTTP filter `router`. */
function routerBootstrap(router: string): Obj {
  return {
    static_resources: {
      clusters: [baseCluster()],
      listeners: [listener([{
        name: "envoy.http_connection_manager",
        config: {
          stat_prefix: "conformance",
          route_config: {
            virtual_hosts: [{
              name: "conformance",
              domains: ["*"],
              routes: [{ match: { prefix: "/" }, route: { cluster: "conformance_cluster" } }],
            }],
          },
          http_filters: [{ name: router }],
        },
      }])],
    },
  };
}

function row(id: string): OptionConstraintRow & { severity?: string } | undefined {
  return (OPTION_CONSTRAINTS as readonly (OptionConstraintRow & { severity?: string })[])
    .find((k) => k.id === id);
}

/**
 * Checks that the output holds the row's message with its first `{}` filled by `written` (the
 * extension as the bootstrap spells it); what the second `{}` holds is the target's choice.
 */
function expectDisabledMessage(r: CommandResult, message: string, written: string, what: string) {
  const [head, ...rest] = message.split("{}");
  const first = `${head}${written}${rest[0] ?? ""}`;
  const tail = rest.length > 1 ? rest[rest.length - 1] : "";
  const text = r.stdout + r.stderr;
  expect(
    text.includes(first) && text.includes(tail),
    `${what}: expected the message ${JSON.stringify(fillMessage(message, [written, "…"]))}; got ${
      preview(r.stderr || r.stdout)
    }`,
  );
}

/** Loads `bootstrap` without the option (the control), then with `disable`, which must fail. */
async function disabledFails(
  ctx: CaseContext,
  message: string,
  bootstrap: Obj,
  disable: string,
  written: string,
  place: string,
): Promise<void> {
  const file = await writeBootstrap(ctx, bootstrap);
  const control = await ctx.command.run(v(file));
  if (control.code !== 0) {
    throw new NotApplicable(
      `the bootstrap using ${written} is rejected even without ${OPTION}: ` +
        preview(control.stderr || control.stdout),
    );
  }
  const args = [...v(file), OPTION, disable];
  const r = await ctx.command.run(args);
  expectExit(r, 1, args.join(" "));
  expectDisabledMessage(r, message, written, args.join(" "));
  const text = r.stdout + r.stderr;
  expect(
    text.includes(place),
    `${args.join(" ")}: the error does not name the place ${place}; got ${preview(text)}`,
  );
}

/**
 * Builds the cases.
 *
 * @param input every rule and the variant
 * @returns the cases (those whose rows are gone are left out)
 * @example
 * ```ts
 * import { allRules } from "../../spec/mod.ts";
 * import { cliExtensionCases } from "./cli_extensions.ts";
 * cliExtensionCases({ rules: allRules(), variant: "v2" }).length;
 * ```
 */
export function cliExtensionCases(input: BuildInput): Case[] {
  const out: Case[] = [];
  const newOnly = (ctx: CaseContext) => {
    if (ctx.variant === "v2") throw new NotApplicable(`${OPTION} is not in the v2 variant`);
  };
  const disabled = row("cli.constraints.disabled-extension");
  if (disabled) {
    out.push({
      id: "cli:disable-extensions:used",
      title: disabled.statement,
      rules: existing(input.rules, disabled.id),
      target: "command",
      phase: "read",
      run: async (ctx) => {
        newOnly(ctx);
        const p = ctx.profile;
        const tcp = p.name("proxy.filters.network.tcp_proxy");
        const netPlace = "filter_chains[0].filters[0]";
        await disabledFails(
          ctx,
          disabled.message,
          tcpProxyBootstrap(tcp),
          `${p.name("proxy.filters.network")}/${tcp}`,
          tcp,
          netPlace,
        );
        if (p.id !== "seed") return;
        // Either spelling in the configuration, either spelling in the option.
        await disabledFails(
          ctx,
          disabled.message,
          tcpProxyBootstrap("proxy.filters.network.tcp_proxy"),
          "envoy.filters.network/envoy.filters.network.tcp_proxy",
          "proxy.filters.network.tcp_proxy",
          netPlace,
        );
        await disabledFails(
          ctx,
          disabled.message,
          routerBootstrap("envoy.router"),
          "proxy.filters.http/proxy.filters.http.router",
          "envoy.router",
          "http_filters[0]",
        );
      },
    });
  }
  const unknown = row("cli.constraints.disable-extensions-unknown");
  if (unknown) {
    out.push({
      id: "cli:disable-extensions:unknown",
      title: unknown.statement,
      rules: existing(input.rules, unknown.id),
      target: "command",
      phase: "read",
      run: async (ctx) => {
        newOnly(ctx);
        const name = "proxy.filters.http/proxy.filters.http.nonexistent";
        const known = ctx.profile.text("proxy.filters.http/proxy.filters.http.router");
        const file = await writeBootstrap(ctx, { static_resources: { clusters: [baseCluster()] } });
        const code = unknown.severity === "warning" ? 0 : 1;
        for (const list of [name, `${known},${name}`]) {
          const args = [...v(file), OPTION, list];
          const r = await ctx.command.run(args);
          expectExit(r, code, args.join(" "));
          const want = fillMessage(unknown.message, [name]);
          expect(
            (r.stdout + r.stderr).includes(want),
            `${args.join(" ")}: expected the message ${JSON.stringify(want)}; got ${
              preview(r.stderr || r.stdout)
            }`,
          );
        }
      },
    });
  }
  return out.filter((c) => c.rules.length > 0);
}
