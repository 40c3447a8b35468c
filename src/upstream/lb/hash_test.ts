import assert from "node:assert/strict";
import { murmurHash2, xxHash64, xxHash64Concat } from "./hash.ts";

// Points of the rings printed in Envoy's test/common/upstream/ring_hash_lb_test.cc.
Deno.test("cluster.objects.ring-hash-lb-config.hash-function: XX_HASH gives Envoy's ring points (RingHashLoadBalancerTest.Basic)", () => {
  assert.equal(xxHash64("127.0.0.1:94_1"), 833437586790550860n);
  assert.equal(xxHash64("127.0.0.1:92_0"), 928266305478181108n);
  assert.equal(xxHash64("127.0.0.1:90_0"), 16117243373044804889n);
  assert.equal(xxHash64("127.0.0.1:95_0"), 3551244743356806947n);
  assert.equal(xxHash64("hello").toString(16), "26c7827d889f6da3");
});

Deno.test("cluster.objects.ring-hash-lb-config.hash-function: MURMUR_HASH_2 is libstdc++ std::hash of a string (RingHashLoadBalancerTest.BasicWithMurmur2)", () => {
  assert.equal(murmurHash2("127.0.0.1:85_0"), 1358027074129602068n);
  assert.equal(murmurHash2("127.0.0.1:83_1"), 4361834613929391114n);
  assert.equal(murmurHash2("127.0.0.1:84_1"), 7224494972555149682n);
  assert.equal(murmurHash2("127.0.0.1:80_0"), 17613279263364193813n);
  assert.equal(murmurHash2("127.0.0.1:80_1"), 15427156902705414897n);
  // Eight-byte blocks and a tail of each length take both code paths.
  const values = new Set([0, 1, 7, 8, 9, 15, 16, 17].map((n) => murmurHash2("x".repeat(n))));
  assert.equal(values.size, 8);
});

Deno.test("route hash: several values hash as one stream of their bytes", () => {
  assert.equal(xxHash64Concat(["he", "llo"]), xxHash64("hello"));
  assert.equal(xxHash64Concat(["hello"]), xxHash64("hello"));
  assert.equal(xxHash64("a", 1n) === xxHash64("a"), false);
});
