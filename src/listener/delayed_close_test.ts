/**
 * `HttpConnectionManager.delayed_close_timeout` (default 1 s, 0 disables): a connection the proxy
 * ends (here: a request with `Connection: close` whose client sent more bytes after it) is not
 * closed with those bytes unread, which would reset it and could cost the client its response;
 * the proxy ends its side and drops what still arrives until the client closes or the time runs
 * out (`downstream_cx_delayed_close_timeout`). Real sockets, one origin, one client.
 */
import assert from "node:assert/strict";
import type { JsonObject } from "../config/bootstrap_types.ts";
import { testCluster } from "../upstream/test_cluster.ts";
import { httpListener, startTestProxy, type TestProxy } from "./test_proxy.ts";
import { trackingOrigin } from "./test_origins.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();
const RULE = "HttpConnectionManager.delayed_close_timeout";

const ROUTES: JsonObject = {
  virtual_hosts: [{
    name: "v",
    domains: ["*"],
    routes: [{ match: { prefix: "/" }, route: { cluster: "c" } }],
  }],
};

async function withProxy(hcm: JsonObject, fn: (p: TestProxy) => Promise<void>): Promise<void> {
  const origin = trackingOrigin(() => "HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok");
  const p = await startTestProxy([httpListener(ROUTES, hcm)], [
    testCluster("c", [["127.0.0.1", origin.port]]),
  ]);
  try {
    await fn(p);
  } finally {
    await p.close();
    await origin.close();
  }
}

const counter = (p: TestProxy, n: string) => p.store.counter(`http.test.${n}`).value();

/**
 * Sends a `Connection: close` request, reads its response to the end of stream, then goes on
 * writing (as a client still uploading would): up to `tries` writes of 1 KiB, 5 ms apart. The
 * response text, and the name of the error that stopped the writes ("" when none did).
 */
async function writeAfterClose(
  c: Deno.Conn,
  tries: number,
): Promise<{ text: string; err: string }> {
  await c.write(enc.encode("GET / HTTP/1.1\r\nhost: a\r\nconnection: close\r\n\r\n"));
  let text = "";
  const buf = new Uint8Array(4096);
  for (let n = await c.read(buf); n !== null; n = await c.read(buf)) {
    text += dec.decode(buf.subarray(0, n));
  }
  const more = new Uint8Array(1024).fill(0x41);
  for (let i = 0; i < tries; i++) {
    try {
      await c.write(more);
    } catch (e) {
      return { text, err: (e as Error).name };
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  return { text, err: "" };
}

async function until(what: string, ok: () => boolean): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (ok()) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`never happened: ${what}`);
}

Deno.test(`${RULE}: the proxy ends its side and reads on until the client closes: a client still writing after the response is not reset`, async () => {
  await withProxy({ delayed_close_timeout: "30s" }, async (p) => {
    const c = await Deno.connect({ hostname: "127.0.0.1", port: p.port() });
    const { text, err } = await writeAfterClose(c, 20);
    assert.match(text, /^HTTP\/1\.1 200 OK\r\n/);
    assert.match(text, /\r\n\r\nok$/);
    assert.equal(err, "");
    c.close();
    await until("the connection closed", () => counter(p, "downstream_cx_destroy") === 1);
    assert.equal(counter(p, "downstream_cx_destroy_local"), 1);
    assert.equal(counter(p, "downstream_cx_delayed_close_timeout"), 0);
  });
});

Deno.test(`${RULE}: 0s closes at once: a client still writing after the response is reset`, async () => {
  await withProxy({ delayed_close_timeout: "0s" }, async (p) => {
    const c = await Deno.connect({ hostname: "127.0.0.1", port: p.port() });
    const { text, err } = await writeAfterClose(c, 400);
    assert.match(text, /\r\n\r\nok$/);
    assert.match(err, /^(BrokenPipe|ConnectionReset)$/);
    c.close();
    assert.equal(counter(p, "downstream_cx_delayed_close_timeout"), 0);
  });
});

