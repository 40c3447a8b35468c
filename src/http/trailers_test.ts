import assert from "node:assert/strict";
import {
  forwardableTrailer,
  lastChunkWithTrailers,
  parseTrailerLine,
  trailersOf,
} from "./trailers.ts";
import { HeaderMap } from "./header_map.ts";

Deno.test("trailers: a field line parses to a lower-case name and a trimmed value; malformed ones do not", () => {
  assert.deepEqual(parseTrailerLine("Grpc-Status:0"), ["grpc-status", "0"]);
  assert.deepEqual(parseTrailerLine("x-a: \t v w \t"), ["x-a", "v w"]);
  assert.deepEqual(parseTrailerLine("x-empty:"), ["x-empty", ""]);
  for (const bad of ["no colon", ": v", "x a: v", "x-a : v", "x-a: v\x00", "x-a: \x7f"]) {
    assert.equal(parseTrailerLine(bad), null, JSON.stringify(bad));
  }
});

Deno.test("trailers: framing, routing, authentication and content fields are never forwarded (RFC 9110 section 6.5.1)", () => {
  for (
    const n of ["content-length", "transfer-encoding", "host", "authorization", "te", ":status"]
  ) {
    assert.equal(forwardableTrailer(n), false, n);
  }
  assert.equal(forwardableTrailer("grpc-status"), true);
  const h = trailersOf([["content-length", "3"], ["x-sum", "a"], ["x-sum", "b"]]);
  assert.deepEqual([...h!], [["x-sum", "a"], ["x-sum", "b"]]);
  assert.equal(trailersOf([["content-type", "x"]]), null);
});

Deno.test("trailers: the last chunk carries the trailer section, or is the plain last chunk without any", () => {
  assert.equal(lastChunkWithTrailers(null), "0\r\n\r\n");
  const h = new HeaderMap([["grpc-status", "0"], ["grpc-message", "ok"], ["te", "trailers"]]);
  assert.equal(lastChunkWithTrailers(h), "0\r\ngrpc-status: 0\r\ngrpc-message: ok\r\n\r\n");
});
