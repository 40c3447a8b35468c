import assert from "node:assert/strict";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { effectiveCluster } from "../config/effective_cluster.ts";
import { protocolCluster as cluster } from "../config/protocol_test_cluster.ts";
import { httpListener, rawExchange, startTestProxy } from "./test_proxy.ts";
import { routeAllTo } from "./test_origins.ts";

const BIG = 300_000;

/**
 * An h2c origin: `/small` answers 2 KiB with content-length, `/nolength` two pieces without
 * content-length, `/big` 300,000 bytes with content-length in 16 KiB writes.
 */
async function h2Origin(): Promise<{ port: number; close(): Promise<void> }> {
  const server = http2.createServer();
  server.on("stream", (st: http2.ServerHttp2Stream, h: http2.IncomingHttpHeaders) => {
    const path = h[":path"];
    if (path === "/small") {
      st.respond({ ":status": 200, "content-length": "2048" });
      st.end("s".repeat(2048));
    } else if (path === "/nolength") {
      st.respond({ ":status": 200 });
      st.write("first-");
      setTimeout(() => st.end("second"), 20);
    } else {
      st.respond({ ":status": 200, "content-length": String(BIG) });
      const piece = "b".repeat(16384);
      let left = BIG;
      const more = () => {
        while (left > 0) {
          const n = Math.min(left, piece.length);
          left -= n;
          if (!st.write(piece.slice(0, n))) return void st.once("drain", more);
        }
        st.end();
      };
      more();
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

Deno.test("cluster.fields.typed-extension-protocol-options: an HTTP/2 upstream's body reaches an HTTP/1.1 client whole and framed as it came (content-length kept, chunked without one)", async () => {
  const o = await h2Origin();
  const h2 = cluster(o.port, { explicit_http_config: { http2_protocol_options: {} } });
  const p = await startTestProxy([httpListener(routeAllTo("o"))], [effectiveCluster(h2)]);
  try {
    const get = (path: string) =>
      rawExchange(
        p.port(),
        `GET ${path} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n`,
        400_000,
      );
    for (let i = 0; i < 3; i++) {
      const small = await get("/small");
      assert.match(small, /^HTTP\/1\.1 200 /);
      assert.match(small, /\r\ncontent-length: 2048\r\n/);
      assert.doesNotMatch(small, /transfer-encoding/);
      assert.equal(small.slice(small.indexOf("\r\n\r\n") + 4), "s".repeat(2048));
    }
    const chunked = await get("/nolength");
    assert.match(chunked, /\r\ntransfer-encoding: chunked\r\n/);
    const body = chunked.slice(chunked.indexOf("\r\n\r\n") + 4).replace(/\r\n[0-9a-f]+\r\n/g, "");
    assert.match(body, /^[0-9a-f]+\r\nfirst-second/);
    const big = await get("/big");
    assert.match(big, new RegExp(`\\r\\ncontent-length: ${BIG}\\r\\n`));
    assert.equal(big.slice(big.indexOf("\r\n\r\n") + 4), "b".repeat(BIG));
  } finally {
    await p.close();
    await o.close();
  }
});
