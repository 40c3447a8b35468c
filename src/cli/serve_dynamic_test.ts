import assert from "node:assert/strict";
import { parseArgs } from "../config/args.ts";
import type { Bootstrap } from "../config/bootstrap_types.ts";
import { createLogging } from "../server/logger.ts";
import { startServer } from "../server/server.ts";
import { ADMIN } from "../admin/mod.ts";

// An EDS cluster fed from a file whose assignment carries one unknown field (`weight_hint`).
const ENDPOINTS = `version_info: "v7"
resources:
  - "@type": type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment
    cluster_name: backend
    endpoints:
      - lb_endpoints:
          - endpoint: { address: { socket_address: { address: 127.0.0.1, port_value: 18081 } } }
            weight_hint: 3
`;

function bootstrap(path: string): Bootstrap {
  return {
    admin: { address: { socket_address: { address: "127.0.0.1", port_value: 0 } } },
    static_resources: {
      clusters: [{
        name: "web",
        connect_timeout: "1s",
        type: "EDS",
        eds_cluster_config: { service_name: "backend", eds_config: { path } },
      }],
    },
  };
}

async function run(flags: string[], check: (base: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "proxyspec_dynamic_" });
  const file = `${dir}/eds.yaml`;
  await Deno.writeTextFile(file, ENDPOINTS);
  const options = parseArgs(["--config-yaml", "{}", ...flags]);
  const logging = createLogging(options, {
    sink: { write() {}, reopen: () => Promise.resolve(), close() {} },
  });
  const running = await startServer(options, bootstrap(file), {
    signals: false,
    admin: ADMIN,
    logging,
  });
  try {
    await check(`http://${running.adminAddress}`);
  } finally {
    await running.shutdown();
    await running.finished;
    logging.close();
    await Deno.remove(dir, { recursive: true });
  }
}

async function stat(base: string, name: string): Promise<string> {
  const body = await (await fetch(`${base}/stats?filter=^${name}$`)).text();
  return body.trim();
}

Deno.test("errors.unknown-dynamic-fields: accepted by default, warned and counted in server.dynamic_unknown_fields", async () => {
  await run([], async (base) => {
    assert.equal(
      await stat(base, "server.dynamic_unknown_fields"),
      "server.dynamic_unknown_fields: 1",
    );
    const clusters = await (await fetch(`${base}/clusters`)).text();
    assert.match(clusters, /^web::127\.0\.0\.1:18081::health_flags::healthy$/m);
    // /config_dump?include_eds shows the assignment as a dynamic endpoint config with its version.
    const dump = await (await fetch(`${base}/config_dump?include_eds`)).json();
    const eds = dump.configs.find((c: { "@type": string }) =>
      c["@type"].endsWith("EndpointsConfigDump")
    );
    assert.equal(eds.dynamic_endpoint_configs.length, 1);
    assert.equal(eds.dynamic_endpoint_configs[0].version_info, "v7");
    assert.equal(eds.dynamic_endpoint_configs[0].endpoint_config.cluster_name, "backend");
    assert.equal(eds.static_endpoint_configs, undefined);
  });
});

Deno.test("cli.options.reject-unknown-dynamic-fields: the update is rejected and nothing is served", async () => {
  await run(["--reject-unknown-dynamic-fields"], async (base) => {
    assert.equal(await stat(base, "cluster.web.update_rejected"), "cluster.web.update_rejected: 1");
    const clusters = await (await fetch(`${base}/clusters`)).text();
    assert.doesNotMatch(clusters, /18081/);
  });
});

Deno.test("cli.options.ignore-unknown-dynamic-fields: accepted with no count", async () => {
  await run(["--ignore-unknown-dynamic-fields"], async (base) => {
    assert.equal(
      await stat(base, "server.dynamic_unknown_fields"),
      "server.dynamic_unknown_fields: 0",
    );
    const clusters = await (await fetch(`${base}/clusters`)).text();
    assert.match(clusters, /18081/);
  });
});
