import assert from "node:assert/strict";
import { testCluster } from "../upstream/test_cluster.ts";
import { httpListener, startTestProxy, type TestProxy } from "./test_proxy.ts";

const routes = {
  virtual_hosts: [{
    name: "v",
    domains: ["*"],
    routes: [{ match: { prefix: "/" }, route: { cluster: "o" } }],
  }],
};

const enc = new TextEncoder();
const dec = new TextDecoder();
const MIB = 1024 * 1024;

/** Deterministic bytes of length `n`. */
function pattern(n: number, seed = 7): Uint8Array<ArrayBuffer> {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + seed + (i >> 8)) & 0xff;
  return b;
}

/** What the origin saw of the last requests. */
interface Seen {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Uint8Array;
}

/** Origin: `/echo` answers the body it got; `/big` 1 MiB; `/chunks` a stream of unknown length. */
function origin(seen: Seen[], cancelled: { n: number }) {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (r) => {
    const url = new URL(r.url);
    const body = new Uint8Array(await r.arrayBuffer());
    seen.push({
      method: r.method,
      path: url.pathname + url.search,
      headers: Object.fromEntries(r.headers),
      body,
    });
    switch (url.pathname) {
      case "/big":
        return new Response(pattern(MIB));
      case "/chunks": {
        const parts = [pattern(10, 1), pattern(70000, 2), pattern(1, 3), pattern(5000, 4)];
        return new Response(ReadableStream.from(parts));
      }
      case "/endless":
        return new Response(
          new ReadableStream<Uint8Array>({
            pull: (c) => c.enqueue(pattern(64 * 1024)),
            cancel: () => void cancelled.n++,
          }, { highWaterMark: 0 }),
        );
      case "/slow":
        await new Promise((res) => setTimeout(res, 30));
        return new Response(url.pathname + url.search);
      default:
        return new Response(body.byteLength > 0 ? body : url.pathname + url.search);
    }
  });
}

async function withProxy(
  fn: (p: TestProxy, seen: Seen[], cancelled: { n: number }) => Promise<void>,
) {
  const seen: Seen[] = [];
  const cancelled = { n: 0 };
  const o = origin(seen, cancelled);
  // HTTP/1.0 is accepted only when asked for, as in Envoy; these tests exercise it.
  const p = await startTestProxy([
    httpListener(routes, { http_protocol_options: { accept_http_10: true } }),
  ], [
    testCluster("o", [["127.0.0.1", o.addr.port]]),
  ]);
  try {
    await fn(p, seen, cancelled);
  } finally {
    await p.close();
    await o.shutdown();
  }
}

interface RawResponse {
  status: number;
  head: string;
  headers: [string, string][];
  body: Uint8Array;
}

