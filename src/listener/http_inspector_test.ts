import assert from "node:assert/strict";
import { inspectHttp } from "./http_inspector.ts";

const enc = (s: string) => new TextEncoder().encode(s);

Deno.test("http_inspector: HTTP/1.0, HTTP/1.1 and the HTTP/2 preface; more bytes wanted until the line ends", () => {
  assert.deepEqual(inspectHttp(enc("GET /x HTTP/1.1\r\nhost: a\r\n")), { kind: "http/1.1" });
  assert.deepEqual(inspectHttp(enc("POST / HTTP/1.0\r\n")), { kind: "http/1.0" });
  assert.deepEqual(inspectHttp(enc("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")), { kind: "h2c" });
  assert.deepEqual(inspectHttp(enc("PRI * HTTP/2")), { kind: "more" });
  assert.deepEqual(inspectHttp(enc("GET /x HTT")), { kind: "more" });
});

Deno.test("http_inspector: other protocols are not HTTP", () => {
  assert.deepEqual(inspectHttp(enc("SSH-2.0-OpenSSH\r\n")), { kind: "none" });
  assert.deepEqual(inspectHttp(Uint8Array.of(22, 3, 1)), { kind: "none" });
  assert.deepEqual(inspectHttp(enc("GET / HTTP/3.0\r\n")), { kind: "none" });
});
