import assert from "node:assert/strict";
import fc from "fast-check";
import { parseArgs } from "./args.ts";
import type { JsonObject } from "./bootstrap_types.ts";
import { formatOf, loadBootstrap } from "./bootstrap.ts";
import { mergeProto3Json } from "./merge.ts";
import { parseDuration } from "./bootstrap_check.ts";
import { canonicalFilterName } from "./filter_names.ts";
import { PROTOBUF } from "./protobuf_module.ts";

// .pb and .pb_text bootstraps decode with the protobuf runtime, which the command line loads first.
await PROTOBUF.load();

const FIX = new URL("../../fixtures/bootstrap/", import.meta.url).pathname;
const load = (...argv: string[]) => loadBootstrap(parseArgs(argv));
const obj = (v: unknown) => v as JsonObject;

Deno.test("cli.options.config-path: the suffix selects the reader", () => {
  assert.equal(formatOf("a.yaml"), "yaml");
  assert.equal(formatOf("a.YML"), "yaml");
  assert.equal(formatOf("a.pb"), "pb");
  assert.equal(formatOf("a.pb_text"), "pb_text");
  assert.equal(formatOf("a.json"), "json");
  assert.equal(formatOf("a.conf"), "json");
});

Deno.test("cli.options.config-path: YAML, JSON, binary and text proto fixtures load", () => {
  for (const f of ["valid_v2.yaml", "valid_v3.yaml", "valid.json", "valid.pb", "valid.pb_text"]) {
    const r = load("-c", FIX + f);
    assert.deepEqual(r.errors, [], f);
  }
  const json = load("-c", FIX + "valid.json").bootstrap;
  assert.deepEqual(json.admin?.address, {
    socket_address: { address: "127.0.0.1", port_value: 0 },
  });
  const pb = load("-c", FIX + "valid.pb").bootstrap;
  assert.equal(pb.node?.id, "pb-node");
  assert.equal(pb.node?.locality?.zone, "zone-pb");
  assert.equal(pb.stats_flush_interval, "3s");
  assert.equal(pb.admin?.address?.socket_address?.address, "127.0.0.1");
  const text = load("-c", FIX + "valid.pb_text").bootstrap;
  assert.equal(text.stats_flush_interval, "2.5s");
  assert.deepEqual(text.node?.metadata, { team: "edge" });
  assert.deepEqual(text.layered_runtime?.layers?.[0], {
    name: "static",
    static_layer: { "a.b": 3 },
  });
});

Deno.test("cli.options.config-path: an undescribed message in a .pb file is an error naming it", () => {
  const r = load("-c", FIX + "undescribed.pb");
  assert.equal(r.errors.length, 1);
  assert.match(
    r.errors[0].message,
    /message envoy\.api\.v2\.auth\.UpstreamTlsContext is not described; use YAML or JSON/,
  );
  assert.equal(r.errors[0].path, FIX + "undescribed.pb");
});

Deno.test("cli.options.config-path: unreadable and malformed files are errors with the file's name", () => {
  const missing = load("-c", FIX + "nope.yaml");
  assert.equal(missing.errors[0].path, FIX + "nope.yaml");
  assert.match(missing.errors[0].message, /no such file/);
  const dir = Deno.makeTempDirSync();
  try {
    // Written here rather than kept as a fixture: `deno fmt --check` rejects invalid YAML files.
    Deno.writeTextFileSync(`${dir}/bad.yaml`, "admin: {address: [unclosed\n");
    Deno.writeTextFileSync(`${dir}/bad.json`, '{"admin": }');
    const syntax = load("-c", `${dir}/bad.yaml`);
    assert.equal(syntax.errors[0].path, `${dir}/bad.yaml`);
    assert.match(syntax.errors[0].message, /\(2:1\)/);
    const json = load("-c", `${dir}/bad.json`);
    assert.equal(json.errors[0].path, `${dir}/bad.json`);
    assert.match(json.errors[0].message, /JSON/);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
  const list = load("--config-yaml", "[1, 2]");
  assert.match(list.errors[0].message, /must be an object/);
});

Deno.test("cli.constraints.config-required: no config path and no YAML is an error", () => {
  const r = load();
  assert.equal(r.errors[0].rule, "cli.constraints.config-required");
});

Deno.test("cli.options.config-yaml: merged over the file: objects merge, lists append, scalars overwrite", () => {
  const r = load(
    "-c",
    FIX + "valid_v3.yaml",
    "--config-yaml",
    "{node: {id: over}, static_resources: {clusters: [{name: extra, connect_timeout: 1s}]}, admin: {address: {socket_address: {port_value: 9}}}}",
  );
  assert.deepEqual(r.errors, []);
  assert.equal(r.bootstrap.node?.id, "over");
  assert.equal(r.bootstrap.node?.cluster, "service-a");
  assert.deepEqual(r.bootstrap.static_resources?.clusters?.map((c) => c.name), [
    "backend",
    "extra",
  ]);
  assert.deepEqual(r.bootstrap.admin?.address?.socket_address, {
    address: "127.0.0.1",
    port_value: 9,
  });
});

Deno.test("cli.options.config-yaml: merge properties", () => {
  const json = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: "small" },
      fc.integer(),
      fc.string(),
      fc.boolean(),
      tie("obj"),
      tie("arr"),
    ),
    obj: fc.dictionary(fc.constantFrom("a", "b", "c"), tie("value"), { maxKeys: 3 }),
    arr: fc.array(tie("value"), { maxLength: 3 }),
  }));
  fc.assert(fc.property(json.obj, json.obj, (a, b) => {
    const m = obj(mergeProto3Json(a as JsonObject, b as JsonObject));
    for (const k of Object.keys(b as object)) assert.ok(k in m); // nothing of the override is lost
    for (const k of Object.keys(a as object)) assert.ok(k in m); // nothing of the base is lost
    assert.deepEqual(mergeProto3Json(a as JsonObject, {}), a);
  }));
  assert.deepEqual(mergeProto3Json({ l: [1], s: 1, o: { x: 1 } }, { l: [2], s: 0, o: { y: 2 } }), {
    l: [1, 2],
    s: 0,
    o: { x: 1, y: 2 },
  });
});