/** A raw client connection that parses HTTP/1.1 responses. */
class Raw {
  #buf: Uint8Array<ArrayBuffer> = new Uint8Array(0);
  constructor(readonly c: Deno.Conn) {}
  static async open(port: number): Promise<Raw> {
    return new Raw(await Deno.connect({ hostname: "127.0.0.1", port }));
  }
  async send(s: string | Uint8Array): Promise<void> {
    const b = typeof s === "string" ? enc.encode(s) : s;
    for (let off = 0; off < b.length;) off += await this.c.write(b.subarray(off));
  }
  /** Reads more; false at end of stream (or reset). */
  async #more(): Promise<boolean> {
    const b = new Uint8Array(64 * 1024);
    let n: number | null;
    try {
      n = await this.c.read(b);
    } catch {
      n = null;
    }
    if (n === null) return false;
    const nb = new Uint8Array(this.#buf.length + n);
    nb.set(this.#buf);
    nb.set(b.subarray(0, n), this.#buf.length);
    this.#buf = nb;
    return true;
  }
  #take(n: number): Uint8Array<ArrayBuffer> {
    const out = this.#buf.slice(0, n);
    this.#buf = this.#buf.slice(n);
    return out;
  }
  async #line(): Promise<string> {
    for (;;) {
      const i = this.#buf.indexOf(10);
      if (i >= 0) return dec.decode(this.#take(i + 1)).slice(0, -2);
      if (!await this.#more()) throw new Error("eof in line");
    }
  }
  async #bytes(n: number): Promise<Uint8Array<ArrayBuffer>> {
    while (this.#buf.length < n) if (!await this.#more()) throw new Error("eof in body");
    return this.#take(n);
  }
  /** Reads one response (bodyless for HEAD when `head` is true). */
  async response(head = false): Promise<RawResponse> {
    let lines = "";
    for (;;) {
      const l = await this.#line();
      if (l === "") break;
      lines += l + "\r\n";
    }
    const [statusLine, ...rest] = lines.slice(0, -2).split("\r\n");
    const headers = rest.map((l): [string, string] => {
      const i = l.indexOf(":");
      return [l.slice(0, i).toLowerCase(), l.slice(i + 1).trim()];
    });
    const status = Number(statusLine.split(" ")[1]);
    const get = (n: string) => headers.find(([k]) => k === n)?.[1];
    let body = new Uint8Array(0);
    if (head || status === 204 || status === 304 || status < 200) {
      // no body
    } else if (get("transfer-encoding") === "chunked") {
      const parts: Uint8Array[] = [];
      for (;;) {
        const size = parseInt(await this.#line(), 16);
        if (size === 0) {
          while ((await this.#line()) !== "");
          break;
        }
        parts.push(await this.#bytes(size));
        assert.equal(await this.#line(), "");
      }
      body = concat(parts);
    } else if (get("content-length") !== undefined) {
      body = await this.#bytes(Number(get("content-length")));
    } else {
      while (await this.#more());
      body = this.#take(this.#buf.length);
    }
    return { status, head: lines, headers, body };
  }
  /** True when the peer has closed and nothing more is buffered. */
  async closed(): Promise<boolean> {
    return this.#buf.length === 0 && !await this.#more();
  }
  close() {
    try {
      this.c.close();
    } catch { /* closed */ }
  }
}

function concat(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

const hdr = (r: RawResponse, n: string) => r.headers.filter(([k]) => k === n).map(([, v]) => v);

async function withRaw(p: TestProxy, fn: (c: Raw) => Promise<void>) {
  const c = await Raw.open(p.port());
  try {
    await fn(c);
  } finally {
    c.close();
  }
}

Deno.test("listener http1 codec: HTTP/1.0 request is answered and the connection closes", async () => {
  await withProxy(async (p) => {
    await withRaw(p, async (c) => {
      await c.send("GET /ten HTTP/1.0\r\n\r\n");
      const r = await c.response();
      assert.equal(r.status, 200);
      assert.equal(dec.decode(r.body), "/ten");
      assert.equal(r.head.startsWith("HTTP/1.1 200 OK"), true);
      assert.ok(await c.closed());
    });
  });
});

Deno.test("listener http1 codec: HTTP/1.0 with connection: keep-alive stays open and says so", async () => {
  await withProxy(async (p) => {
    await withRaw(p, async (c) => {
      for (const path of ["/a", "/b"]) {
        await c.send(`GET ${path} HTTP/1.0\r\nconnection: keep-alive\r\n\r\n`);
        const r = await c.response();
        assert.equal(dec.decode(r.body), path);
        assert.deepEqual(hdr(r, "connection"), ["keep-alive"]);
      }
      await c.send("GET /c HTTP/1.0\r\n\r\n");
      assert.equal(dec.decode((await c.response()).body), "/c");
      assert.ok(await c.closed());
    });
  });
});

Deno.test("listener http1 codec: HEAD gets content-length and no body bytes", async () => {
  await withProxy(async (p) => {
    await withRaw(p, async (c) => {
      // The GET pipelined behind the HEAD must start right after the HEAD's head.
      await c.send("HEAD /big HTTP/1.1\r\nhost: a\r\n\r\nGET /next HTTP/1.1\r\nhost: a\r\n\r\n");
      const h = await c.response(true);
      assert.equal(h.status, 200);
      assert.deepEqual(hdr(h, "content-length"), [String(MIB)]);
      const g = await c.response();
      assert.equal(g.status, 200);
      assert.equal(dec.decode(g.body), "/next");
    });
  });
});

Deno.test("listener http1 codec: a content-length request body reaches the origin intact", async () => {
  await withProxy(async (p, seen) => {
    await withRaw(p, async (c) => {
      const body = pattern(300_000, 9);
      await c.send(`POST /up HTTP/1.1\r\nhost: a\r\ncontent-length: ${body.length}\r\n\r\n`);
      await c.send(body);
      const r = await c.response();
      assert.equal(r.status, 200);
      assert.deepEqual(r.body, body);
      assert.deepEqual(seen[0].body, body);
      assert.equal(seen[0].headers["content-length"], String(body.length));
    });
  });
});

Deno.test("listener http1 codec: a chunked request body reaches the origin intact", async () => {
  await withProxy(async (p, seen) => {
    await withRaw(p, async (c) => {
      const parts = [pattern(5, 1), pattern(40000, 2), pattern(1, 3)];
      let wire = "POST /up HTTP/1.1\r\nhost: a\r\ntransfer-encoding: chunked\r\n\r\n";
      await c.send(wire);
      for (const part of parts) {
        await c.send(`${part.length.toString(16)};ext=1\r\n`);
        await c.send(part);
        await c.send("\r\n");
      }
      wire = "0\r\nx-trailer: t\r\n\r\nGET /after HTTP/1.1\r\nhost: a\r\n\r\n";
      await c.send(wire);
      const r = await c.response();
      assert.equal(r.status, 200);
      assert.deepEqual(seen[0].body, concat(parts));
      assert.deepEqual(r.body, concat(parts));
      // The connection stays usable after a chunked body with trailers.
      assert.equal(dec.decode((await c.response()).body), "/after");
    });
  });
});

Deno.test("listener http1 codec: expect: 100-continue gets 100 Continue first and is not forwarded", async () => {
  await withProxy(async (p, seen) => {
    await withRaw(p, async (c) => {
      await c.send(
        "POST /up HTTP/1.1\r\nhost: a\r\nexpect: 100-continue\r\ncontent-length: 5\r\n\r\n",
      );
      const interim = await c.response();
      assert.equal(interim.status, 100);
      assert.equal(interim.head, "HTTP/1.1 100 Continue\r\n");
      await c.send("hello");
      const r = await c.response();
      assert.equal(r.status, 200);
      assert.equal(dec.decode(r.body), "hello");
      assert.equal(seen[0].headers["expect"], undefined);
    });
  });
});

Deno.test("listener http1 codec: three pipelined requests in one write are answered in order", async () => {
  await withProxy(async (p) => {
    await withRaw(p, async (c) => {
      await c.send(
        "GET /slow?1 HTTP/1.1\r\nhost: a\r\n\r\nGET /2 HTTP/1.1\r\nhost: a\r\n\r\n" +
          "POST /3 HTTP/1.1\r\nhost: a\r\ncontent-length: 2\r\n\r\n33",
      );
      const got = [];
      for (let i = 0; i < 3; i++) got.push(dec.decode((await c.response()).body));
      assert.deepEqual(got, ["/slow?1", "/2", "33"]);
    });
  });
});

Deno.test("listener http1 codec: buffers grow as requests need: a 50 KiB head and a pipelined one after it, then answers of 5 KB, 40 KB and 100 B on the same connection", async () => {
  await withProxy(async (p, seen) => {
    await withRaw(p, async (c) => {
      const big = "x-big: " + "b".repeat(50 * 1024) + "\r\n";
      await c.send(
        "GET /first HTTP/1.1\r\nhost: a\r\n" + big + "\r\n" +
          "GET /second HTTP/1.1\r\nhost: a\r\n\r\n",
      );
      assert.equal(dec.decode((await c.response()).body), "/first");
      assert.equal(dec.decode((await c.response()).body), "/second");
      assert.equal(seen[0].headers["x-big"].length, 50 * 1024);
      for (const n of [5000, 40000, 100]) {
        const body = pattern(n, n & 0xff);
        await c.send(`POST /echo HTTP/1.1\r\nhost: a\r\ncontent-length: ${n}\r\n\r\n`);
        await c.send(body);
        const r = await c.response();
        assert.equal(r.status, 200);
        assert.deepEqual(r.body, body);
      }
    });
  });
});

Deno.test("listener http1 codec: more than 60 KiB of headers gets 431 and the connection closes", async () => {
  await withProxy(async (p, seen) => {
    await withRaw(p, async (c) => {
      const big = "x-big: " + "a".repeat(1000) + "\r\n";
      await c.send("GET / HTTP/1.1\r\nhost: a\r\n" + big.repeat(62) + "\r\n");
      const r = await c.response();
      assert.equal(r.status, 431);
      assert.ok(await c.closed());
      assert.equal(seen.length, 0);
    });
  });
});

Deno.test("listener http1 codec: missing host on HTTP/1.1 gets 400", async () => {
  await withProxy(async (p, seen) => {
    await withRaw(p, async (c) => {
      await c.send("GET / HTTP/1.1\r\nx-a: b\r\n\r\n");
      const r = await c.response();
      assert.equal(r.status, 400);
      assert.ok(await c.closed());
      assert.equal(seen.length, 0);
    });
  });
});

Deno.test("listener http1 codec: an upstream body of unknown length is re-chunked and decodes to the same bytes", async () => {
  await withProxy(async (p) => {
    await withRaw(p, async (c) => {
      await c.send("GET /chunks HTTP/1.1\r\nhost: a\r\n\r\n");
      const r = await c.response();
      assert.deepEqual(hdr(r, "transfer-encoding"), ["chunked"]);
      assert.deepEqual(hdr(r, "content-length"), []);
      const want = concat([pattern(10, 1), pattern(70000, 2), pattern(1, 3), pattern(5000, 4)]);
      assert.deepEqual(r.body, want);
      // Still usable afterwards.
      await c.send("GET /again HTTP/1.1\r\nhost: a\r\n\r\n");
      assert.equal(dec.decode((await c.response()).body), "/again");
    });
  });
});

Deno.test("listener http1 codec: a 1 MiB response with content-length arrives whole", async () => {
  await withProxy(async (p) => {
    await withRaw(p, async (c) => {
      await c.send("GET /big HTTP/1.1\r\nhost: a\r\n\r\n");
      const r = await c.response();
      assert.deepEqual(hdr(r, "content-length"), [String(MIB)]);
      assert.deepEqual(r.body, pattern(MIB));
    });
  });
});

Deno.test("listener http1 codec: a client closing mid-response is counted and does not break the next client", async () => {
  await withProxy(async (p, _seen, cancelled) => {
    const c = await Raw.open(p.port());
    try {
      await c.send("GET /endless HTTP/1.1\r\nhost: a\r\n\r\n");
      const buf = new Uint8Array(256 * 1024);
      let got = 0;
      while (got < 256 * 1024) {
        const n = await c.c.read(buf);
        if (n === null) break;
        got += n;
      }
      assert.ok(got >= 256 * 1024);
    } finally {
      c.close();
    }
    const counter = () => p.store.counter("cluster.o.upstream_rq_cancelled").value();
    for (let i = 0; i < 1000 && (counter() === 0 || cancelled.n === 0); i++) {
      await new Promise((r) => setTimeout(r, 2));
    }
    assert.equal(counter(), 1);
    assert.equal(cancelled.n, 1);
    await withRaw(p, async (d) => {
      await d.send("GET /big HTTP/1.1\r\nhost: a\r\n\r\n");
      assert.deepEqual((await d.response()).body, pattern(MIB));
    });
  });
});

Deno.test("listener http1 codec: closing the proxy with an idle keep-alive connection finishes", async () => {
  const seen: Seen[] = [];
  const o = origin(seen, { n: 0 });
  const p = await startTestProxy([httpListener(routes)], [
    testCluster("o", [["127.0.0.1", o.addr.port]]),
  ]);
  const c = await Raw.open(p.port());
  try {
    await c.send("GET /x HTTP/1.1\r\nhost: a\r\n\r\n");
    assert.equal(dec.decode((await c.response()).body), "/x");
    await p.close();
    assert.ok(await c.closed());
  } finally {
    c.close();
    await p.close();
    await o.shutdown();
  }
});

Deno.test("listener http1 codec: h2c with prior knowledge carries a POST body", async () => {
  await withProxy(async (p, seen) => {
    const client = Deno.createHttpClient({ http1: false, http2: true });
    try {
      const body = pattern(100_000, 5);
      const r = await fetch(`http://127.0.0.1:${p.port()}/h2post`, {
        client,
        method: "POST",
        body,
      });
      assert.equal(r.status, 200);
      assert.deepEqual(new Uint8Array(await r.arrayBuffer()), body);
      assert.equal(seen[0].method, "POST");
      assert.deepEqual(seen[0].body, body);
      assert.equal(p.store.counter("http.test.downstream_rq_http2_total").value(), 1);
    } finally {
      client.close();
    }
  });
});

Deno.test("listener http1 codec: empty lines before a request line are ignored (RFC 9112 section 2.2)", async () => {
  await withProxy(async (p, seen) => {
    await withRaw(p, async (c) => {
      // A client that ends a POST body with an extra CRLF, then sends the next request.
      await c.send(
        "\r\nPOST /p HTTP/1.1\r\nhost: a\r\ncontent-length: 2\r\n\r\nhi\r\n" +
          "GET /q HTTP/1.1\r\nhost: a\r\n\r\n",
      );
      assert.equal(dec.decode((await c.response()).body), "hi");
      assert.equal(dec.decode((await c.response()).body), "/q");
      assert.deepEqual(seen.map((s) => s.path), ["/p", "/q"]);
    });
  });
});

Deno.test("listener http1 codec: HTTP/1.0 keep-alive client gets a body of unknown length close-delimited", async () => {
  await withProxy(async (p) => {
    await withRaw(p, async (c) => {
      await c.send("GET /chunks HTTP/1.0\r\nconnection: keep-alive\r\n\r\n");
      const r = await c.response();
      assert.deepEqual(hdr(r, "transfer-encoding"), []);
      assert.deepEqual(hdr(r, "connection"), ["close"]);
      const want = concat([pattern(10, 1), pattern(70000, 2), pattern(1, 3), pattern(5000, 4)]);
      assert.deepEqual(r.body, want);
      assert.ok(await c.closed());
    });
  });
});
