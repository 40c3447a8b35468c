/**
 * An HTTP/1.1 client that closes its connection before its answer resets the request, as
 * Envoy's connection manager does on a remote close with an active stream: the upstream
 * HTTP/1.1 connection is closed (not pooled again), the downstream close is counted
 * (`downstream_cx_destroy_remote_active_rq`, `downstream_cx_destroy_active_rq`,
 * `downstream_rq_rx_reset`), no response is counted, and the access log line has status 0,
 * flag `DC` and details `downstream_remote_disconnect`. Bytes of a pipelined request that
 * arrive while one is in flight are kept and answered in order.
 */
import assert from "node:assert/strict";
import { type TestProxy, withLoggedProxy } from "./test_proxy.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();

/**
 * A raw HTTP/1.1 origin. Each request head it reads is recorded (`heads`); it answers `200`
 * with the request path as body once `release()` was called (answers before it wait).
 */
function origin() {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const heads: string[] = [];
  const conns: Deno.Conn[] = [];
  let wakeRequest: () => void = () => {};
  let wakeClosed: () => void = () => {};
  let released = false;
  let wakeRelease: () => void = () => {};
  const releasedP = new Promise<void>((r) => wakeRelease = r);
  let closedCount = 0;
  (async () => {
    for await (const c of l) {
      conns.push(c);
      (async () => {
        const buf = new Uint8Array(8192);
        let pending = "";
        let writes = Promise.resolve();
        try {
          for (;;) {
            const n = await c.read(buf);
            if (n === null) break;
            pending += dec.decode(buf.subarray(0, n));
            let end: number;
            while ((end = pending.indexOf("\r\n\r\n")) >= 0) {
              const head = pending.slice(0, end);
              pending = pending.slice(end + 4);
              const cl = /content-length: *(\d+)/i.exec(head);
              const len = cl === null ? 0 : Number(cl[1]);
              while (pending.length < len) {
                const m = await c.read(buf);
                if (m === null) throw new Error("closed in body");
                pending += dec.decode(buf.subarray(0, m));
              }
              pending = pending.slice(len);
              heads.push(head);
              wakeRequest();
              // Answers go out in order once released; reading goes on meanwhile (a close is seen).
              const path = head.split(" ")[1];
              const answer = `HTTP/1.1 200 OK\r\ncontent-length: ${path.length}\r\n\r\n${path}`;
              writes = writes.then(async () => {
                if (!released) await releasedP;
                await c.write(enc.encode(answer));
              }).catch(() => {});
            }
          }
        } catch { /* reset */ }
        closedCount++;
        wakeClosed();
      })();
    }
  })().catch(() => {});
  return {
    port: (l.addr as Deno.NetAddr).port,
    heads,
    /** Resolves once `n` requests have arrived. */
    async requests(n: number) {
      while (heads.length < n) await new Promise<void>((r) => wakeRequest = r);
    },
    /** Resolves once `n` connections have been closed by the proxy. */
    async closed(n: number) {
      while (closedCount < n) await new Promise<void>((r) => wakeClosed = r);
    },
    release() {
      released = true;
      wakeRelease();
    },
    close() {
      l.close();
      for (const c of conns) {
        try {
          c.close();
        } catch { /* closed */ }
      }
    },
  };
}

const FORMAT = "%REQ(:PATH)% %RESPONSE_CODE% %RESPONSE_FLAGS% %RESPONSE_CODE_DETAILS%\n";

/** `p`, or a failure naming `what` when it has not settled within 10 s (no hang on a regression). */
async function bounded<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`never happened: ${what}`)), 10_000);
  });
  try {
    return await Promise.race([p, limit]);
  } finally {
    clearTimeout(timer);
  }
}

const counter = (p: TestProxy, n: string) => p.store.counter(n).value();
const gauge = (p: TestProxy, n: string) => p.store.gauge(n).value();