Deno.test("versioning.bootstrap-version: without it a v2 bootstrap loads as v2 and is upgraded", () => {
  const r = load("-c", FIX + "valid_v2.yaml");
  assert.equal(r.version, 2);
  const c = obj(r.bootstrap.static_resources?.clusters?.[0]);
  assert.ok(Array.isArray(c.hosts), "hosts stay readable");
  assert.deepEqual(c.load_assignment, {
    cluster_name: "backend",
    endpoints: [{
      lb_endpoints: [{
        endpoint: { address: { socket_address: { address: "127.0.0.1", port_value: 8080 } } },
      }],
    }],
  });
  const l = obj(r.bootstrap.static_resources?.listeners?.[0]);
  const f = obj(obj((l.filter_chains as JsonObject[])[0]).filters as unknown as JsonObject[]);
  const hcm = obj((f as unknown as JsonObject[])[0]);
  assert.equal(hcm.name, "envoy.http_connection_manager");
  assert.equal(hcm.config, undefined);
  const typed = obj(hcm.typed_config);
  assert.equal(
    typed["@type"],
    "type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager",
  );
  assert.equal(typed.stat_prefix, "ingress_http");
  assert.equal(obj((typed.http_filters as JsonObject[])[0]).name, "envoy.router");
});

Deno.test("cli.options.bootstrap-version: tls_context is upgraded to transport_socket and kept", () => {
  const r = load(
    "--config-yaml",
    "static_resources: {clusters: [{name: t, connect_timeout: 1s, tls_context: {sni: x}}]}",
  );
  const c = obj(r.bootstrap.static_resources?.clusters?.[0]);
  assert.deepEqual(c.tls_context, { sni: "x" });
  assert.equal(obj(c.transport_socket).name, "envoy.transport_sockets.tls");
  assert.equal(obj(obj(c.transport_socket).typed_config).sni, "x");
});

Deno.test("cli.options.bootstrap-version: a v3-only field makes the loader fall back to v3", () => {
  const r = load("-c", FIX + "valid_v3.yaml");
  assert.deepEqual(r.errors, []);
  assert.equal(r.version, 3);
  assert.equal(r.bootstrap.stats_flush_on_admin, true);
  const v2only = load("-c", FIX + "valid_v3.yaml", "--bootstrap-version", "2");
  assert.equal(v2only.errors[0].path, "stats_flush_on_admin");
});

Deno.test("cli.options.bootstrap-version: with 3, v2-only cluster fields are unknown fields", () => {
  const r = load("-c", FIX + "valid_v2.yaml", "--bootstrap-version", "3");
  assert.deepEqual(r.errors.map((e) => e.path), ["static_resources.clusters[0].hosts"]);
  assert.equal(r.errors[0].rule, "errors.unknown-static-fields");
});

Deno.test("errors.unknown-static-fields: unknown static fields are rejected with their path by default", () => {
  const r = load("-c", FIX + "unknown_field.yaml");
  assert.deepEqual(r.errors, [{
    path: "static_resources.listeners[0].foo",
    rule: "errors.unknown-static-fields",
    message: "unknown field",
  }]);
});

Deno.test("cli.options.allow-unknown-static-fields: with the flag they are accepted, dropped, warned once and counted", () => {
  for (const flag of ["--allow-unknown-static-fields", "--allow-unknown-fields"]) {
    const r = load("-c", FIX + "unknown_field.yaml", flag, "--config-yaml", "admin: {bogus: 1}");
    assert.deepEqual(r.errors, []);
    assert.deepEqual([...r.unknownFields].sort(), [
      "admin.bogus",
      "static_resources.listeners[0].foo",
    ]);
    assert.equal(r.warnings.length, 2);
    assert.ok(r.warnings.some((w) => w.includes("static_resources.listeners[0].foo")));
    assert.equal(obj(r.bootstrap.static_resources?.listeners?.[0]).foo, undefined);
  }
});

