import assert from "node:assert/strict";
import fc from "fast-check";
import {
  compileFormat,
  compileJsonFormat,
  DEFAULT_FORMAT,
  FormatError,
  type LogRecord,
} from "./access_log_format.ts";
import { compileTimeFormat } from "./access_log_time.ts";
import { FilterState } from "../http/filter_state.ts";

const START = Date.UTC(2026, 10, 21, 9, 5, 7, 123);

function record(over: Partial<LogRecord> = {}): LogRecord {
  const req = new Headers({
    "user-agent": "curl/8.0",
    "x-request-id": "5f1e0a2c-0000-4000-8000-000000000001",
    "x-forwarded-for": "10.0.0.9",
  });
  const pseudo: Record<string, string> = {
    ":method": "GET",
    ":path": "/a?b=1",
    ":authority": "web",
  };
  return {
    startMs: START,
    protocol: "HTTP/1.1",
    req: (n) => pseudo[n] ?? req.get(n),
    resp: new Headers({ "x-proxy-upstream-service-time": "3", "content-type": "text/plain" }),
    status: 200,
    flags: [],
    bytesReceived: 0,
    bytesSent: 2048,
    durationMs: 4.7,
    upstreamHost: "127.0.0.1:8080",
    upstreamCluster: "web",
    downstreamRemote: { transport: "tcp", hostname: "127.0.0.1", port: 40000 },
    downstreamLocal: { transport: "tcp", hostname: "127.0.0.1", port: 10000 },
    ...over,
  };
}

Deno.test("access log: the default format gives Envoy's line (x-proxy- header spelling)", () => {
  const line = compileFormat(DEFAULT_FORMAT, "f")(record());
  assert.equal(
    line,
    '[2026-11-21T09:05:07.123Z] "GET /a?b=1 HTTP/1.1" 200 - 0 2048 4 3 "10.0.0.9" "curl/8.0" ' +
      '"5f1e0a2c-0000-4000-8000-000000000001" "web" "127.0.0.1:8080"\n',
  );
});

Deno.test("access log: missing values print '-', flags are joined by commas", () => {
  const line = compileFormat(
    "%RESPONSE_FLAGS% %UPSTREAM_HOST% %REQ(X-NONE)% %RESP(X-NONE)% %UPSTREAM_CLUSTER%",
    "f",
  )(record({ flags: ["UF", "URX"], upstreamHost: null, upstreamCluster: null }));
  assert.equal(line, "UF,URX - - - -");
});

Deno.test("access log: REQ fallback header, max length, addresses, %% and protocol", () => {
  const f = compileFormat(
    "%REQ(X-PROXY-ORIGINAL-PATH?:PATH)% %REQ(USER-AGENT):4% %DOWNSTREAM_REMOTE_ADDRESS% " +
      "%DOWNSTREAM_REMOTE_ADDRESS_WITHOUT_PORT% %DOWNSTREAM_LOCAL_ADDRESS% %REQUESTED_SERVER_NAME% " +
      "100%% %PROTOCOL%",
    "f",
  );
  assert.equal(
    f(record()),
    "/a?b=1 curl 127.0.0.1:40000 127.0.0.1 127.0.0.1:10000 - 100% HTTP/1.1",
  );
  const v6 = record({ downstreamRemote: { transport: "tcp", hostname: "::1", port: 5 } });
  assert.equal(compileFormat("%DOWNSTREAM_REMOTE_ADDRESS%", "f")(v6), "[::1]:5");
  assert.equal(
    compileFormat("%PROTOCOL% %RESPONSE_CODE%", "f")(record({ protocol: null, status: 0 })),
    "- 0",
  );
  assert.equal(compileFormat("%HOSTNAME%", "f")(record()), Deno.hostname());
});

Deno.test("access log: START_TIME with a format, %E<n>S, %s and %f", () => {
  const f = compileFormat("%START_TIME(%Y/%m/%d %H:%M:%S %E6S %s %f %j %a %b %z)%", "f");
  assert.equal(
    f(record()),
    "2026/11/21 09:05:07 07.123000 1795251907 123000000 325 Sat Nov +0000",
  );
  assert.equal(compileTimeFormat("", "f")(0), "1970-01-01T00:00:00.000Z");
});

