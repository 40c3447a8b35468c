/**
 * The lean command line: `--mode validate` loads only the parts of the configuration check its
 * bootstrap needs and reports exactly what the full check (serve's) reports; `mod.ts`,
 * `--help` and `--version` load no configuration or serving code.
 */
import assert from "node:assert/strict";
import { parseCommandLine } from "../config/args.ts";
import { formatConfigError } from "../config/errors.ts";
import { createLogging } from "../server/logger.ts";
import { checkPartsNeeded } from "../server/configuration_check.ts";
import { ALL_CHECK_PARTS } from "../server/full_configuration_check.ts";
import { validateConfiguration, validateLoadingParts } from "./validate.ts";

const ROOT = new URL("../../", import.meta.url);

type Obj = Record<string, unknown>;
const cluster = (name: string, extra: Obj = {}): Obj => ({
  name,
  connect_timeout: "1s",
  load_assignment: {
    cluster_name: name,
    endpoints: [{
      lb_endpoints: [{
        endpoint: { address: { socket_address: { address: "127.0.0.1", port_value: 1 } } },
      }],
    }],
  },
  ...extra,
});
const ads = {
  api_type: "GRPC",
  transport_api_version: "V3",
  grpc_services: [{ envoy_grpc: { cluster_name: "xds" } }],
};

/** Bootstraps that need each part, none, or more than their sections say. */
const BOOTSTRAPS: Record<string, Obj> = {
  clusters: { static_resources: { clusters: [cluster("a"), cluster("b", { lb_policy: "NOPE" })] } },
  listeners: {
    static_resources: {
      clusters: [cluster("a")],
      listeners: [{ name: "l", address: 7 }, { name: "m" }],
    },
  },
  "listeners not a list": { static_resources: { listeners: "x" } },
  eds: {
    dynamic_resources: { ads_config: ads },
    static_resources: {
      clusters: [
        cluster("xds"),
        { name: "e", connect_timeout: "1s", type: "EDS", eds_cluster_config: { eds_config: {} } },
      ],
    },
  },
  "eds with a numeric type": {
    static_resources: {
      clusters: [{ name: "e", connect_timeout: "1s", type: 3, eds_cluster_config: {} }],
    },
  },
  cds: { dynamic_resources: { cds_config: { ads: {} } } },
  lrs: {
    static_resources: { clusters: [cluster("a")] },
    cluster_manager: { load_stats_config: { api_type: "GRPC" } },
  },
  overload: { overload_manager: { actions: [{ name: "bogus" }] } },
  "unknown fields": { static_resources: { clusters: [cluster("a", { bogus: 1 })] }, bogus: 2 },
  // Valid clusters this build cannot honour: checked one at a time by the lean check (which
  // keeps no effective clusters), all at once by the full one.
  "unsupported settings": {
    cluster_manager: {
      local_cluster_name: "nope",
      upstream_bind_config: { source_address: { address: "not-an-ip", port_value: 0 } },
    },
    static_resources: {
      clusters: [
        cluster("a"),
        cluster("b", {
          upstream_bind_config: {
            source_address: { socket_address: { address: "1.2.3.4", port_value: 7 } },
          },
        }),
        cluster("c", { respect_dns_ttl: true, extension_protocol_options: { x: {} } }),
        cluster("d", {
          type: "STRICT_DNS",
          dns_resolvers: [{ socket_address: { address: "1.1.1.1", port_value: 53 } }],
        }),
        cluster("e", {
          health_checks: [{
            timeout: "1s",
            interval: "1s",
            unhealthy_threshold: 1,
            healthy_threshold: 1,
            http_health_check: { path: "/", codec_client_type: "HTTP3" },
          }],
        }),
        cluster("f", { type: "ORIGINAL_DST", lb_policy: "CLUSTER_PROVIDED" }),
      ],
    },
  },
  "local cluster defined": {
    cluster_manager: { local_cluster_name: "b" },
    static_resources: { clusters: [cluster("a"), cluster("b", { respect_dns_ttl: true })] },
  },
};

