import assert from "node:assert/strict";
import { compileFormat, compileJsonFormat, type LogRecord } from "./access_log_format.ts";
import { DynamicMetadata } from "../http/dynamic_metadata.ts";

const addr = { transport: "tcp" as const, hostname: "127.0.0.1", port: 1 };

function record(md: DynamicMetadata | null): LogRecord {
  return {
    startMs: 0,
    protocol: "HTTP/1.1",
    req: () => null,
    resp: null,
    status: 200,
    flags: [],
    bytesReceived: 0,
    bytesSent: 0,
    durationMs: 0,
    upstreamHost: null,
    upstreamCluster: null,
    downstreamRemote: addr,
    downstreamLocal: addr,
    dynamicMetadata: md,
  };
}

/** Envoy's documented example: com.test.my_filter: {"test_key": "foo", "test_object": {...}}. */
function example(): DynamicMetadata {
  const md = new DynamicMetadata();
  md.set("com.test.my_filter", { test_key: "foo", test_object: { inner_key: "bar" } });
  md.set("n", { count: 42.5, on: true, list: [1, "a"], nothing: null });
  return md;
}

Deno.test("access log %DYNAMIC_METADATA(NAMESPACE:KEY*):Z% and %METADATA(DYNAMIC:...)%: Envoy's documented examples, strings as they are, other values as JSON, absent as -", () => {
  const f = (format: string) => compileFormat(format, "f")(record(example()));
  assert.equal(
    f("%DYNAMIC_METADATA(com.test.my_filter)%"),
    '{"test_key":"foo","test_object":{"inner_key":"bar"}}',
  );
  assert.equal(f("%DYNAMIC_METADATA(com.test.my_filter:test_key)%"), "foo");
  assert.equal(f("%DYNAMIC_METADATA(com.test.my_filter:test_object)%"), '{"inner_key":"bar"}');
  assert.equal(f("%DYNAMIC_METADATA(com.test.my_filter:test_object:inner_key)%"), "bar");
  assert.equal(f("%DYNAMIC_METADATA(com.unknown_filter)%"), "-");
  assert.equal(f("%DYNAMIC_METADATA(com.test.my_filter:unknown_key)%"), "-");
  assert.equal(f("%DYNAMIC_METADATA(com.test.my_filter):25%"), '{"test_key":"foo","test_o');
  assert.equal(f("%DYNAMIC_METADATA(n:count)% %DYNAMIC_METADATA(n:on)%"), "42.5 true");
  assert.equal(f("%DYNAMIC_METADATA(n:list)% %DYNAMIC_METADATA(n:nothing)%"), '[1,"a"] -');
  assert.equal(f("%DYNAMIC_METADATA(n:count:x)%"), "-", "a number has no keys");
  // %METADATA(DYNAMIC:...)% is the same operator.
  assert.equal(f("%METADATA(DYNAMIC:com.test.my_filter:test_object:inner_key)%"), "bar");
  assert.equal(f("%METADATA(DYNAMIC:n):4%"), '{"co');
  // No metadata at all (a TCP connection, or no filter wrote any).
  assert.equal(compileFormat("%DYNAMIC_METADATA(n)%", "f")(record(null)), "-");
  assert.equal(compileFormat("%DYNAMIC_METADATA(n)%", "f", { omitEmpty: true })(record(null)), "");
});

Deno.test("access log %DYNAMIC_METADATA(...)% in JSON formats: the value itself (a string when truncated), null when absent; a namespace is required", () => {
  const j = compileJsonFormat({
    all: "%DYNAMIC_METADATA(com.test.my_filter)%",
    key: "%DYNAMIC_METADATA(n:count)%",
    list: "%DYNAMIC_METADATA(n:list)%",
    cut: "%DYNAMIC_METADATA(n:count):2%",
    text: "x=%DYNAMIC_METADATA(n:on)%",
    none: "%DYNAMIC_METADATA(none)%",
  }, "f");
  assert.deepEqual(JSON.parse(j(record(example()))), {
    all: { test_key: "foo", test_object: { inner_key: "bar" } },
    key: 42.5,
    list: [1, "a"],
    cut: "42",
    text: "x=true",
    none: null,
  });
  const omit = compileJsonFormat({ none: "%DYNAMIC_METADATA(none)%" }, "f", { omitEmpty: true });
  assert.equal(omit(record(example())), "{}\n");
  assert.throws(() => compileFormat("%DYNAMIC_METADATA()%", "f"), /f: .*needs a namespace/);
  assert.throws(() => compileFormat("%DYNAMIC_METADATA%", "f"), /needs a namespace/);
  assert.throws(
    () => compileFormat("%METADATA(CLUSTER:ns:k)%", "f"),
    /f: %METADATA\(CLUSTER:ns:k\)%: metadata type "CLUSTER" is not supported by this build/,
  );
});
