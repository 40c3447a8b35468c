import assert from "node:assert/strict";
import { fileSourceOf } from "../upstream/eds_source.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const MOD = ROOT + "mod.ts";

async function run(args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", MOD, ...args],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
}

const HCM = {
  name: "envoy.filters.network.http_connection_manager",
  typed_config: {
    "@type":
      "type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager",
    stat_prefix: "x",
    route_config: {
      virtual_hosts: [{
        name: "a",
        domains: ["*"],
        routes: [{ match: { prefix: "/" }, direct_response: { status: 200 } }],
      }],
    },
  },
};

function bootstrap(listenerAddress: unknown, hostAddress: unknown, extra = {}) {
  return {
    admin: { address: { socket_address: { address: "127.0.0.1", port_value: 0 } } },
    static_resources: {
      listeners: [{ name: "l1", address: listenerAddress, filter_chains: [{ filters: [HCM] }] }],
      clusters: [{
        name: "c",
        connect_timeout: "1s",
        load_assignment: {
          cluster_name: "c",
          endpoints: [{ lb_endpoints: [{ endpoint: { address: hostAddress } }] }],
        },
        ...extra,
      }],
    },
  };
}

const tcp = (port: number) => ({ socket_address: { address: "127.0.0.1", port_value: port } });

async function validate(b: unknown): Promise<{ code: number; stderr: string }> {
  const f = await Deno.makeTempFile({ suffix: ".json" });
  try {
    await Deno.writeTextFile(f, JSON.stringify(b));
    return await run(["--mode", "validate", "-c", f]);
  } finally {
    await Deno.remove(f);
  }
}

Deno.test("errors.validate-errors: a negative port and one above 65535 are reported against the same range", async () => {
  const [neg, big] = await Promise.all([
    validate(bootstrap(tcp(0), tcp(-1))),
    validate(bootstrap(tcp(0), tcp(70000))),
  ]);
  assert.equal(neg.code, 1);
  assert.equal(big.code, 1);
  assert.match(neg.stderr, /port_value: value must be inside range \[0, 65535\] \(got -1\)/);
  assert.match(big.stderr, /port_value: value must be inside range \[0, 65535\] \(got 70000\)/);
  assert.doesNotMatch(neg.stderr, /4294967295/);
});

Deno.test("errors.validate-errors: a Unix pipe listener is refused once, as a pipe, not as a missing socket address", async () => {
  const r = await validate(bootstrap({ pipe: { path: "/tmp/proxyspec-l.sock" } }, tcp(80)));
  assert.equal(r.code, 1);
  assert.match(r.stderr, /listeners\[0\]\.address\.pipe: pipe is not supported by this build/);
  assert.doesNotMatch(r.stderr, /needs address\.socket_address|has no valid port/);
});

Deno.test("a config source that needs a control plane is named without a broken article", () => {
  for (const kind of ["api_config_source", "ads", "self"]) {
    const r = fileSourceOf({ [kind]: {} }, "cds_config");
    assert.equal(r.ok, false);
    if (!r.ok) {
      assert.equal(r.at, `cds_config.${kind}`);
      assert.equal(
        r.message,
        `${kind} needs a control-plane connection, which is not implemented yet; use a ` +
          "filesystem config source (path)",
      );
    }
  }
});

Deno.test("a listener that cannot bind is reported as a start failure naming the listener and address", async () => {
  const busy = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (busy.addr as Deno.NetAddr).port;
  const f = await Deno.makeTempFile({ suffix: ".json" });
  try {
    await Deno.writeTextFile(f, JSON.stringify(bootstrap(tcp(port), tcp(80))));
    const r = await run(["-c", f]);
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      new RegExp(
        `error starting with configuration '${f}': listener 'l1': cannot bind '127\\.0\\.0\\.1:${port}': `,
      ),
    );
    assert.doesNotMatch(r.stderr, /error initializing configuration/);
  } finally {
    busy.close();
    await Deno.remove(f);
  }
});