Deno.test("access log: json_format keeps numbers, nulls missing values, nests objects", () => {
  const f = compileJsonFormat({
    code: "%RESPONSE_CODE%",
    path: "%REQ(:PATH)%",
    host: "%UPSTREAM_HOST%",
    flags: "%RESPONSE_FLAGS%",
    what: "%REQ(:METHOD)% to %UPSTREAM_CLUSTER%",
    nested: { sent: "%BYTES_SENT%" },
  }, "f");
  assert.equal(
    f(record({ upstreamHost: null })),
    '{"code":200,"path":"/a?b=1","host":null,"flags":null,"what":"GET to web","nested":{"sent":2048}}\n',
  );
});

Deno.test("access log: bad formats are errors that say where", () => {
  assert.throws(() => compileFormat("%NOPE%", "hcm.access_log[0].format"), (e: unknown) => {
    assert.ok(e instanceof FormatError);
    assert.equal(e.path, "hcm.access_log[0].format");
    assert.match(e.message, /unsupported command operator %NOPE%/);
    return true;
  });
  assert.throws(() => compileFormat("%REQ%", "f"), /needs a header name/);
  assert.throws(() => compileFormat("50%", "f"), /malformed command operator at offset 2/);
  assert.throws(
    () => compileFormat("%START_TIME(%Q)%", "f"),
    /unsupported START_TIME specifier %Q/,
  );
  assert.throws(() => compileJsonFormat({ a: [1] }, "j"), /j\.a: json_format values/);
});

Deno.test("access log: text without operators is copied as is", () => {
  fc.assert(fc.property(fc.string().filter((s) => !s.includes("%")), (s) => {
    assert.equal(compileFormat(s, "f")(record()), s);
  }));
});

Deno.test("access log operators: RESPONSE_FLAGS_LONG spells each flag out; STREAM_ID is the request id", () => {
  const f = compileFormat("%RESPONSE_FLAGS%|%RESPONSE_FLAGS_LONG%|%STREAM_ID%", "f");
  assert.equal(
    f(record({ flags: ["UF", "DC"] })),
    "UF,DC|UpstreamConnectionFailure,DownstreamConnectionTermination|" +
      "5f1e0a2c-0000-4000-8000-000000000001",
  );
  assert.equal(f(record()), "-|-|5f1e0a2c-0000-4000-8000-000000000001");
});

Deno.test("access log operators: TRAILER reads response trailers like RESP reads headers (alternative, max length)", () => {
  const trailers = new Headers({ "grpc-status": "14", "grpc-message": "unavailable" });
  const f = compileFormat(
    "%TRAILER(GRPC-STATUS)% %TRAILER(x-none?grpc-message):5% %TRAILER(x-none)% %RESP(grpc-status)%",
    "f",
  );
  assert.equal(f(record({ trailers })), "14 unava - -");
  assert.equal(f(record()), "- - - -");
  const j = compileJsonFormat({ s: "%TRAILER(grpc-status)%", m: "%TRAILER(x-none)%" }, "j");
  assert.equal(j(record({ trailers })), '{"s":"14","m":null}\n');
  assert.throws(() => compileFormat("%TRAILER%", "f"), /%TRAILER% needs a header name/);
  assert.throws(() => compileFormat("%TRAILER(a?b?c)%", "f"), /invalid header names/);
});

Deno.test("access log %FILTER_STATE(KEY:F)%: string objects JSON-quoted by default and with TYPED, raw with PLAIN, truncated by :Z; bad forms refused", () => {
  const filterState = new FilterState();
  filterState.set("k", { value: "v1", hashable: false, readOnly: false });
  const r = record({ filterState });
  const f = "%FILTER_STATE(k)% %FILTER_STATE(k:TYPED)% %FILTER_STATE(k:PLAIN)% " +
    "%FILTER_STATE(k:PLAIN):1% %FILTER_STATE(x)%";
  assert.equal(compileFormat(f, "f")(r), '"v1" "v1" v1 v -');
  assert.equal(compileFormat("%FILTER_STATE(k)%", "f")(record()), "-");
  assert.equal(
    compileJsonFormat({ a: "%FILTER_STATE(k)%", b: "%FILTER_STATE(x)%" }, "f")(r),
    '{"a":"v1","b":null}\n',
  );
  for (
    const [bad, msg] of [
      ["%FILTER_STATE(k:FIELD:f)%", /FIELD is not supported by this build/],
      ["%FILTER_STATE(k:RAW)%", /the form must be PLAIN, TYPED or FIELD/],
      ["%FILTER_STATE()%", /needs a key/],
      ["%FILTER_STATE%", /needs a key/],
    ] as const
  ) {
    assert.throws(
      () => compileFormat(bad, "p"),
      (e) => e instanceof FormatError && msg.test(e.message),
    );
  }
});
