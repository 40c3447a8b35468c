import assert from "node:assert/strict";
import type { Errors } from "../config/config_values.ts";
import { parseListenerFilters } from "./listener_filters.ts";
import { CLIENT_PORTS, HANDOFF_PORT, ORIGIN_PORTS, PROXY_PORT } from "./testing_original_dst.ts";

/** Whether `cmd` runs here (`unshare` and `iptables` need root and the Debian packages). */
async function runs(cmd: string, args: string[]): Promise<boolean> {
  try {
    const o = await new Deno.Command(cmd, { args, stdout: "null", stderr: "null" }).output();
    return o.success;
  } catch {
    return false;
  }
}

const script = new URL("./testing_original_dst.ts", import.meta.url).pathname;
const rule = `iptables -t nat -A OUTPUT -p tcp -d 127.0.0.1 --sport ${CLIENT_PORTS} ` +
  `-m multiport --dports ${
    [...ORIGIN_PORTS, HANDOFF_PORT].join(",")
  } -j REDIRECT --to-ports ${PROXY_PORT}`;
// CI installs iptables (tools/install_test_deps.sh) and runs as root: there the test must run.
const usable = Deno.env.get("CI") === "true" ||
  (await runs("unshare", ["-n", "true"]) && await runs("iptables", ["--version"]));

/** Runs the scenarios in a new network namespace; their JSON lines by scenario name. */
async function scenarios(): Promise<Record<string, Record<string, unknown>>> {
  const out = await new Deno.Command("unshare", {
    args: [
      "-n",
      "sh",
      "-c",
      `ip link set lo up && ${rule} && exec "${Deno.execPath()}" run -A "${script}"`,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const err = new TextDecoder().decode(out.stderr);
  assert.ok(out.success, `the scenarios failed: ${err}`);
  const lines = new TextDecoder().decode(out.stdout).trim().split("\n");
  const byName: Record<string, Record<string, unknown>> = {};
  for (const l of lines.filter((l) => l.startsWith("{"))) {
    const r = JSON.parse(l);
    byName[r.scenario] = r;
  }
  return byName;
}

let results: Promise<Record<string, Record<string, unknown>>> | null = null;
const run = () => results ??= scenarios();

Deno.test({
  name:
    "cluster.enums.discovery-type: ORIGINAL_DST behind the original_dst listener filter reaches the destination a netfilter-redirected client addressed (SO_ORIGINAL_DST), in a network namespace",
  ignore: !usable,
  async fn() {
    const r = (await run()).filter;
    // Each client reached the origin it addressed, through the proxy (which saw the original
    // destination as its local address), and the cluster made one host per destination.
    assert.deepEqual(r.bodies, ["o8000", "o8001", "o8000", "o8001"]);
    assert.deepEqual(r.hosts, ["127.0.0.1:8000", "127.0.0.1:8001"]);
    assert.deepEqual(r.log, [
      "127.0.0.1:8000",
      "127.0.0.1:8001",
      "127.0.0.1:8000",
      "127.0.0.1:8001",
    ]);
  },
});

Deno.test({
  name:
    "Listener.use_original_dst: a redirected connection goes to the listener bound to its original destination, else stays (ORIGINAL_DST to the destination), in a network namespace",
  ignore: !usable,
  async fn() {
    const r = (await run()).handoff;
    // To :8000 no listener is bound: the receiving listener serves it, to the original
    // destination; to :8002 the listener bound there answers itself.
    assert.deepEqual(r.bodies, ["o8000", "listener-8002", "listener-8002"]);
    assert.deepEqual(r.cx, { [PROXY_PORT]: 3, [HANDOFF_PORT]: 2 });
  },
});

Deno.test("Listener.use_original_dst: without the ffi permission (no way to read SO_ORIGINAL_DST) it and the original_dst filter are refused with their paths, never ignored", async () => {
  const listener = {
    name: "l",
    use_original_dst: true,
    address: { socket_address: { address: "127.0.0.1", port_value: 0 } },
    listener_filters: [{ name: "envoy.filters.listener.original_dst" }],
    filter_chains: [{
      filters: [{
        name: "envoy.filters.network.tcp_proxy",
        typed_config: {
          "@type": "type.googleapis.com/envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy",
          stat_prefix: "t",
          cluster: "c",
        },
      }],
    }],
  };
  const cluster = {
    name: "c",
    connect_timeout: "1s",
    load_assignment: { cluster_name: "c", endpoints: [] },
  };
  const config = JSON.stringify({
    static_resources: { listeners: [listener], clusters: [cluster] },
  });
  const mod = new URL("../../mod.ts", import.meta.url).pathname;
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-read",
      "--allow-env",
      "--allow-sys",
      "--allow-net",
      mod,
      "--mode",
      "validate",
      "--config-yaml",
      config,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 1, text);
  for (const path of ["listener_filters[0].name", "use_original_dst"]) {
    assert.match(
      text,
      new RegExp(
        `static_resources\\.listeners\\[0\\]\\.${
          path.replace(/[[\].]/g, "\\$&")
        }: the original destination \\(SO_ORIGINAL_DST\\) is read through the C library`,
      ),
    );
  }
});

Deno.test("Listener.listener_filters: settings of a listener filter (typed_config fields, filter_disabled) are refused with their paths, never dropped", () => {
  const errors: Errors = [];
  parseListenerFilters(
    {
      listener_filters: [
        {
          name: "envoy.filters.listener.tls_inspector",
          typed_config: {
            "@type":
              "type.googleapis.com/envoy.extensions.filters.listener.tls_inspector.v3.TlsInspector",
            enable_ja3_fingerprinting: true,
          },
        },
        { name: "envoy.filters.listener.http_inspector", filter_disabled: { any_match: true } },
      ],
    },
    "l",
    errors,
  );
  assert.deepEqual(errors.map((e) => `${e.path}: ${e.message}`), [
    "l.listener_filters[0].typed_config.enable_ja3_fingerprinting: enable_ja3_fingerprinting is not supported by this build",
    "l.listener_filters[1].filter_disabled: filter_disabled is not supported by this build",
  ]);
});
