/**
 * CONNECT through the HTTP connection manager, over real sockets: `connect_matcher` routes,
 * upgrade type CONNECT ended at the proxy (`connect_config`) or passed on to an upstream proxy,
 * and refused (403) when the connection manager does not allow it.
 */
import assert from "node:assert/strict";
import { testCluster } from "../upstream/test_cluster.ts";
import { httpListener, rawExchange, startTestProxy } from "./test_proxy.ts";
import { trackingOrigin } from "./test_origins.ts";
import type { JsonObject } from "../config/bootstrap_types.ts";
import { parseRouteConfig } from "../router/route_config.ts";
import type { Errors } from "../config/config_values.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();

/** A TCP server answering every chunk with `echo:<chunk>`; `connectHead` makes it an HTTP proxy. */
function echoServer(connectHead = false) {
  const heads: string[] = [];
  const o = trackingOrigin((_i, chunk, first) => {
    if (!(connectHead && first)) return `echo:${chunk}`;
    heads.push(chunk);
    return "HTTP/1.1 200 Connection established\r\n\r\n";
  });
  return { port: o.port, heads, close: o.close };
}

/** Reads from `c` until `want` appears in what was read. */
async function readUntil(c: Deno.Conn, want: string): Promise<string> {
  const buf = new Uint8Array(65536);
  let got = "";
  while (!got.includes(want)) {
    const n = await c.read(buf);
    if (n === null) break;
    got += dec.decode(buf.subarray(0, n));
  }
  return got;
}

function connectRoutes(connectConfig: boolean): JsonObject {
  return {
    virtual_hosts: [{
      name: "v",
      domains: ["*"],
      routes: [
        {
          match: { connect_matcher: {} },
          route: {
            cluster: "c",
            upgrade_configs: [{
              upgrade_type: "CONNECT",
              ...(connectConfig ? { connect_config: {} } : {}),
            }],
          },
        },
        {
          match: { prefix: "/" },
          direct_response: { status: 200, body: { inline_string: "plain" } },
        },
      ],
    }],
  };
}

Deno.test("route connect_matcher: a CONNECT ended at the proxy answers 200 and tunnels TCP both ways", async () => {
  const o = echoServer();
  const p = await startTestProxy(
    [httpListener(connectRoutes(true), { upgrade_configs: [{ upgrade_type: "CONNECT" }] })],
    [testCluster("c", [["127.0.0.1", o.port]])],
  );
  const c = await Deno.connect({ hostname: "127.0.0.1", port: p.port() });
  try {
    await c.write(enc.encode(`CONNECT example.org:443 HTTP/1.1\r\nhost: example.org:443\r\n\r\n`));
    const head = await readUntil(c, "\r\n\r\n");
    assert.match(head, /^HTTP\/1\.1 200 OK\r\n/);
    assert.doesNotMatch(head, /content-length|transfer-encoding/i);
    await c.write(enc.encode("ping"));
    assert.equal(await readUntil(c, "echo:ping"), "echo:ping");
    await c.write(enc.encode("x".repeat(20000)));
    assert.equal((await readUntil(c, "x".repeat(20000))).length, 20005);
    assert.equal(p.store.counter("cluster.c.upstream_rq_200").value(), 1);
    // A plain request still goes to the prefix route, not the CONNECT one.
    assert.match(
      await rawExchange(p.port(), "GET / HTTP/1.1\r\nhost: a\r\n\r\n"),
      /\r\n\r\nplain$/,
    );
  } finally {
    c.close();
    await p.close();
    o.close();
  }
});

Deno.test("route connect_matcher: without connect_config the CONNECT request goes to the upstream proxy, then tunnels", async () => {
  const o = echoServer(true);
  const p = await startTestProxy(
    [httpListener(connectRoutes(false), { upgrade_configs: [{ upgrade_type: "CONNECT" }] })],
    [testCluster("c", [["127.0.0.1", o.port]])],
  );
  const c = await Deno.connect({ hostname: "127.0.0.1", port: p.port() });
  try {
    await c.write(enc.encode(`CONNECT example.org:443 HTTP/1.1\r\nhost: example.org:443\r\n\r\n`));
    assert.match(await readUntil(c, "\r\n\r\n"), /^HTTP\/1\.1 200 OK\r\n/);
    assert.match(o.heads[0], /^CONNECT example\.org:443 HTTP\/1\.1\r\nhost: example\.org:443\r\n/);
    await c.write(enc.encode("pong"));
    assert.equal(await readUntil(c, "echo:pong"), "echo:pong");
  } finally {
    c.close();
    await p.close();
    o.close();
  }
});

Deno.test("route connect_matcher: CONNECT is refused 403 unless the connection manager allows it; 404 without a CONNECT route", async () => {
  const o = echoServer();
  const noConnectRoute: JsonObject = {
    virtual_hosts: [{
      name: "v",
      domains: ["*"],
      routes: [{ match: { prefix: "/" }, route: { cluster: "c" } }],
    }],
  };
  const p = await startTestProxy(
    [
      httpListener(connectRoutes(true)),
      {
        ...httpListener(noConnectRoute, { upgrade_configs: [{ upgrade_type: "CONNECT" }] }),
        name: "other",
      },
    ],
    [testCluster("c", [["127.0.0.1", o.port]])],
  );
  try {
    const req = "CONNECT example.org:443 HTTP/1.1\r\nhost: example.org:443\r\n\r\n";
    assert.match(await rawExchange(p.port(0), req), /^HTTP\/1\.1 403 /);
    assert.match(await rawExchange(p.port(1), req), /^HTTP\/1\.1 404 /);
    assert.match(
      await rawExchange(p.port(0), "CONNECT /nope HTTP/1.1\r\nhost: a\r\n\r\n"),
      /^HTTP\/1\.1 400 /,
    );
  } finally {
    await p.close();
    o.close();
  }
});

Deno.test("route connect_matcher: configuration errors name the field", () => {
  const errors: Errors = [];
  parseRouteConfig(
    {
      virtual_hosts: [{
        name: "v",
        domains: ["*"],
        routes: [
          { match: { connect_matcher: {}, prefix: "/" }, route: { cluster: "c" } },
          {
            match: { connect_matcher: {} },
            route: {
              cluster: "c",
              upgrade_configs: [{
                upgrade_type: "CONNECT",
                connect_config: { proxy_protocol_config: {} },
              }, { upgrade_type: "websocket", connect_config: {} }],
            },
          },
        ],
      }],
    },
    "rc",
    errors,
    new Set(["c"]),
  );
  const by = Object.fromEntries(errors.map((e) => [e.path, e.message]));
  assert.match(
    by["rc.virtual_hosts[0].routes[0].match"],
    /only one of .*found connect_matcher, prefix|found prefix, connect_matcher/,
  );
  assert.match(
    by[
      "rc.virtual_hosts[0].routes[1].route.upgrade_configs[0].connect_config.proxy_protocol_config"
    ],
    /not supported by this build/,
  );
  assert.match(
    by["rc.virtual_hosts[0].routes[1].route.upgrade_configs[1].connect_config"],
    /only valid for upgrade_type CONNECT/,
  );
});
