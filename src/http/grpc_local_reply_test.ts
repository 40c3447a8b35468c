import assert from "node:assert/strict";
import {
  httpToGrpcStatus,
  isGrpcRequest,
  percentEncodeGrpcMessage,
  toGrpcLocalReply,
} from "./grpc_local_reply.ts";
import { localReply } from "./local_reply.ts";
import { HeaderMap } from "./header_map.ts";

Deno.test("grpc local replies: grpc-message is percent-encoded as Envoy's PercentEncoding::encode (its test vectors)", () => {
  const json =
    `\n{\n    "error": {\n        "code": 401,\n        "message": "Unauthorized"\n    }\n}\n  `;
  assert.equal(
    percentEncodeGrpcMessage(json),
    `%0A{%0A    "error": {%0A        "code": 401,%0A        "message": "Unauthorized"%0A    }%0A}%0A  `,
  );
  assert.equal(percentEncodeGrpcMessage("too large"), "too large");
  assert.equal(percentEncodeGrpcMessage("_-ok-_"), "_-ok-_");
  assert.equal(percentEncodeGrpcMessage("50% ~ \x7f\té"), "50%25 %7E %7F%09%C3%A9");
});

Deno.test("grpc local replies: HTTP statuses map to gRPC's as Envoy's httpToGrpcStatus; gRPC content types as hasGrpcContentType", () => {
  const map = Object.fromEntries(
    [200, 400, 401, 403, 404, 408, 413, 429, 500, 502, 503, 504].map((
      s,
    ) => [s, httpToGrpcStatus(s)]),
  );
  assert.deepEqual(map, {
    200: 2,
    400: 13,
    401: 16,
    403: 7,
    404: 12,
    408: 2,
    413: 2,
    429: 14,
    500: 2,
    502: 14,
    503: 14,
    504: 14,
  });
  const ct = (v: string) => isGrpcRequest(new Headers({ "content-type": v }));
  assert.deepEqual(
    [
      "application/grpc",
      "application/grpc+json",
      "application/grpc-web",
      "application/grpc;x",
      "text/plain",
    ]
      .map(ct),
    [true, true, false, false, false],
  );
  assert.equal(isGrpcRequest(new Headers()), false);
});

Deno.test("grpc local replies: the reply's own gRPC status and an existing grpc-status header win; HEAD gets no grpc-message; content-length and the body go", () => {
  const r = localReply(200, "fault filter abort");
  r.grpcStatus = 8;
  r.headers.set("content-length", "18");
  toGrpcLocalReply(r, false);
  assert.deepEqual(
    [r.status, r.headers.get("grpc-status"), r.headers.get("grpc-message"), r.body],
    [200, "8", "fault filter abort", null],
  );
  assert.equal(r.headers.get("content-length"), null);
  const kept = toGrpcLocalReply(
    { status: 503, headers: new HeaderMap([["grpc-status", "9"]]), body: null, localBody: "x" },
    true,
  );
  assert.deepEqual([kept.headers.get("grpc-status"), kept.headers.get("grpc-message")], [
    "9",
    null,
  ]);
  const json = localReply(503, "");
  json.localBody = '{"a":1}\n';
  json.headers.set("content-type", "application/json");
  assert.equal(toGrpcLocalReply(json, false).headers.get("grpc-message"), '{"a":1}');
  assert.equal(json.headers.get("content-type"), "application/grpc");
});
