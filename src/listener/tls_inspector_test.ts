import assert from "node:assert/strict";
import { inspectClientHello, MAX_CLIENT_HELLO } from "./tls_inspector.ts";

/** The first bytes a real TLS client sends: a ClientHello with SNI and ALPN. */
async function captureHello(sni: string, alpn: string[]): Promise<Uint8Array> {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const accepted = l.accept();
  const tcp = await Deno.connect({ hostname: "127.0.0.1", port: l.addr.port });
  const client = Deno.startTls(tcp, { hostname: sni, alpnProtocols: alpn });
  const hs = client.then((c) => c.handshake()).catch(() => {});
  const s = await accepted;
  const buf = new Uint8Array(65536);
  let n = 0;
  while (inspectClientHello(buf.subarray(0, n)).kind === "more") {
    const r = await s.read(buf.subarray(n));
    if (r === null) break;
    n += r;
  }
  s.close();
  l.close();
  await hs;
  try {
    (await client).close();
  } catch { /* closed */ }
  return buf.slice(0, n);
}

Deno.test("tls_inspector: a real ClientHello gives its SNI and ALPN, byte by byte until whole", async () => {
  const hello = await captureHello("backend.example", ["h2", "http/1.1"]);
  assert.deepEqual(inspectClientHello(hello), {
    kind: "tls",
    serverName: "backend.example",
    alpn: ["h2", "http/1.1"],
  });
  for (const cut of [1, 5, 40, hello.length - 1]) {
    assert.deepEqual(inspectClientHello(hello.subarray(0, cut)), { kind: "more" });
  }
  const noSni = await captureHello("127.0.0.1", []);
  assert.deepEqual(inspectClientHello(noSni), { kind: "tls", serverName: "", alpn: [] });
});

Deno.test("tls_inspector: plain text is not TLS, and a ClientHello over the limit is too large", () => {
  const enc = new TextEncoder();
  assert.deepEqual(inspectClientHello(enc.encode("GET / HTTP/1.1\r\n")), { kind: "not-tls" });
  assert.deepEqual(inspectClientHello(Uint8Array.of(22, 1, 0)), { kind: "not-tls" });
  const len = MAX_CLIENT_HELLO + 10;
  const big = Uint8Array.of(22, 3, 1, 0x40, 0, 1, len >> 16, (len >> 8) & 255, len & 255);
  assert.deepEqual(inspectClientHello(big), { kind: "too-large" });
});
