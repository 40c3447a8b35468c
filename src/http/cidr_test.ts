import assert from "node:assert/strict";
import { cidrContains, ipBytes, parseCidr } from "./cidr.ts";

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
