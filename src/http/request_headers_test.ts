import assert from "node:assert/strict";
import { upstreamHeaders } from "./request_headers.ts";

const OPTS = { appendXff: null, proto: "http", overwriteProto: false, requestId: false };

Deno.test("request headers: te goes on only as its trailers token, as Envoy sanitizes it", () => {
  const te = (v: string) =>
    upstreamHeaders(new Headers({ te: v }), OPTS).filter(([k]) => k === "te").map(([, x]) => x);
  assert.deepEqual(te("trailers"), ["trailers"]);
  assert.deepEqual(te("gzip;q=1, Trailers"), ["trailers"]);
  assert.deepEqual(te("gzip, deflate"), []);
  assert.deepEqual(te("trailersx"), []);
});
