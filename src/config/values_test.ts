/**
 * Tests of the proto3 JSON value parsers.
 *
 * @module
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  formatDuration,
  parseBool,
  parseDouble,
  parseDuration,
  parseEnum,
  parsePercent,
  parseUInt32,
  parseUInt64,
} from "./values.ts";

Deno.test("cluster.fields.connect-timeout: Duration strings parse to milliseconds", () => {
  assert.deepEqual(parseDuration("0.25s"), { ok: true, value: 250 });
  assert.deepEqual(parseDuration("5s"), { ok: true, value: 5000 });
  assert.deepEqual(parseDuration("0.000001s"), { ok: true, value: 0.001 });
  assert.deepEqual(parseDuration("-1.5s"), { ok: true, value: -1500 });
  for (const bad of ["5", "5ms", "s", "1.0000000001s", " 5s", 5, null, {}]) {
    const p = parseDuration(bad);
    assert.equal(p.ok, false, String(bad));
    if (!p.ok) assert.match(p.error, /duration/);
  }
});

Deno.test("cluster.fields.connect-timeout: formatDuration and parseDuration round-trip", () => {
  fc.assert(
    fc.property(fc.integer({ min: -1e9, max: 1e9 }), fc.integer({ min: 0, max: 999 }), (ms, us) => {
      const v = ms + us / 1000;
      const p = parseDuration(formatDuration(v));
      assert.ok(p.ok);
      assert.ok(Math.abs(p.value - v) < 1e-6);
    }),
  );
  assert.equal(formatDuration(5000), "5s");
  assert.equal(formatDuration(250), "0.250s");
});

Deno.test("cluster.fields.per-connection-buffer-limit-bytes: unsigned integers, as numbers or strings", () => {
  assert.deepEqual(parseUInt32(1024), { ok: true, value: 1024 });
  assert.deepEqual(parseUInt32("1024"), { ok: true, value: 1024 });
  assert.deepEqual(parseUInt32(4294967295), { ok: true, value: 4294967295 });
  for (const bad of [-1, 1.5, 4294967296, "df", "1e3", true, null]) {
    const p = parseUInt32(bad);
    assert.equal(p.ok, false, String(bad));
    if (!p.ok) assert.match(p.error, /TYPE_UINT32/);
  }
  assert.deepEqual(parseUInt64("8388608"), { ok: true, value: 8388608 });
  assert.equal(parseUInt64("18446744073709551616").ok, false);
});

Deno.test("cluster.objects.common-lb-config.healthy-panic-threshold: Percent is an object with value", () => {
  assert.deepEqual(parsePercent({ value: 50 }), { ok: true, value: 50 });
  assert.deepEqual(parsePercent({}), { ok: true, value: 0 });
  assert.equal(parsePercent(50).ok, false);
  assert.equal(parsePercent({ value: "x" }).ok, false);
  assert.equal(parsePercent({ value: 1, other: 2 }).ok, false);
});

Deno.test("cluster.enums.lb-policy: enums match by name case-insensitively or by number", () => {
  const names = ["ROUND_ROBIN", "LEAST_REQUEST"];
  assert.deepEqual(parseEnum("round_robin", names, [0, 1]), { ok: true, value: "ROUND_ROBIN" });
  assert.deepEqual(parseEnum(1, names, [0, 1]), { ok: true, value: "LEAST_REQUEST" });
  assert.equal(parseEnum("ROUND_ROBBIN", names, [0, 1]).ok, false);
  assert.equal(parseEnum(7, names, [0, 1]).ok, false);
});

Deno.test("cluster.fields.respect-dns-ttl: bools and doubles", () => {
  assert.deepEqual(parseBool(false), { ok: true, value: false });
  assert.equal(parseBool("true").ok, false);
  assert.deepEqual(parseDouble("2.5"), { ok: true, value: 2.5 });
  assert.equal(parseDouble(Infinity).ok, false);
});
