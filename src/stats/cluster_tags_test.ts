import assert from "node:assert/strict";
import fc from "fast-check";
import { CLUSTER_NAME_TAG, clusterOfHead, leafTags } from "./cluster_tags.ts";
import { extractTags } from "./tag_extraction.ts";

Deno.test("admin.endpoints.stats-prometheus: per-leaf extraction of cluster stats equals extracting each full name", () => {
  const piece = fc.constantFrom(
    "web",
    "_rq_",
    "200",
    "5xx",
    "_",
    "grpc",
    "ssl",
    "ciphers",
    "worker_",
    "x",
    "-",
    "1",
    ":",
  );
  const part = fc.array(piece, { minLength: 0, maxLength: 4 }).map((a) => a.join(""));
  const leaf = fc.oneof(
    part,
    fc.constantFrom("upstream_rq_200", "upstream_rq_5xx", "upstream_rq_completed", "rq_999"),
  );
  const rest = fc.array(part, { maxLength: 2 }).map((a) => a.map((p) => `${p}.`).join(""));
  let shared = 0;
  fc.assert(
    fc.property(part, rest, leaf, (name, r, l) => {
      const head = `cluster.${name}.${r}`;
      const parts = clusterOfHead(head);
      const tags = parts && leafTags(parts.rest, l);
      if (parts === undefined || tags === undefined) return;
      shared++;
      assert.deepEqual(extractTags(head + l), {
        name: tags.name,
        tags: [...tags.tags, [CLUSTER_NAME_TAG, parts.cluster]],
      });
    }),
    { numRuns: 3000 },
  );
  assert.ok(shared > 300, `only ${shared} names took the shared path`);
});

Deno.test("admin.endpoints.stats-prometheus: heads and leaves that other extractors may touch are left to full extraction", () => {
  assert.equal(clusterOfHead("cluster.a.grpc."), undefined);
  assert.equal(clusterOfHead("cluster.grpc."), undefined);
  assert.equal(clusterOfHead("cluster.."), undefined);
  assert.equal(clusterOfHead("listener.a."), undefined);
  assert.equal(clusterOfHead("cluster.a.ssl.ciphers."), undefined);
  assert.equal(leafTags("", "a.b"), undefined);
  assert.equal(leafTags("", "ssl_handshake"), undefined);
  assert.equal(leafTags("", ""), undefined);
});
