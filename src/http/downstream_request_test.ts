import assert from "node:assert/strict";
import fc from "fast-check";
import { fromRequest, parseContentLength, requestFraming } from "./downstream_request.ts";

Deno.test("listener request framing: one length, a list of equal lengths, chunked, or a 400", () => {
  assert.equal(requestFraming(null, null), 0);
  assert.equal(requestFraming("12", null), 12);
  assert.equal(requestFraming("7, 7", null), 7);
  assert.equal(requestFraming(null, "Chunked"), -1);
  for (
    const [cl, te] of [["5", "chunked"], ["5, 6", null], ["abc", null], [null, "gzip"], ["", null]]
  ) {
    const r = requestFraming(cl, te);
    assert.equal(typeof r, "object", `${cl} ${te}`);
    assert.equal((r as { status: number }).status, 400);
  }
});

Deno.test("listener request framing: parseContentLength accepts exactly decimal numbers", () => {
  fc.assert(fc.property(fc.nat(), (n) => parseContentLength(String(n)) === n));
  fc.assert(fc.property(fc.string(), (s) => {
    const v = parseContentLength(s);
    return v === -1 || (Number.isSafeInteger(v) && v >= 0);
  }));
  assert.equal(parseContentLength("1 2"), -1);
  assert.equal(parseContentLength("-1"), -1);
});

Deno.test("listener request from Deno's HTTP server: path, authority and body length", async () => {
  const get = fromRequest(new Request("http://a.example/p?q=1", { headers: { host: "b" } }));
  assert.deepEqual([get.method, get.path, get.authority, get.h2, get.contentLength], [
    "GET",
    "/p?q=1",
    "b",
    false,
    0,
  ]);
  // Without host (HTTP/2) the authority comes from the URL; a body without a length is chunked.
  const post = fromRequest(new Request("http://c.example/", { method: "POST", body: "xyz" }));
  assert.equal(post.authority, "c.example");
  assert.equal(post.h2, true);
  assert.equal(post.contentLength, -1);
  assert.equal(await new Response(post.body).text(), "xyz");
  const bad = fromRequest(
    new Request("http://a/", {
      method: "POST",
      body: "x",
      headers: { "content-length": "1", "transfer-encoding": "chunked" },
    }),
  );
  assert.equal(bad.error?.status, 400);
});
