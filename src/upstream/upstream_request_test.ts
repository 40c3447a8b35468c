import assert from "node:assert/strict";
import { decodeHead, encodeHead } from "../http/head_bytes.ts";
import { headText, type UpstreamRequest } from "./upstream_request.ts";

Deno.test("upstream head codec: bytes 0x80-0xff survive a decode and encode unchanged", () => {
  const bytes = new Uint8Array(256);
  for (let i = 0; i < 256; i++) bytes[i] = i;
  const text = decodeHead(bytes, 0, 256);
  assert.equal(text.length, 256);
  assert.deepEqual(encodeHead(text), bytes);
  assert.equal(decodeHead(bytes, 65, 68), "ABC");
});

Deno.test("upstream head codec: a body without a length is sent chunked", () => {
  const r: UpstreamRequest = {
    method: "POST",
    path: "/p",
    authority: "a",
    headers: [["x-a", "1"]],
    body: new ReadableStream(),
    contentLength: -1,
    timeoutMs: 0,
    priority: 0,
    downstreamH2: true,
  };
  assert.equal(
    headText(r),
    "POST /p HTTP/1.1\r\nhost: a\r\nx-a: 1\r\ntransfer-encoding: chunked\r\n\r\n",
  );
});
