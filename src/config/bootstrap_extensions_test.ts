import assert from "node:assert/strict";
import fc from "fast-check";
import { parseArgs, parseCommandLine } from "./args.ts";
import { loadBootstrap } from "./bootstrap.ts";
import { disabledExtensionErrors, parseDisabledExtensions } from "./bootstrap_extensions.ts";
import { EXTENSIONS } from "./filter_names.ts";
import type { JsonObject } from "./bootstrap_types.ts";

/** A v2 bootstrap that uses one extension of every category. */
const V2: JsonObject = {
  stats_sinks: [{ name: "envoy.stat_sinks.hystrix" }],
  static_resources: {
    listeners: [{
      name: "http",
      address: { socket_address: { address: "127.0.0.1", port_value: 0 } },
      listener_filters: [{ name: "envoy.listener.tls_inspector" }],
      filter_chains: [{
        tls_context: {},
        filters: [{
          name: "envoy.http_connection_manager",
          config: {
            stat_prefix: "in",
            route_config: { virtual_hosts: [] },
            http_filters: [{ name: "envoy.health_check" }, { name: "envoy.router" }],
          },
        }],
      }],
    }],
    clusters: [{
      name: "backend",
      connect_timeout: "1s",
      tls_context: {},
      hosts: [{ socket_address: { address: "127.0.0.1", port_value: 8080 } }],
    }, {
      name: "custom",
      connect_timeout: "1s",
      cluster_type: { name: "envoy.cluster.static" },
      transport_socket: { name: "envoy.transport_sockets.raw_buffer" },
    }],
  },
};

/** Every extension the bootstrap above uses, with the path of the place. */
const USES: [string, string][] = [
  ["proxy.stats_sinks/proxy.stat_sinks.hystrix", "stats_sinks[0].name"],
  [
    "proxy.filters.listener/proxy.filters.listener.tls_inspector",
    "static_resources.listeners[0].listener_filters[0].name",
  ],
  [
    "proxy.transport_sockets.downstream/proxy.transport_sockets.tls",
    "static_resources.listeners[0].filter_chains[0].tls_context",
  ],
  [
    "proxy.filters.network/proxy.filters.network.http_connection_manager",
    "static_resources.listeners[0].filter_chains[0].filters[0].name",
  ],
  [
    "proxy.filters.http/proxy.filters.http.health_check",
    "static_resources.listeners[0].filter_chains[0].filters[0].config.http_filters[0].name",
  ],
  [
    "proxy.filters.http/proxy.filters.http.router",
    "static_resources.listeners[0].filter_chains[0].filters[0].config.http_filters[1].name",
  ],
  [
    "proxy.transport_sockets.upstream/proxy.transport_sockets.tls",
    "static_resources.clusters[0].tls_context",
  ],
  [
    "proxy.transport_sockets.upstream/proxy.transport_sockets.raw_buffer",
    "static_resources.clusters[1].transport_socket.name",
  ],
  ["proxy.clusters/proxy.cluster.static", "static_resources.clusters[1].cluster_type.name"],
];

const envoySpelling = (s: string) => s.replaceAll("proxy.", "envoy.");

Deno.test("cli.constraints.disabled-extension: each place of the bootstrap is checked against its category, in both spellings", () => {
  for (const [ext, path] of USES) {
    for (const spelling of [ext, envoySpelling(ext)]) {
      const { disabled, warnings } = parseDisabledExtensions([spelling]);
      assert.deepEqual(warnings, [], spelling);
      const errors = disabledExtensionErrors(V2, disabled);
      assert.deepEqual(errors.map((e) => e.path), [path], spelling);
      assert.equal(errors[0].rule, "cli.constraints.disabled-extension");
      assert.ok(errors[0].message.includes(ext), errors[0].message);
    }
  }
  // The same name in another category is another extension.
  const other = parseDisabledExtensions([
    "proxy.transport_sockets.downstream/proxy.transport_sockets.raw_buffer",
  ]);
  assert.deepEqual(disabledExtensionErrors(V2, other.disabled), []);
});

