import assert from "node:assert/strict";
import { CLUSTER_FIELDS } from "../../spec/cluster/fields.ts";
import { CLUSTER_OBJECTS } from "../../spec/cluster/objects.ts";
import { CLUSTER_ENUMS } from "../../spec/cluster/enums.ts";
import type { FieldRow } from "../../spec/rule.ts";
import { MESSAGES } from "./bootstrap_schema.ts";
import {
  CLUSTER_MESSAGES,
  describeRows,
  fullTypeName,
  PROTO_MESSAGES,
} from "./proto_cluster_schema.ts";

const ROWS = [...CLUSTER_FIELDS, ...CLUSTER_OBJECTS] as readonly FieldRow[];

Deno.test("cluster.fields.name: every numbered table row is a described field with the row's number", () => {
  for (const row of ROWS) {
    const desc = CLUSTER_MESSAGES[fullTypeName(row.message)];
    assert.ok(desc, row.message);
    const f = desc.fields.find((x) => x.name === row.field);
    if (row.number === undefined) {
      assert.equal(f, undefined, row.id);
      assert.ok(desc.undescribed?.includes(row.field), row.id);
      continue;
    }
    assert.equal(f?.number, row.number, row.id);
    assert.equal(f?.repeated ?? false, row.cardinality === "repeated", row.id);
    assert.equal(f?.map ?? false, row.cardinality === "map", row.id);
  }
});

Deno.test("cluster.fields.name: field numbers are unique within each generated message", () => {
  for (const desc of Object.values(CLUSTER_MESSAGES)) {
    const numbers = desc.fields.map((f) => f.number);
    assert.equal(new Set(numbers).size, numbers.length, desc.fullName);
  }
});

Deno.test("cluster.fields.name: the Cluster message is fully numbered", () => {
  const cluster = CLUSTER_MESSAGES["envoy.api.v2.Cluster"];
  assert.equal(cluster.fields.length, CLUSTER_FIELDS.length);
  assert.deepEqual(cluster.undescribed, []);
  assert.equal(cluster.source, "spec/cluster/fields.ts");
});

Deno.test("cluster.objects.ring-hash-lb-config.minimum-ring-size: nested types and wrappers resolve to full proto names", () => {
  const ring = PROTO_MESSAGES["envoy.api.v2.Cluster.RingHashLbConfig"];
  assert.deepEqual(
    ring.fields.map((f) => [f.name, f.number, f.kind]),
    [
      ["minimum_ring_size", 1, { message: "google.protobuf.UInt64Value" }],
      ["hash_function", 3, { enum: ["XX_HASH", "MURMUR_HASH_2"] }],
      ["maximum_ring_size", 4, { message: "google.protobuf.UInt64Value" }],
    ],
  );
  const lb = PROTO_MESSAGES["envoy.api.v2.Cluster"].fields.find((f) =>
    f.name === "load_assignment"
  );
  assert.deepEqual(lb?.kind, { message: "envoy.api.v2.ClusterLoadAssignment" });
  assert.equal(PROTO_MESSAGES["envoy.type.Percent"].fields[0].number, 1);
  assert.equal(PROTO_MESSAGES["google.protobuf.Any"].wellKnown, "any");
});

Deno.test("cluster.enums.discovery-type: enum fields decode by the value numbers of cluster.enums", () => {
  for (const desc of Object.values(CLUSTER_MESSAGES)) {
    for (const f of desc.fields) {
      if (!("enum" in f.kind)) continue;
      const row = ROWS.find((r) => fullTypeName(r.message) === desc.fullName && r.field === f.name);
      const e = CLUSTER_ENUMS.find((x) => x.name === row?.enum);
      assert.ok(e, `${desc.fullName}.${f.name}`);
      for (const v of e.values) assert.equal(f.kind.enum[v.number], v.name);
    }
  }
});

Deno.test("cluster.objects.custom-cluster-type.name: table numbers agree with the hand-written bootstrap descriptions", () => {
  for (const [name, gen] of Object.entries(CLUSTER_MESSAGES)) {
    const hand = MESSAGES[name];
    if (!hand) continue;
    for (const f of gen.fields) {
      const h = hand.fields.find((x) => x.name === f.name);
      assert.equal(h?.number, f.number, `${name}.${f.name}`);
    }
  }
});

Deno.test("cluster.objects.custom-cluster-type.name: a row without a number or an unknown enum is listed as undescribed", () => {
  const base = {
    level: "MUST",
    statement: "s",
    cite: { section: "x", quote: "q" },
    check: "internal",
  } as const;
  const got = describeRows([
    { ...base, id: "t.a", message: "T", field: "a", kind: "string", number: 1 },
    { ...base, id: "t.b", message: "T", field: "b", kind: "string" },
    { ...base, id: "t.c", message: "T", field: "c", kind: "enum", enum: "Nope", number: 3 },
  ]);
  assert.deepEqual(got["envoy.api.v2.T"].fields.map((f) => f.name), ["a"]);
  assert.deepEqual(got["envoy.api.v2.T"].undescribed, ["b", "c"]);
});