Deno.test("cli.options.allow-unknown-fields: in the v2 variant it disables unknown-field validation", () => {
  const r = loadBootstrap(
    parseArgs(["-c", FIX + "unknown_field.yaml", "--allow-unknown-fields"], { variant: "v2" }),
  );
  assert.deepEqual(r.errors, []);
});

Deno.test("cli.options.service-cluster: --service-cluster, --service-node and --service-zone override node", () => {
  const r = load(
    "-c",
    FIX + "valid_v2.yaml",
    "--service-cluster",
    "c2",
    "--service-node",
    "n2",
    "--service-zone",
    "z2",
  );
  assert.equal(r.bootstrap.node?.cluster, "c2");
  assert.equal(r.bootstrap.node?.id, "n2");
  assert.equal(r.bootstrap.node?.locality?.zone, "z2");
  const none = load("--config-yaml", "{}", "--service-zone", "z");
  assert.deepEqual(none.bootstrap.node, { locality: { zone: "z" } });
});

Deno.test("cli.options.config-path: durations are proto3 JSON strings; a malformed one is an error with its path", () => {
  assert.equal(parseDuration("0.25s"), 250);
  assert.equal(parseDuration("1.000000001s"), 1000.000001);
  assert.equal(parseDuration("-2s"), -2000);
  for (const bad of ["5", "5ms", "1.5 s", "s", "0.1234567891s"]) {
    assert.equal(parseDuration(bad), null, bad);
  }
  const r = load("-c", FIX + "bad_duration.yaml");
  assert.equal(r.errors[0].path, "stats_flush_interval");
  assert.match(r.errors[0].message, /invalid duration "5 seconds"/);
});

Deno.test("cli.options.config-path: values of the wrong kind are errors with their path", () => {
  const r = load(
    "--config-yaml",
    "{admin: {address: {socket_address: {address: 1, port_value: -1, protocol: SCTP}}}, node: []}",
  );
  assert.deepEqual(r.errors.map((e) => e.path).sort(), [
    "admin.address.socket_address.address",
    "admin.address.socket_address.port_value",
    "admin.address.socket_address.protocol",
    "node",
  ]);
});

Deno.test("cli.options.config-path: published bounds of described fields are checked", () => {
  const r = load(
    "--config-yaml",
    "{stats_flush_interval: 300s, admin: {address: {socket_address: {address: '', port_value: 65536}}}, layered_runtime: {layers: [{name: ''}]}}",
  );
  assert.deepEqual(r.errors.map((e) => e.path), [
    "stats_flush_interval",
    "admin.address.socket_address.address",
    "admin.address.socket_address.port_value",
    "layered_runtime.layers[0].name",
  ]);
  assert.deepEqual(load("--config-yaml", "stats_flush_interval: 0.001s").errors, []);
});

Deno.test("cli.options.config-path: lowerCamelCase JSON names are accepted and normalised", () => {
  const r = load(
    "--config-yaml",
    '{"staticResources": {"clusters": []}, "statsFlushInterval": "1s"}',
  );
  assert.deepEqual(r.errors, []);
  assert.deepEqual(r.bootstrap.static_resources, { clusters: [] });
  assert.equal(r.bootstrap.stats_flush_interval, "1s");
});

Deno.test("cli.options.config-path: filter names with envoy. and proxy. prefixes have one canonical spelling", () => {
  assert.equal(
    canonicalFilterName("envoy.http_connection_manager"),
    "proxy.filters.network.http_connection_manager",
  );
  assert.equal(
    canonicalFilterName("proxy.filters.network.http_connection_manager"),
    "proxy.filters.network.http_connection_manager",
  );
  assert.equal(
    canonicalFilterName("envoy.filters.http.router"),
    canonicalFilterName("proxy.router"),
  );
  assert.equal(canonicalFilterName("custom.filter"), "custom.filter");
});

Deno.test("cli.options.config-yaml: any YAML value loads or reports errors, never throws", () => {
  const keys = fc.constantFrom(
    "admin",
    "node",
    "static_resources",
    "clusters",
    "listeners",
    "address",
    "socket_address",
    "port_value",
    "id",
    "layered_runtime",
    "layers",
    "stats_flush_interval",
    "x",
  );
  const value = fc.letrec((tie) => ({
    v: fc.oneof(
      { depthSize: "small" },
      fc.integer(),
      fc.string(),
      fc.boolean(),
      fc.constant(null),
      tie("o"),
      tie("a"),
    ),
    o: fc.dictionary(keys, tie("v"), { maxKeys: 4 }),
    a: fc.array(tie("v"), { maxLength: 3 }),
  }));
  fc.assert(
    fc.property(value.v, fc.boolean(), (v, allow) => {
      const argv = ["--config-yaml", JSON.stringify(v)];
      if (allow) argv.push("--allow-unknown-static-fields");
      const r = loadBootstrap(parseArgs(argv));
      for (const e of r.errors) assert.ok(typeof e.path === "string" && e.message.length > 0);
    }),
    { numRuns: 300 },
  );
});
