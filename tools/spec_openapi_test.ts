import assert from "node:assert/strict";
import { Validator } from "openapi-schema-validator";
import { ENDPOINTS } from "../spec/admin/endpoints.ts";
import type { QueryParam } from "../spec/rule.ts";
import { OPENAPI_URL, toOpenApi, toOpenApiJson } from "./spec_openapi.ts";

type OpParam = { name: string; schema: { enum?: string[] } };
type Op = {
  parameters?: OpParam[];
  responses: Record<string, unknown>;
  "x-rule-ids": string[];
};

Deno.test("admin.endpoints: the OpenAPI description is valid OpenAPI 3.1", async () => {
  const doc = toOpenApi();
  assert.equal(doc.openapi, "3.1.0");
  const result = await new Validator().validate(structuredClone(doc));
  assert.equal(result.valid, true, JSON.stringify(result.errors));
  const broken = structuredClone(doc) as Record<string, unknown>;
  delete broken.info;
  assert.equal((await new Validator().validate(broken)).valid, false);
});

Deno.test("admin.endpoints: every row's path and method is described, with its rule ID", () => {
  const doc = toOpenApi();
  const ids = new Set<string>();
  for (const r of ENDPOINTS) {
    const op = doc.paths[r.path]?.[r.method.toLowerCase()] as Op | undefined;
    assert.ok(op, `${r.method} ${r.path}`);
    assert.ok(op["x-rule-ids"].includes(r.id), r.id);
    ids.add(r.id);
    for (const p of r.params as readonly QueryParam[]) {
      if (p.kind === "pairs") continue;
      const param: OpParam | undefined = op.parameters?.find((q) => q.name === p.name);
      assert.ok(param, `${r.path}: ${p.name}`);
      if (p.kind === "enum") assert.deepEqual(param.schema.enum, p.values);
    }
  }
  assert.equal(ids.size, ENDPOINTS.length);
  assert.equal(Object.keys(doc.paths).length, new Set(ENDPOINTS.map((r) => r.path)).size);
});

Deno.test("admin.mutation.get-returns-400, errors.ready-not-live: status codes in the description", () => {
  const doc = toOpenApi();
  for (const r of ENDPOINTS.filter((r) => r.mutating)) {
    const get = doc.paths[r.path].get as Op;
    assert.ok(get.responses["400"], `GET ${r.path} → 400`);
    assert.ok(get["x-rule-ids"].includes("admin.mutation.get-returns-400"));
  }
  const ready = doc.paths["/ready"].get as Op;
  assert.ok(ready.responses["503"]);
  assert.ok(ready.responses["200"]);
  for (const r of ENDPOINTS.filter((r) => "requires" in r)) {
    const op = doc.paths[r.path][r.method.toLowerCase()] as Op;
    assert.ok(op.responses["404"], `${r.path} without its feature → 404`);
  }
});

Deno.test("admin.endpoints: docs/admin.openapi.json is fresh (run `deno task spec:openapi`)", async () => {
  const committed = await Deno.readTextFile(OPENAPI_URL);
  assert.equal(committed, toOpenApiJson(), "docs/admin.openapi.json is stale");
});