Deno.test("cli.constraints.disabled-extension: a bootstrap using a disabled extension fails to load", () => {
  const yaml = JSON.stringify(V2);
  const ok = loadBootstrap(parseArgs(["--config-yaml", yaml]));
  assert.deepEqual(ok.errors, []);
  const r = loadBootstrap(
    parseArgs([
      "--config-yaml",
      yaml,
      "--disable-extensions",
      "envoy.filters.http/envoy.filters.http.router,envoy.stats_sinks/envoy.stat_sinks.hystrix",
    ]),
  );
  assert.deepEqual(r.errors.map((e) => e.path), [
    "static_resources.listeners[0].filter_chains[0].filters[0].config.http_filters[1].name",
    "stats_sinks[0].name",
  ]);
  assert.equal(
    r.errors[0].message,
    "extension 'envoy.router' (proxy.filters.http/proxy.filters.http.router) is disabled by --disable-extensions",
  );
  // A v3 bootstrap with typed_config.
  const v3 = loadBootstrap(parseArgs([
    "-c",
    "fixtures/bootstrap/valid_v3.yaml",
    "--disable-extensions",
    "proxy.filters.network/proxy.filters.network.tcp_proxy",
  ]));
  assert.deepEqual(v3.errors.map((e) => e.path), [
    "static_resources.listeners[0].filter_chains[0].filters[0].name",
  ]);
});

Deno.test("cli.constraints.disable-extensions-unknown, cli.constraints.disable-extensions-invalid: unknown and malformed names only warn", () => {
  const r = parseCommandLine([
    "--disable-extensions",
    "proxy.filters.http/proxy.filters.http.lua,nocategory,proxy.bogus/proxy.filters.http.router",
  ]);
  assert.deepEqual(r.warnings, [
    "failed to disable unknown extension 'proxy.filters.http/proxy.filters.http.lua'",
    "failed to disable invalid extension name 'nocategory'",
    "failed to disable unknown extension 'proxy.bogus/proxy.filters.http.router'",
  ]);
  fc.assert(
    fc.property(fc.string(), (s) => {
      const { disabled, warnings } = parseDisabledExtensions([s]);
      assert.equal(disabled.size + warnings.length, 1);
    }),
  );
  // Every known extension can be disabled.
  for (const [cat, names] of Object.entries(EXTENSIONS)) {
    for (const n of names) assert.equal(parseDisabledExtensions([`${cat}/${n}`]).disabled.size, 1);
  }
});

Deno.test("cli.constraints.disabled-extension: --mode validate prints the error and exits 1", async () => {
  const root = new URL("../../", import.meta.url).pathname;
  const run = async (extra: string[]) => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "--quiet",
        root + "mod.ts",
        "--mode",
        "validate",
        "-c",
        "fixtures/bootstrap/valid_v3.yaml",
        ...extra,
      ],
      cwd: root,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const dec = new TextDecoder();
    return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
  };
  const [bad, warn] = await Promise.all([
    run(["--disable-extensions", "envoy.filters.network/envoy.filters.network.tcp_proxy"]),
    run([
      "--disable-extensions",
      "proxy.grpc_credentials/proxy.grpc_credentials.file_based_metadata",
    ]),
  ]);
  assert.equal(bad.code, 1);
  assert.match(
    bad.stderr,
    /filters\[0\]\.name: extension 'proxy\.filters\.network\.tcp_proxy' \(proxy\.filters\.network\/proxy\.filters\.network\.tcp_proxy\) is disabled/,
  );
  assert.equal(warn.code, 0, warn.stderr);
  assert.match(
    warn.stderr,
    /failed to disable unknown extension 'proxy\.grpc_credentials\/proxy\.grpc_credentials\.file_based_metadata'/,
  );
});