for (const [name, b] of Object.entries(BOOTSTRAPS)) {
  Deno.test(`errors.validate-errors: --mode validate loading its parts reports what the full check reports (${name})`, async () => {
    for (const extra of [[], ["--allow-unknown-static-fields"]]) {
      const { options, given } = parseCommandLine([
        "--mode",
        "validate",
        "-l",
        "off",
        "--config-yaml",
        JSON.stringify(b),
        ...extra,
      ]);
      const logging = createLogging(options);
      try {
        const full = validateConfiguration(options, logging, false, given, ALL_CHECK_PARTS);
        const lean = await validateLoadingParts(options, logging, given);
        assert.deepEqual(lean.errors.map(formatConfigError), full.errors.map(formatConfigError));
        if (name === "unsupported settings") {
          // Each cluster without its own bind is told of the bootstrap's, in cluster order.
          const paths = lean.errors.map((e) => e.path);
          assert.equal(
            paths.filter((p) => p.startsWith("cluster_manager.upstream_bind")).length,
            5,
          );
          assert.ok(paths.includes("static_resources.clusters[3].dns_resolvers"));
          assert.equal(paths.at(-1), "cluster_manager.local_cluster_name");
        }
        assert.deepEqual(lean.unknownFields, full.unknownFields);
      } finally {
        logging.close();
      }
    }
  });
}

Deno.test("errors.validate-ok: a bootstrap of static clusters needs no part of the check that loads the proxy core", () => {
  assert.deepEqual(checkPartsNeeded(BOOTSTRAPS.clusters), []);
  assert.deepEqual(checkPartsNeeded(BOOTSTRAPS.listeners), ["validateListeners"]);
  assert.deepEqual(checkPartsNeeded(BOOTSTRAPS.eds), ["XdsClients"]);
  assert.deepEqual(checkPartsNeeded(BOOTSTRAPS.overload), ["parseOverloadManager"]);
});

/** The modules `entry` loads before it runs (its static imports, not its dynamic ones). */
async function staticGraph(entry: string): Promise<string[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", new URL(entry, ROOT).pathname],
    cwd: ROOT.pathname,
    stdout: "piped",
    stderr: "null",
  }).output();
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    roots: string[];
    modules: {
      specifier: string;
      dependencies?: { code?: { specifier?: string }; isDynamic?: boolean }[];
    }[];
  };
  const bySpecifier = new Map(info.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const todo = [...info.roots];
  while (todo.length > 0) {
    const s = todo.pop()!;
    if (seen.has(s)) continue;
    seen.add(s);
    for (const d of bySpecifier.get(s)?.dependencies ?? []) {
      if (!d.isDynamic && d.code?.specifier) todo.push(d.code.specifier);
    }
  }
  return [...seen].map((s) => s.startsWith(ROOT.href) ? s.slice(ROOT.href.length) : s);
}

Deno.test("cli.options.version cli.options.mode: mod.ts loads no configuration or serving code before its mode needs it", async () => {
  const entry = await staticGraph("mod.ts");
  assert.ok(entry.includes("src/cli/main.ts"));
  for (const m of ["src/config/bootstrap.ts", "src/server/server.ts", "src/admin/mod.ts"]) {
    assert.ok(!entry.includes(m), `mod.ts loads ${m} before it runs`);
  }
  const validate = await staticGraph("src/cli/validate.ts");
  assert.ok(validate.includes("src/config/bootstrap.ts"));
  for (const m of ["src/server/server.ts", "src/listener/validate_listeners.ts", "node:http2"]) {
    assert.ok(!validate.includes(m), `--mode validate loads ${m} for any bootstrap`);
  }
  assert.ok(!validate.some((m) => m.startsWith("src/upstream/xds_clients")));
});
