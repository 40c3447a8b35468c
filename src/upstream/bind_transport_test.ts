import assert from "node:assert/strict";
import { libc } from "../platform/libc.ts";
import { tcpOption } from "./tcp_keepalive.ts";
import { socketDescriptor } from "../platform/socket_descriptor.ts";
import { bindOptions, ConnectError, openTransport, type Transport } from "./transport.ts";

const tlsDir = new URL("../../fixtures/tls/", import.meta.url);
const CA = Deno.readTextFileSync(new URL("ca.pem", tlsDir));
const CERT = Deno.readTextFileSync(new URL("server.pem", tlsDir));
const KEY = Deno.readTextFileSync(new URL("server.key", tlsDir));

/** A listener on 127.0.0.1:0 (TLS with the fixture certificate when `tls`) that says "ok". */
function peerServer(tls: boolean) {
  const l = tls
    ? Deno.listenTls({ hostname: "127.0.0.1", port: 0, cert: CERT, key: KEY })
    : Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const peers: Deno.NetAddr[] = [];
  const done = (async () => {
    for await (const c of l) {
      peers.push(c.remoteAddr as Deno.NetAddr);
      try {
        if (tls) await (c as Deno.TlsConn).handshake();
        await c.write(new TextEncoder().encode("ok"));
      } catch { /* the client gave up (certificate refused) */ }
      c.close();
    }
  })().catch(() => {});
  return {
    port: (l.addr as Deno.NetAddr).port,
    peers,
    async close() {
      l.close();
      await done;
    },
  };
}

async function readAll(t: Transport): Promise<string> {
  const buf = new Uint8Array(64);
  let s = "";
  for (;;) {
    const n = await t.read(buf);
    if (n === null) return s;
    s += new TextDecoder().decode(buf.subarray(0, n));
  }
}

/** A port free on 127.0.0.2 a moment ago. */
function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.2", port: 0 });
  const port = l.addr.port;
  l.close();
  return port;
}

const cases = [
  { name: "plain TCP", tls: null },
  { name: "TLS verified against trusted_ca", tls: { sni: "backend.example", trustedCa: [CA] } },
  { name: "TLS without verification", tls: { sni: "any.example" } },
];
for (const c of cases) {
  Deno.test(`cluster.fields.upstream-bind-config: ${c.name} connects from the source address`, async () => {
    const s = peerServer(c.tls !== null);
    try {
      const t = await openTransport({
        address: "127.0.0.1",
        port: s.port,
        tls: c.tls,
        timeoutMs: 5000,
        keepalive: { time: 33, interval: 9, probes: 4 },
        bind: { address: "127.0.0.2", port: 0 },
      });
      assert.equal(s.peers.length, 1);
      assert.equal(s.peers[0].hostname, "127.0.0.2");
      if (libc() !== null) {
        // tcp_keepalive reaches node sockets too.
        const fd = socketDescriptor(s.peers[0], {
          transport: "tcp",
          hostname: "127.0.0.1",
          port: s.port,
        });
        assert.ok(fd >= 0);
        assert.deepEqual([
          tcpOption(fd, "time"),
          tcpOption(fd, "interval"),
          tcpOption(fd, "probes"),
        ], [
          33,
          9,
          4,
        ]);
      }
      assert.equal(await readAll(t), "ok");
      t.close();
    } finally {
      await s.close();
    }
  });
}

Deno.test("cluster.fields.upstream-bind-config: a source port other than 0 is used as the local port", async () => {
  const s = peerServer(false);
  try {
    const port = freePort();
    const t = await openTransport({
      address: "127.0.0.1",
      port: s.port,
      tls: null,
      timeoutMs: 5000,
      bind: { address: "127.0.0.2", port },
    });
    assert.equal(await readAll(t), "ok");
    t.close();
    assert.deepEqual([s.peers[0].hostname, s.peers[0].port], ["127.0.0.2", port]);
  } finally {
    await s.close();
  }
});

Deno.test("cluster.fields.upstream-bind-config security.upstream-tls: with a bind, trusted_ca still refuses a certificate not valid for the SNI", async () => {
  const s = peerServer(true);
  try {
    await assert.rejects(
      openTransport({
        address: "127.0.0.1",
        port: s.port,
        tls: { sni: "wrong.example", trustedCa: [CA] },
        timeoutMs: 5000,
        bind: { address: "127.0.0.2", port: 0 },
      }),
      (e) => e instanceof ConnectError && e.reason === "failure",
    );
  } finally {
    await s.close();
  }
});

Deno.test("cluster.fields.upstream-bind-config: a source address not on this host fails the connection attempt", async () => {
  const s = peerServer(false);
  try {
    await assert.rejects(
      openTransport({
        address: "127.0.0.1",
        port: s.port,
        tls: null,
        timeoutMs: 5000,
        bind: { address: "192.0.2.1", port: 0 },
      }),
      (e) => e instanceof ConnectError && e.reason === "failure",
    );
    assert.equal(s.peers.length, 0);
  } finally {
    await s.close();
  }
});

Deno.test("cluster.fields.upstream-bind-config cluster.fields.connect-timeout: with a bind, a handshake that never completes ends as a timeout", async () => {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const c of l) held.push(c);
  })().catch(() => {});
  try {
    await assert.rejects(
      openTransport({
        address: "127.0.0.1",
        port: l.addr.port,
        tls: { sni: "backend.example", trustedCa: [CA] },
        timeoutMs: 100,
        bind: { address: "127.0.0.2", port: 0 },
      }),
      (e) => e instanceof ConnectError && e.reason === "timeout",
    );
  } finally {
    l.close();
    await accepting;
    for (const c of held) c.close();
  }
});

Deno.test("cluster.fields.upstream-bind-config: a bound connection half-closes like Deno.TcpConn", async () => {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const server = (async () => {
    const c = await l.accept();
    await c.write(new TextEncoder().encode("bye"));
    c.closeWrite();
    const buf = new Uint8Array(64);
    let got = "";
    for (;;) {
      const n = await c.read(buf);
      if (n === null) break;
      got += new TextDecoder().decode(buf.subarray(0, n));
    }
    c.close();
    return got;
  })();
  try {
    const t = await openTransport({
      address: "127.0.0.1",
      port: l.addr.port,
      tls: null,
      timeoutMs: 5000,
      bind: { address: "127.0.0.2", port: 0 },
    });
    assert.equal(await readAll(t), "bye");
    // The peer has finished sending; this side can still send, then half-close.
    await t.write(new TextEncoder().encode("after"));
    (t as Transport & { closeWrite(): void }).closeWrite();
    assert.equal(await server, "after");
    t.close();
  } finally {
    l.close();
  }
});

Deno.test("cluster.fields.upstream-bind-config: bindOptions gives node's localAddress/localPort, port 0 meaning any", () => {
  assert.deepEqual(bindOptions(null), {});
  assert.deepEqual(bindOptions({ address: "127.0.0.2", port: 0 }), { localAddress: "127.0.0.2" });
  assert.deepEqual(bindOptions({ address: "::1", port: 4000 }), {
    localAddress: "::1",
    localPort: 4000,
  });
});