/** Waits until the proxy has read `n` bytes from its clients. */
async function rxBytes(p: TestProxy, n: number): Promise<void> {
  while (counter(p, "http.test.downstream_cx_rx_bytes_total") < n) {
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function closedBeforeAnswer(request: string): Promise<void> {
  const o = origin();
  try {
    await withLoggedProxy(o.port, FORMAT, async (p, log) => {
      const c = await Deno.connect({ hostname: "127.0.0.1", port: p.port() });
      await c.write(enc.encode(request));
      await o.requests(1);
      c.close();
      await bounded(o.closed(1), "the upstream connection closed");
      assert.equal(
        await bounded(log(), "the access log line"),
        "/slow 0 DC downstream_remote_disconnect\n",
      );
      assert.equal(counter(p, "cluster.c.upstream_cx_destroy_local_with_active_rq"), 1);
      assert.equal(counter(p, "cluster.c.upstream_cx_destroy_with_active_rq"), 1);
      assert.equal(gauge(p, "cluster.c.upstream_cx_active"), 0);
      assert.equal(gauge(p, "cluster.c.upstream_rq_active"), 0);
      assert.equal(counter(p, "cluster.c.upstream_rq_503"), 0);
      assert.equal(counter(p, "http.test.downstream_cx_destroy_remote_active_rq"), 1);
      assert.equal(counter(p, "http.test.downstream_cx_destroy_active_rq"), 1);
      assert.equal(counter(p, "http.test.downstream_rq_rx_reset"), 1);
      assert.equal(counter(p, "http.test.downstream_rq_completed"), 0);
      assert.equal(counter(p, "http.test.downstream_rq_5xx"), 0);
      assert.equal(gauge(p, "http.test.downstream_rq_active"), 0);
    });
  } finally {
    o.close();
  }
}

Deno.test("HTTP/1.1 downstream: a client that closes before its answer resets the upstream request (connection closed, counted as Envoy, logged 0 DC)", async () => {
  await closedBeforeAnswer("GET /slow HTTP/1.1\r\nhost: a\r\n\r\n");
});

Deno.test("HTTP/1.1 downstream: a client that closes after sending a whole body, before its answer, resets the upstream request", async () => {
  await closedBeforeAnswer("POST /slow HTTP/1.1\r\nhost: a\r\ncontent-length: 5\r\n\r\nhello");
});

Deno.test("HTTP/1.1 downstream: a chunked request body, then a close before the answer, resets the upstream request", async () => {
  await closedBeforeAnswer(
    "POST /slow HTTP/1.1\r\nhost: a\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
  );
});

Deno.test("HTTP/1.1 downstream: a pipelined request read while the first is in flight is kept and answered in order; a close after the answers resets nothing", async () => {
  const o = origin();
  try {
    await withLoggedProxy(o.port, FORMAT, async (p) => {
      const c = await Deno.connect({ hostname: "127.0.0.1", port: p.port() });
      const first = "GET /one HTTP/1.1\r\nhost: a\r\n\r\n";
      const second = "GET /two HTTP/1.1\r\nhost: a\r\n\r\n";
      await c.write(enc.encode(first));
      await o.requests(1);
      await c.write(enc.encode(second));
      // The proxy has read the second request while the first is unanswered.
      await bounded(rxBytes(p, first.length + second.length), "the pipelined request read");
      assert.equal(o.heads.length, 1);
      o.release();
      let got = "";
      const buf = new Uint8Array(4096);
      while ((got.match(/HTTP\/1\.1 200/g) ?? []).length < 2 || !got.endsWith("/two")) {
        const n = await c.read(buf);
        if (n === null) break;
        got += dec.decode(buf.subarray(0, n));
      }
      assert.match(
        got,
        /^HTTP\/1\.1 200 OK\r\n[^]*\r\n\r\n\/oneHTTP\/1\.1 200 OK\r\n[^]*\r\n\r\n\/two$/,
      );
      c.close();
      // The client's close is seen by the proxy: its connection ends without a reset.
      while (gauge(p, "http.test.downstream_cx_active") > 0) {
        await new Promise((r) => setTimeout(r, 5));
      }
      assert.equal(counter(p, "http.test.downstream_cx_destroy_remote_active_rq"), 0);
      assert.equal(counter(p, "http.test.downstream_rq_rx_reset"), 0);
      assert.equal(counter(p, "cluster.c.upstream_cx_destroy_local_with_active_rq"), 0);
      assert.equal(counter(p, "http.test.downstream_rq_2xx"), 2);
    });
  } finally {
    o.close();
  }
});

Deno.test("HTTP/1.1 downstream: a client that closes while its answer's body is streaming resets the upstream request (logged with its status and DC)", async () => {
  // An origin that sends a head and the first piece of a chunked body, then nothing more.
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let upstreamClosed!: () => void;
  const closed = new Promise<void>((r) => upstreamClosed = r);
  const conns: Deno.Conn[] = [];
  (async () => {
    for await (const c of l) {
      conns.push(c);
      (async () => {
        const buf = new Uint8Array(4096);
        try {
          await c.read(buf);
          await c.write(
            enc.encode("HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n"),
          );
          while (await c.read(buf) !== null) { /* until the proxy closes */ }
        } catch { /* reset */ }
        upstreamClosed();
      })();
    }
  })().catch(() => {});
  try {
    await withLoggedProxy((l.addr as Deno.NetAddr).port, FORMAT, async (p, log) => {
      const c = await Deno.connect({ hostname: "127.0.0.1", port: p.port() });
      await c.write(enc.encode("GET /stream HTTP/1.1\r\nhost: a\r\n\r\n"));
      let got = "";
      const buf = new Uint8Array(4096);
      while (!got.includes("hello")) {
        const n = await c.read(buf);
        if (n === null) break;
        got += dec.decode(buf.subarray(0, n));
      }
      assert.match(got, /^HTTP\/1\.1 200 OK\r\n/);
      c.close();
      await bounded(closed, "the upstream connection closed");
      assert.equal(await bounded(log(), "the access log line"), "/stream 200 DC via_upstream\n");
      assert.equal(counter(p, "http.test.downstream_cx_destroy_remote_active_rq"), 1);
      assert.equal(counter(p, "http.test.downstream_rq_rx_reset"), 1);
      assert.equal(counter(p, "http.test.downstream_rq_2xx"), 1);
      assert.equal(counter(p, "cluster.c.upstream_cx_destroy_local_with_active_rq"), 1);
      assert.equal(gauge(p, "cluster.c.upstream_rq_active"), 0);
    });
  } finally {
    l.close();
    for (const c of conns) {
      try {
        c.close();
      } catch { /* closed */ }
    }
  }
});
