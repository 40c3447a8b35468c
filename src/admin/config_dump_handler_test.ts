import assert from "node:assert/strict";
import { call, testCluster, testContext, testListener } from "./testing_context.ts";
import { applyMask, parseMask } from "./field_mask.ts";
import { redact } from "./config_redact.ts";
import { InitManagers } from "../server/init_manager.ts";

const ADMIN = "type.googleapis.com/envoy.admin.v3.";

function ctx() {
  return testContext({
    bootstrap: {
      node: { id: "n" },
      static_resources: {
        secrets: [{
          name: "server_cert",
          tls_certificate: {
            certificate_chain: { filename: "/c.pem" },
            private_key: { inline_string: "-----BEGIN PRIVATE KEY-----secret" },
            password: { inline_bytes: "c2VjcmV0" },
          },
        }],
      },
    },
    clusters: [testCluster("alpha", []), testCluster("beta", [])],
    listeners: [testListener("l0", 10000, "INBOUND", {
      filter_chains: [{
        filters: [{
          name: "proxy.filters.network.http_connection_manager",
          typed_config: { route_config: { name: "r0" } },
        }],
      }],
    })],
  });
}

Deno.test("admin.endpoints.config_dump, versioning.config-dump-v2alpha: every dump in Envoy's order, secrets redacted", async () => {
  const res = await call(ctx(), "GET", "/config_dump");
  assert.equal(res.headers.get("content-type"), "application/json");
  const text = await res.text();
  assert.ok(text.startsWith('{\n "configs": [\n  {\n   "@type"'));
  const body = JSON.parse(text);
  assert.deepEqual(body.configs.map((c: { "@type": string }) => c["@type"].slice(ADMIN.length)), [
    "BootstrapConfigDump",
    "ClustersConfigDump",
    "ListenersConfigDump",
    "ScopedRoutesConfigDump",
    "RoutesConfigDump",
    "SecretsConfigDump",
  ]);
  assert.equal(body.configs[1].static_clusters[1].cluster.name, "beta");
  assert.equal(body.configs[4].static_route_configs[0].route_config.name, "r0");
  const secret = body.configs[5].static_secrets[0].secret.tls_certificate;
  assert.deepEqual(secret.private_key, { inline_string: "[redacted]" });
  assert.deepEqual(secret.password, { inline_bytes: "[redacted]" });
  assert.deepEqual(secret.certificate_chain, { filename: "/c.pem" });
  assert.ok(!text.includes("BEGIN PRIVATE KEY") && !text.includes("c2VjcmV0"));
  const bootstrapKey =
    body.configs[0].bootstrap.static_resources.secrets[0].tls_certificate.private_key;
  assert.deepEqual(bootstrapKey, { inline_string: "[redacted]" });
});

Deno.test("admin.endpoints.config_dump-include_eds: include_eds adds the endpoints dump", async () => {
  const body = await (await call(ctx(), "GET", "/config_dump?include_eds")).json();
  assert.equal(body.configs.length, 7);
  assert.equal(body.configs[2]["@type"], `${ADMIN}EndpointsConfigDump`);
  assert.equal(body.configs[2].static_endpoint_configs[0].endpoint_config.cluster_name, "alpha");
});

Deno.test("admin.endpoints.config_dump-mask: the mask applies to each top-level dump", async () => {
  const body = await (await call(ctx(), "GET", "/config_dump?mask=static_clusters")).json();
  assert.deepEqual(Object.keys(body.configs[1]), ["@type", "static_clusters"]);
  assert.deepEqual(body.configs[0], { "@type": `${ADMIN}BootstrapConfigDump` });
});

Deno.test("admin.endpoints.config_dump-resource: a repeated field, each element packed; errors 404 and 400", async () => {
  const c = ctx();
  const body = await (await call(c, "GET", "/config_dump?resource=static_listeners")).json();
  assert.equal(body.configs.length, 1);
  assert.equal(body.configs[0]["@type"], `${ADMIN}ListenersConfigDump.StaticListener`);
  assert.equal(body.configs[0].listener.name, "l0");
  const nf = await call(c, "GET", "/config_dump?resource=foo");
  assert.equal(nf.status, 404);
  assert.equal(await nf.text(), "foo not found in config dump");
  const nr = await call(c, "GET", "/config_dump?resource=version_info");
  assert.equal(nr.status, 400);
  assert.equal(
    await nr.text(),
    "version_info is not a repeated field. Use ?mask=version_info to get only this field",
  );
  const plain = await (await call(c, "GET", "/config_dump?resource=&mask=&name_regex=")).json();
  assert.equal(plain.configs.length, 6);
});

Deno.test("admin.endpoints.config_dump-resource-mask: the mask applies to each element and reaches inside the packed cluster", async () => {
  const body =
    await (await call(ctx(), "GET", "/config_dump?resource=static_clusters&mask=cluster.name"))
      .json();
  assert.deepEqual(body.configs[0], {
    "@type": `${ADMIN}ClustersConfigDump.StaticCluster`,
    cluster: { "@type": "type.googleapis.com/envoy.config.cluster.v3.Cluster", name: "alpha" },
  });
});

