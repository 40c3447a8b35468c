import assert from "node:assert/strict";
import { join } from "node:path";
import { fromJson, toBinary } from "@bufbuild/protobuf";
import { parseArgs } from "./args.ts";
import { loadBootstrap } from "./bootstrap.ts";
import { envoyRegistry, messageType } from "./proto_registry.ts";
import { BOOTSTRAP_V3, decodeBootstrapBinary, decodeBootstrapText } from "./proto_library.ts";
import { PROTOBUF } from "./protobuf_module.ts";

// .pb and .pb_text bootstraps decode with the protobuf runtime, which the command line loads first.
await PROTOBUF.load();

const HCM = "type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3." +
  "HttpConnectionManager";

const BOOT = {
  static_resources: {
    listeners: [{
      name: "l",
      address: { socket_address: { address: "127.0.0.1", port_value: 10000 } },
      filter_chains: [{
        filters: [{
          name: "envoy.filters.network.http_connection_manager",
          typed_config: {
            "@type": HCM,
            stat_prefix: "in",
            route_config: {
              virtual_hosts: [{
                name: "a",
                domains: ["*"],
                routes: [{ match: { prefix: "/" }, direct_response: { status: 200 } }],
              }],
            },
          },
        }],
      }],
    }],
  },
};

const TEXT = `static_resources { listeners {
  name: "l"
  address { socket_address { address: "127.0.0.1" port_value: 10000 } }
  filter_chains { filters {
    name: "envoy.filters.network.http_connection_manager"
    typed_config {
      [type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager] {
        stat_prefix: "in"
        route_config { virtual_hosts { name: "a" domains: "*"
          routes { match { prefix: "/" } direct_response { status: 200 } } } }
      }
    }
  } }
} }`;

Deno.test("cli.options.config-path: .pb and .pb_text bootstraps with listeners and filter chains (typed_config Any) load through the Envoy descriptor set like the same JSON", async () => {
  const bytes = toBinary(
    messageType(BOOTSTRAP_V3),
    fromJson(messageType(BOOTSTRAP_V3), BOOT, { registry: envoyRegistry() }),
  );
  assert.deepEqual(decodeBootstrapBinary(bytes), BOOT);
  assert.deepEqual(decodeBootstrapText(TEXT), BOOT);
  const dir = await Deno.makeTempDir();
  try {
    Deno.writeFileSync(join(dir, "b.pb"), bytes);
    Deno.writeTextFileSync(join(dir, "b.pb_text"), TEXT);
    Deno.writeTextFileSync(join(dir, "b.json"), JSON.stringify(BOOT));
    const json = loadBootstrap(parseArgs(["-c", join(dir, "b.json")]));
    assert.deepEqual(json.errors, []);
    for (const f of ["b.pb", "b.pb_text"]) {
      const r = loadBootstrap(parseArgs(["-c", join(dir, f)]));
      assert.deepEqual(r.errors, [], f);
      assert.deepEqual(r.bootstrap, json.bootstrap, f);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cli.options.config-path: malformed .pb_text keeps the error with its location", async () => {
  const dir = await Deno.makeTempDir();
  try {
    Deno.writeTextFileSync(join(dir, "bad.pb_text"), "static_resources { listeners { name: 5 } }");
    const r = loadBootstrap(parseArgs(["-c", join(dir, "bad.pb_text")]));
    assert.equal(r.errors.length, 1);
    assert.match(r.errors[0].message, /static_resources\.listeners\.name: /);
    assert.throws(() => decodeBootstrapText("node { bogus: 1 }"), /Bootstrap: .*bogus/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
