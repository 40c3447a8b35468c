import assert from "node:assert/strict";
import { OPTIONS } from "../../spec/cli/options.ts";
import { call, testCluster, testContext, testListener } from "./testing_context.ts";
import { certificateDetails } from "../server/certs.ts";

const CERT = new URL("../../fixtures/admin/cert.pem", import.meta.url).pathname;

Deno.test("admin.endpoints.server_info, admin.resources.server_info.version, admin.resources.server_info.state, admin.resources.server_info.command_line_options, admin.resources.server_info.uptime_current_epoch, admin.resources.server_info.uptime_all_epochs, admin.resources.server_info.node: /server_info has every field", async () => {
  const ctx = testContext({
    argv: ["--config-yaml", "{}", "--service-node", "n1", "--drain-time-s", "30"],
  });
  const res = await call(ctx, "GET", "/server_info");
  assert.equal(res.headers.get("content-type"), "application/json");
  const body = await res.json();
  assert.equal(body.version.split("/").length, 5);
  assert.equal(body.state, "LIVE");
  assert.match(body.uptime_current_epoch, /^\d+s$/);
  assert.match(body.uptime_all_epochs, /^\d+s$/);
  for (const row of OPTIONS) {
    if ("field" in row && row.field) assert.ok(row.field in body.command_line_options, row.field);
  }
  assert.equal(body.command_line_options.drain_time, "30s");
  // cli.options.mode: the mode renders as its proto enum name, from the row's fieldValues.
  assert.equal(body.command_line_options.mode, "Serve");
  assert.equal(body.command_line_options.concurrency, ctx.options.concurrency);
  assert.equal(body.node.id, "n1");
  assert.equal(body.node.user_agent_name, "proxyspec");
  assert.deepEqual(Object.keys(body.node.user_agent_build_version.version), [
    "major_number",
    "minor_number",
    "patch",
  ]);
  for (const k of ["metadata", "extensions", "client_features", "listening_addresses", "cluster"]) {
    assert.ok(k in body.node, k);
  }
});

Deno.test("admin.endpoints.ready, errors.ready-live, errors.ready-not-live, admin.states.server-live-ready: /ready is 200 only when LIVE", async () => {
  const ctx = testContext();
  let res = await call(ctx, "GET", "/ready");
  assert.equal(res.status, 200);
  assert.equal(await res.text(), "LIVE\n");
  for (const state of ["PRE_INITIALIZING", "INITIALIZING"] as const) {
    ctx.phase = state;
    res = await call(ctx, "GET", "/ready");
    assert.equal(res.status, 503);
    assert.equal(await res.text(), `${state}\n`);
  }
});

Deno.test("admin.endpoints.hot_restart_version, versioning.hot-restart-version: /hot_restart_version is the bare version", async () => {
  const ctx = testContext();
  const res = await call(ctx, "GET", "/hot_restart_version");
  assert.equal(await res.text(), ctx.hotRestartVersion);
});

Deno.test("admin.endpoints.memory: /memory gives Envoy's fields as uint64 strings", async () => {
  const body = await (await call(testContext(), "GET", "/memory")).json();
  for (
    const k of [
      "allocated",
      "heap_size",
      "pageheap_unmapped",
      "pageheap_free",
      "total_thread_cache",
      "total_physical_bytes",
    ]
  ) {
    assert.match(body[k], /^\d+$/, k);
  }
  assert.ok(Number(body.allocated) > 0);
});

Deno.test("admin.endpoints.certs, admin.resources.certs.listing: /certs lists cluster and listener certificates", async () => {
  const tls = {
    common_tls_context: {
      tls_certificates: [{ certificate_chain: { filename: CERT } }],
      validation_context: { trusted_ca: { inline_string: Deno.readTextFileSync(CERT) } },
    },
  };
  const ctx = testContext({
    clusters: [
      testCluster("c", [], {
        transport_socket: { name: "proxy.transport_sockets.tls", typed_config: tls },
      }),
    ],
    listeners: [testListener("l", 443, "INBOUND", { filter_chains: [{ tls_context: tls }] })],
  });
  const res = await call(ctx, "GET", "/certs");
  assert.equal(res.headers.get("content-type"), "application/json");
  const text = await res.text();
  assert.ok(text.includes('"path": "\\u003cinline\\u003e"'));
  const body = JSON.parse(text);
  assert.equal(body.certificates.length, 2);
  const chain = body.certificates[0].cert_chain[0];
  assert.equal(chain.path, CERT);
  assert.match(chain.serial_number, /^[0-9a-f]+$/);
  assert.deepEqual(chain.subject_alt_names, [
    { dns: "admin.test" },
    { uri: "spiffe://proxyspec/admin" },
    { ip_address: "127.0.0.1" },
  ]);
  assert.match(chain.days_until_expiration, /^\d+$/);
  assert.match(chain.valid_from, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.match(chain.expiration_time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.equal(body.certificates[0].ca_cert[0].path, "<inline>");
  assert.equal(certificateDetails({ filename: "/nonexistent.pem" }, 0), null);
  const empty = await (await call(testContext(), "GET", "/certs")).text();
  assert.equal(empty, '{\n "certificates": []\n}\n');
});
