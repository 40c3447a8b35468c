import assert from "node:assert/strict";
import http2 from "node:http2";
import { HttpListener } from "./http_listener.ts";
import { HeaderMap } from "../http/header_map.ts";
import { trailerSlot } from "../http/trailers.ts";
import { asComponentLog } from "../platform/log_site.ts";

Deno.test("trailers: an HTTP/2 client's response drops its trailers with a debug line that says why", async () => {
  const lines: string[] = [];
  const l = new HttpListener(
    "127.0.0.1",
    0,
    () => {
      const trailers = trailerSlot();
      const body = new ReadableStream<Uint8Array>({
        start(ctrl) {
          ctrl.enqueue(new TextEncoder().encode("payload"));
          // The upstream side fills the trailers before it ends the body.
          trailers.headers = new HeaderMap([["grpc-status", "0"]]);
          ctrl.close();
        },
      });
      return Promise.resolve({ status: 200, headers: new HeaderMap(), body, trailers });
    },
    [],
    [],
  );
  l.log = asComponentLog((level, message) => lines.push(`${level} ${message}`));
  const s = http2.connect(`http://127.0.0.1:${l.port}`);
  try {
    const st = s.request({ ":path": "/" });
    let got: unknown = null;
    st.on("trailers", (t) => got = t);
    let body = "";
    st.on("data", (d: Uint8Array) => body += new TextDecoder().decode(d));
    const ended = new Promise((r) => st.on("end", r));
    st.end();
    await ended;
    assert.equal(body, "payload");
    assert.equal(got, null);
  } finally {
    s.close();
    await l.close();
  }
  assert.ok(
    lines.includes(
      "debug trailers dropped (grpc-status): the HTTP/2 downstream server cannot send them",
    ),
    lines.join("\n"),
  );
});
