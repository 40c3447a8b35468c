import assert from "node:assert/strict";
import { isIP } from "node:net";
import fc from "fast-check";
import { cidrContains, ipBytes, ipVersion, parseCidr } from "./cidr.ts";

Deno.test("cidr: IPv4 and IPv6 literals and ranges", () => {
  assert.deepEqual(ipBytes("::1")?.[15], 1);
  assert.equal(ipBytes("fd00::1:2")?.length, 16);
  assert.equal(ipBytes("[::ffff:10.0.0.1]")?.[15], 1);
  for (const bad of ["1.2.3", "256.0.0.1", "1::2::3", "x", "1:2:3:4:5:6:7:8:9", ""]) {
    assert.equal(ipBytes(bad), null, bad);
  }
  const fd = parseCidr("fd00::", 8)!;
  assert.ok(cidrContains(fd, "fd12::1"));
  assert.ok(!cidrContains(fd, "fe80::1"));
  assert.ok(!cidrContains(fd, "10.0.0.1"));
  const v4 = parseCidr("172.16.0.0", 12)!;
  assert.ok(cidrContains(v4, "172.31.255.255"));
  assert.ok(!cidrContains(v4, "172.32.0.0"));
  assert.equal(parseCidr("10.0.0.0", 33), null);
  assert.ok(cidrContains(parseCidr("0.0.0.0", 0)!, "8.8.8.8"));
});

Deno.test("cidr: ipVersion answers as node:net's isIP (the address check of bind addresses)", () => {
  const samples = [
    "1.2.3.4",
    "255.255.255.255",
    "256.1.1.1",
    "01.2.3.4",
    "1.2.3.04",
    "0.0.0.0",
    "1.2.3",
    "1.2.3.4.5",
    "::",
    "::1",
    "1::",
    "1:2:3:4:5:6:7:8",
    "1:2:3:4:5:6:7::",
    "1::2:3:4:5:6:7:8",
    "::ffff:1.2.3.4",
    "::ffff:01.2.3.4",
    "1.2.3.4::",
    "01.2.3.4::1.2.3.4",
    "fe80::1%eth0",
    "fe80::1%",
    "fe80::1%a b",
    "[::1]",
    ":1::2",
    "1:::2",
    "12345::",
    "abcd::ef01:1.2.3.4",
    "1:2:3:4:5:6:1.2.3.4",
    "1:2:3:4:5:6:7:1.2.3.4",
    "::1.2.3.4",
    "",
    " 1.2.3.4",
    "g::1",
  ];
  for (const s of samples) assert.equal(ipVersion(s), isIP(s), JSON.stringify(s));
  assert.equal(ipVersion("10.1.2.3"), 4);
  assert.equal(ipVersion("::ffff:10.0.0.1"), 6);
  const seg = fc.oneof(
    fc.constantFrom("", "0", "00", "1", "ffff", "fffff", "1.2.3.4", "01.2.3.4", "g"),
    fc.hexaString({ maxLength: 5 }),
  );
  const v6 = fc.array(seg, { minLength: 1, maxLength: 10 }).map((a) => a.join(":"));
  const part = fc.oneof(fc.nat(300).map(String), fc.constantFrom("00", "01", "", "a"));
  const v4 = fc.array(part, { minLength: 1, maxLength: 5 }).map((a) => a.join("."));
  const zone = fc.option(fc.constantFrom("%eth0", "%", "%a/b"));
  fc.assert(
    fc.property(fc.oneof(v6, v4, fc.string()), zone, (s, z) => {
      const t = s + (z ?? "");
      assert.equal(ipVersion(t), isIP(t), JSON.stringify(t));
    }),
    { seed: 19, numRuns: 20_000 },
  );
});