Deno.test(`${RULE}: a client that never closes is closed when the time runs out, counted downstream_cx_delayed_close_timeout`, async () => {
  await withProxy({ delayed_close_timeout: "0.1s" }, async (p) => {
    const c = await Deno.connect({ hostname: "127.0.0.1", port: p.port() });
    await c.write(enc.encode("GET / HTTP/1.1\r\nhost: a\r\nconnection: close\r\n\r\n"));
    let text = "";
    const buf = new Uint8Array(4096);
    for (let n = await c.read(buf); n !== null; n = await c.read(buf)) {
      text += dec.decode(buf.subarray(0, n));
    }
    assert.match(text, /\r\n\r\nok$/);
    // The client keeps its side open: the proxy's timer ends the connection.
    await until(
      "the delayed close timed out",
      () => counter(p, "downstream_cx_delayed_close_timeout") === 1,
    );
    await until("the connection closed", () => counter(p, "downstream_cx_destroy") === 1);
    assert.equal(counter(p, "downstream_cx_destroy_local"), 1);
    c.close();
  });
});

Deno.test(`${RULE}: a bad duration is an error at its path`, async () => {
  await assert.rejects(
    () => withProxy({ delayed_close_timeout: "soon" }, () => Promise.resolve()),
    /delayed_close_timeout/,
  );
});

const H2_START = new Uint8Array([
  ...enc.encode("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"),
  ...[0, 0, 0, 4, 0, 0, 0, 0, 0], // SETTINGS, empty
]);
const H2_PING = new Uint8Array([0, 0, 8, 6, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8]);

/**
 * Opens an HTTP/2 connection that the proxy ends (its idle timeout), reads to the end of stream,
 * then goes on sending PING frames: up to `tries`, 5 ms apart. The error that stopped them ("" if
 * none did).
 */
async function h2WriteAfterEnd(c: Deno.Conn, tries: number): Promise<string> {
  await c.write(H2_START);
  const buf = new Uint8Array(4096);
  while (await c.read(buf) !== null) { /* the proxy's SETTINGS, ACK and GOAWAY */ }
  for (let i = 0; i < tries; i++) {
    try {
      await c.write(H2_PING);
    } catch (e) {
      return (e as Error).name;
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  return "";
}

const H2_ENDS = {
  codec_type: "HTTP2",
  common_http_protocol_options: { idle_timeout: "0.1s" },
  drain_timeout: "0.05s",
};

Deno.test(`${RULE}: an HTTP/2 connection the proxy ends is not reset under a client still sending frames`, async () => {
  await withProxy({ ...H2_ENDS, delayed_close_timeout: "30s" }, async (p) => {
    const c = await Deno.connect({ hostname: "127.0.0.1", port: p.port() });
    assert.equal(await h2WriteAfterEnd(c, 20), "");
    c.close();
    await until("the connection closed", () => counter(p, "downstream_cx_destroy") === 1);
    assert.equal(counter(p, "downstream_cx_destroy_local"), 1);
    assert.equal(counter(p, "downstream_cx_delayed_close_timeout"), 0);
  });
});

Deno.test(`${RULE}: 0s closes an HTTP/2 connection at once: frames still sent are answered with a reset`, async () => {
  await withProxy({ ...H2_ENDS, delayed_close_timeout: "0s" }, async (p) => {
    const c = await Deno.connect({ hostname: "127.0.0.1", port: p.port() });
    assert.match(await h2WriteAfterEnd(c, 400), /^(BrokenPipe|ConnectionReset)$/);
    c.close();
  });
});

Deno.test(`${RULE}: an HTTP/2 client that never closes is closed when the time runs out, counted`, async () => {
  await withProxy({ ...H2_ENDS, delayed_close_timeout: "0.1s" }, async (p) => {
    const c = await Deno.connect({ hostname: "127.0.0.1", port: p.port() });
    await c.write(H2_START);
    const buf = new Uint8Array(4096);
    while (await c.read(buf) !== null) { /* to the proxy's end of stream */ }
    await until(
      "the delayed close timed out",
      () => counter(p, "downstream_cx_delayed_close_timeout") === 1,
    );
    c.close();
  });
});
