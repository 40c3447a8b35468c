import assert from "node:assert/strict";
import { testCluster } from "../upstream/test_cluster.ts";
import { httpListener, startTestProxy, type TestProxy } from "./test_proxy.ts";
import type { JsonObject } from "../config/bootstrap_types.ts";
import { parseRouteConfig } from "../router/route_config.ts";

function echo() {
  return Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (r) =>
      new Response(JSON.stringify(Object.fromEntries(r.headers)), {
        headers: { "x-up": "origin", "x-drop": "1", "content-type": "application/json" },
      }),
  );
}

async function withProxy(rc: JsonObject, fn: (p: TestProxy, port: number) => Promise<void>) {
  const o = echo();
  const p = await startTestProxy([httpListener(rc)], [
    testCluster("c", [["127.0.0.1", o.addr.port]]),
  ]);
  try {
    await fn(p, o.addr.port);
  } finally {
    await p.close();
    await o.shutdown();
  }
}

const add = (key: string, value: string, more: JsonObject = {}) => ({
  header: { key, value },
  ...more,
});

function table(mostSpecific: boolean): JsonObject {
  return {
    most_specific_header_mutations_wins: mostSpecific,
    request_headers_to_add: [
      add("x-level", "table", { append_action: "OVERWRITE_IF_EXISTS_OR_ADD" }),
    ],
    response_headers_to_add: [add("x-level", "table", { append: false })],
    virtual_hosts: [{
      name: "v",
      domains: ["*"],
      request_headers_to_add: [
        add("x-level", "vhost", { append_action: "OVERWRITE_IF_EXISTS_OR_ADD" }),
      ],
      response_headers_to_add: [add("x-level", "vhost", { append: false })],
      routes: [
        {
          match: { prefix: "/direct" },
          direct_response: { status: 200, body: { inline_string: "d" } },
          response_headers_to_add: [add("x-route", "direct")],
        },
        {
          match: { prefix: "/" },
          route: { cluster: "c" },
          request_headers_to_add: [
            add("x-level", "route", { append_action: "OVERWRITE_IF_EXISTS_OR_ADD" }),
            add("x-client", "%DOWNSTREAM_REMOTE_ADDRESS_WITHOUT_PORT% %PROTOCOL% 100%%"),
            add("x-copy", "%REQ(x-in)%"),
            add("x-empty", "%REQ(x-missing)%"),
            add("x-kept", "%REQ(x-missing)%", { keep_empty_value: true }),
            add("x-in", "added", { append_action: "APPEND_IF_EXISTS_OR_ADD" }),
            add("x-absent", "new", { append_action: "ADD_IF_ABSENT" }),
            add("x-present", "no", { append_action: "ADD_IF_ABSENT" }),
            add("x-only-if", "no", { append_action: "OVERWRITE_IF_EXISTS" }),
            add("x-year", "%START_TIME(%Y)%"),
            add("x-host", "%HOSTNAME%"),
          ],
          request_headers_to_remove: ["x-secret"],
          response_headers_to_add: [
            add("x-level", "route", { append: false }),
            add("x-upstream", "%UPSTREAM_REMOTE_ADDRESS%"),
          ],
          response_headers_to_remove: ["x-drop"],
        },
      ],
    }],
  };
}

Deno.test("route headers_to_add: route, virtual host and route table in Envoy's order, append actions, keep_empty_value, command operators", async () => {
  await withProxy(table(false), async (p, port) => {
    const r = await fetch(`http://127.0.0.1:${p.port()}/x`, {
      headers: { "x-in": "v", "x-present": "yes", "x-secret": "s" },
    });
    const seen = await r.json();
    // By default the least specific level is applied last and wins.
    assert.equal(seen["x-level"], "table");
    assert.equal(r.headers.get("x-level"), "table");
    assert.equal(seen["x-client"], "127.0.0.1 HTTP/1.1 100%");
    assert.equal(seen["x-copy"], "v");
    assert.equal(seen["x-empty"], undefined);
    assert.equal(seen["x-kept"], "");
    assert.equal(seen["x-in"], "v, added");
    assert.equal(seen["x-absent"], "new");
    assert.equal(seen["x-present"], "yes");
    assert.equal(seen["x-only-if"], undefined);
    assert.equal(seen["x-year"], String(new Date().getUTCFullYear()));
    assert.equal(seen["x-host"], Deno.hostname());
    assert.equal(seen["x-secret"], undefined);
    assert.equal(r.headers.get("x-upstream"), `127.0.0.1:${port}`);
    assert.equal(r.headers.get("x-drop"), null);
    assert.equal(r.headers.get("x-up"), "origin");
    const d = await fetch(`http://127.0.0.1:${p.port()}/direct`);
    await d.body?.cancel();
    assert.equal(d.headers.get("x-route"), "direct");
    assert.equal(d.headers.get("x-level"), "table");
  });
  await withProxy(table(true), async (p) => {
    const r = await fetch(`http://127.0.0.1:${p.port()}/x`);
    const seen = await r.json();
    assert.equal(seen["x-level"], "route");
    assert.equal(r.headers.get("x-level"), "route");
  });
});

Deno.test("route headers_to_add errors name their path: pseudo-headers, host, unknown operators, both append fields", () => {
  const errors: { path: string; message: string; rule: string }[] = [];
  parseRouteConfig(
    {
      request_headers_to_remove: [":path"],
      virtual_hosts: [{
        name: "v",
        domains: ["*"],
        request_headers_to_add: [add("host", "x")],
        routes: [{
          match: { prefix: "/" },
          route: { cluster: "c" },
          response_headers_to_add: [
            add("x-a", "%NOT_AN_OPERATOR%"),
            add("x-b", "1", { append: true, append_action: "ADD_IF_ABSENT" }),
            add("x-c", "1", { append_action: "SOMETIMES" }),
          ],
        }],
      }],
    },
    "rc",
    errors,
    null,
  );
  assert.deepEqual(errors.map((e) => e.path).sort(), [
    "rc.request_headers_to_remove[0]",
    "rc.virtual_hosts[0].request_headers_to_add[0].header.key",
    "rc.virtual_hosts[0].routes[0].response_headers_to_add[0].header.value",
    "rc.virtual_hosts[0].routes[0].response_headers_to_add[1]",
    "rc.virtual_hosts[0].routes[0].response_headers_to_add[2].append_action",
  ]);
  assert.match(errors[0].message + errors[1].message, /cannot be (removed|modified)/);
});
