import assert from "node:assert/strict";
import type { Json } from "../config/bootstrap_types.ts";
import type { Errors } from "../config/config_values.ts";
import { parseAccessLogFilter } from "./access_log_filter.ts";
import type { LogRecord } from "./access_log_format.ts";
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

const md = new DynamicMetadata();
md.set("app", {
  tier: "Gold",
  score: 7.5,
  on: true,
  none: null,
  tags: ["a", "b"],
  nested: { k: "v" },
});
const withMd = record(md);
const without = record(null);

function compile(filter: Json): (r: LogRecord) => boolean {
  const errors: Errors = [];
  const f = parseAccessLogFilter({ metadata_filter: filter }, "f", errors);
  assert.deepEqual(errors, []);
  return f!;
}

const on = (path: string[], value: Json, extra: Record<string, Json> = {}) =>
  compile({ matcher: { filter: "app", path: path.map((key) => ({ key })), value }, ...extra });

Deno.test("access log metadata_filter: the dynamic metadata value at filter and path decides by the ValueMatcher, as Envoy's MetadataFilter", () => {
  const cases: [string[], Json, boolean][] = [
    [["tier"], { string_match: { exact: "Gold" } }, true],
    [["tier"], { string_match: { exact: "gold" } }, false],
    [["tier"], { string_match: { exact: "gold", ignore_case: true } }, true],
    [["tier"], { string_match: { prefix: "Go" } }, true],
    [["tier"], { string_match: { safe_regex: { regex: "G.l[a-z]" } } }, true],
    [["tier"], { string_match: { safe_regex: { regex: "G" } } }, false],
    [["score"], { double_match: { exact: 7.5 } }, true],
    [["score"], { double_match: { range: { start: 7.5, end: 8 } } }, true],
    [["score"], { double_match: { range: { start: 7, end: 7.5 } } }, false],
    [["score"], { string_match: { exact: "7.5" } }, false],
    [["on"], { bool_match: true }, true],
    [["on"], { bool_match: false }, false],
    [["none"], { null_match: {} }, true],
    [["tier"], { null_match: {} }, false],
    [["none"], { present_match: true }, true],
    [["nested"], { present_match: true }, true],
    [["nested"], { present_match: false }, false],
    [["nested", "k"], { string_match: { exact: "v" } }, true],
    [["tags"], { list_match: { one_of: { string_match: { exact: "b" } } } }, true],
    [["tags"], { list_match: { one_of: { string_match: { exact: "c" } } } }, false],
    [
      ["tier"],
      { or_match: { value_matchers: [{ bool_match: true }, { string_match: { suffix: "ld" } }] } },
      true,
    ],
  ];
  for (const [path, value, want] of cases) {
    assert.equal(on(path, value)(withMd), want, JSON.stringify([path, value]));
  }
});

Deno.test("access log metadata_filter: an absent key (or no metadata, or no matcher) writes the line unless match_if_key_not_found is false", () => {
  const value = { string_match: { exact: "x" } };
  assert.equal(on(["missing"], value)(withMd), true);
  assert.equal(on(["tier"], value)(without), true);
  assert.equal(on(["tier", "deeper"], value)(withMd), true, "a string has no keys");
  assert.equal(on(["missing"], value, { match_if_key_not_found: false })(withMd), false);
  assert.equal(on(["missing"], value, { match_if_key_not_found: { value: false } })(withMd), false);
  assert.equal(compile({})(withMd), true);
  assert.equal(compile({ match_if_key_not_found: false })(withMd), false);
});

Deno.test("access log metadata_filter: bad matchers, and invert (which Envoy's filter ignores), are refused with their paths", () => {
  const errors = (filter: Json) => {
    const e: Errors = [];
    parseAccessLogFilter({ metadata_filter: filter }, "f", e);
    return e.map((x) => `${x.path}: ${x.message}`);
  };
  const m = (over: Record<string, Json>) => ({
    matcher: { filter: "app", path: [{ key: "k" }], value: { bool_match: true }, ...over },
  });
  assert.match(
    errors(m({ invert: true }))[0],
    /^f\.metadata_filter\.matcher\.invert: invert is not supported by this build/,
  );
  assert.deepEqual(errors(m({ filter: "" })), [
    "f.metadata_filter.matcher.filter: filter is required (a namespace)",
  ]);
  assert.deepEqual(errors(m({ path: [] })), [
    "f.metadata_filter.matcher.path: path needs at least one segment",
  ]);
  assert.deepEqual(errors(m({ value: { bool_match: true, null_match: {} } })), [
    "f.metadata_filter.matcher.value: exactly one of null_match, double_match, string_match, " +
    "bool_match, present_match, list_match, or_match",
  ]);
  assert.deepEqual(errors(m({ value: { double_match: { range: { start: "a", end: 1 } } } })), [
    "f.metadata_filter.matcher.value.double_match.range: start and end must be numbers",
  ]);
  assert.deepEqual(errors(m({ value: { string_match: { exact: "a", regex: "b" } } })), [
    "f.metadata_filter.matcher.value.string_match.regex: regex is not supported by this build",
  ]);
  assert.deepEqual(errors({ matcher: m({}).matcher, other: 1 }), [
    "f.metadata_filter.other: other is not supported by this build",
  ]);
});