Deno.test("admin.endpoints.config_dump-name_regex: filters by resource name; an invalid regex is 400", async () => {
  const c = ctx();
  const body = await (await call(c, "GET", "/config_dump?resource=static_clusters&name_regex=b.*"))
    .json();
  assert.deepEqual(body.configs.map((x: { cluster: { name: string } }) => x.cluster.name), [
    "beta",
  ]);
  const bad = await call(c, "GET", "/config_dump?name_regex=[");
  assert.equal(bad.status, 400);
  assert.ok((await bad.text()).startsWith("Error while parsing name_regex"));
});

Deno.test("admin.endpoints.config_dump-name_regex: linear-time engine; a 33,000-character pattern is a 400 naming the limit", async () => {
  const c = ctx();
  const bomb = await call(
    c,
    "GET",
    `/config_dump?resource=static_clusters&name_regex=${encodeURIComponent("(.|.|.|.|.|.|.|.)*Z")}`,
  );
  assert.equal(bomb.status, 200);
  const dumped = await bomb.text();
  assert.ok(!dumped.includes("alpha") && !dumped.includes("beta"));
  const long = await call(c, "GET", `/config_dump?name_regex=${"a".repeat(33_000)}`);
  assert.equal(long.status, 400);
  const text = await long.text();
  assert.match(text, /^Error while parsing name_regex/);
  assert.match(text, /the limit is 1024/);
  assert.ok(text.length < 300);
});

Deno.test("admin.endpoints.config_dump-mask: field masks and redaction helpers", () => {
  assert.deepEqual(parseMask("a.b, c,,"), [["a", "b"], ["c"]]);
  assert.deepEqual(
    applyMask({ "@type": "T", a: { b: 1, c: 2 }, d: 3, e: [1] }, parseMask("a.b,e.x")),
    {
      "@type": "T",
      a: { b: 1 },
    },
  );
  assert.deepEqual(redact({ x: { private_key: "k", password: { filename: "/p" } } }), {
    x: { private_key: "[redacted]", password: { filename: "/p" } },
  });
});

Deno.test("admin.endpoints.init_dump, admin.endpoints.init_dump-mask: unready targets per init manager; none once LIVE", async () => {
  const c = ctx();
  assert.equal(await (await call(c, "GET", "/init_dump")).text(), "{}\n");
  const init = new InitManagers();
  const server = init.create("server", "Server");
  const cluster = server.add("cluster alpha");
  const l0 = init.create("listener", "Listener l0").add("listener l0");
  init.initialize(() => c.phase = "LIVE");
  c.init = init;
  c.phase = "INITIALIZING";
  const all = await call(c, "GET", "/init_dump");
  assert.equal(all.headers.get("content-type"), "application/json");
  assert.equal(
    await all.text(),
    `{
 "unready_targets_dumps": [
  {
   "name": "init manager Server",
   "target_names": [
    "target cluster alpha"
   ]
  },
  {
   "name": "init manager Listener l0",
   "target_names": [
    "target listener l0"
   ]
  }
 ]
}
`,
  );
  const body = await (await call(c, "GET", "/init_dump?mask=listener")).json();
  assert.deepEqual(body.unready_targets_dumps, [
    { name: "init manager Listener l0", target_names: ["target listener l0"] },
  ]);
  assert.equal(
    (await (await call(c, "GET", "/init_dump?mask=")).json()).unready_targets_dumps.length,
    2,
  );
  assert.equal(await (await call(c, "GET", "/init_dump?mask=cluster")).text(), "{}\n");
  l0.ready();
  const listeners = await (await call(c, "GET", "/init_dump?mask=listener")).json();
  assert.deepEqual(listeners.unready_targets_dumps, [{ name: "init manager Listener l0" }]);
  cluster.ready();
  assert.equal(c.phase, "LIVE");
  assert.equal(await (await call(c, "GET", "/init_dump")).text(), "{}\n");
});

Deno.test("admin.endpoints.config_dump: configuration data no filter reads (metadata, names) is shown as configured", async () => {
  const metadata = {
    filter_metadata: { "proxy.lb": { canary: true } },
    typed_filter_metadata: { x: { "@type": "type.googleapis.com/google.protobuf.Struct" } },
  };
  const c = testContext({
    bootstrap: { node: { id: "node-1", cluster: "fleet" } },
    clusters: [testCluster("meta", [], { name: "meta", metadata })],
    listeners: [testListener("l0", 10000, "INBOUND", {
      metadata,
      filter_chains: [{
        name: "chain-1",
        metadata,
        filters: [{
          name: "proxy.filters.network.http_connection_manager",
          typed_config: {
            route_config: {
              name: "routes-1",
              virtual_hosts: [{ name: "vh-1", domains: ["*"], routes: [{ name: "route-1" }] }],
            },
          },
        }],
      }],
    })],
  });
  const dump = await (await call(c, "GET", "/config_dump")).json();
  const text = JSON.stringify(dump);
  for (const s of ["node-1", "fleet", "chain-1", "routes-1", "vh-1", "route-1"]) {
    assert.ok(text.includes(`"${s}"`), s);
  }
  const clusters = dump.configs.find((x: { "@type": string }) =>
    x["@type"].endsWith("ClustersConfigDump")
  );
  assert.deepEqual(clusters.static_clusters[0].cluster.metadata, metadata);
  assert.equal(text.split('"canary":true').length - 1, 3);
});
