/**
 * `deno task spec:openapi`: writes `docs/admin.openapi.json`, an OpenAPI 3.1 description of the
 * admin interface generated from the endpoint table (`spec/admin/endpoints.ts`): one path item per
 * path, its method, the query parameters of its rows, the success content types, 400 for GET on
 * a mutating path, 503 for `/ready`, 404 for an absent optional feature, and `x-rule-ids` naming
 * the rules each operation and response encodes.
 *
 * Usage: `deno run -A tools/spec_openapi.ts [--check]`
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toOpenApi } from "./spec_openapi.ts";
 * const doc = toOpenApi();
 * assert.ok("/ready" in doc.paths); // one path per endpoint row
 * ```
 * @module
 */
import { ENDPOINTS } from "../spec/admin/endpoints.ts";
import type { EndpointRow, QueryParam } from "../spec/rule.ts";
import { writeOrCheck } from "./generated_file.ts";

/** Where the document is written. */
export const OPENAPI_URL = new URL("../docs/admin.openapi.json", import.meta.url);

/** The rule IDs of GET on a mutating path. */
const GET_400_RULES = ["admin.mutation.get-returns-400", "errors.get-on-mutating-path"];

type Json = Record<string, unknown>;

/** The OpenAPI document (the parts this generator writes). */
export interface OpenApiDoc {
  openapi: string;
  info: Json;
  servers: Json[];
  paths: Record<string, Record<string, unknown>>;
  components: Json;
  [key: string]: unknown;
}

function schemaFor(contentType: string, shape: string): Json {
  if (contentType.startsWith("application/json")) {
    return { type: "object", description: `Shape \`${shape}\`.` };
  }
  return { type: "string", description: `Shape \`${shape}\`.` };
}

function parameter(p: QueryParam): Json {
  const description = p.help;
  switch (p.kind) {
    case "flag":
      return {
        name: p.name,
        in: "query",
        required: false,
        allowEmptyValue: true,
        description: `${description} (set by presence; any value)`,
        schema: { type: "string" },
      };
    case "enum":
      return {
        name: p.name,
        in: "query",
        required: false,
        description,
        schema: { type: "string", enum: [...(p.values ?? [])] },
      };
    case "pairs":
      return {
        name: p.name.replace(/[<>]/g, ""),
        in: "query",
        required: false,
        style: "form",
        explode: true,
        description: `${description} (any number of key=value pairs)`,
        schema: { type: "object", additionalProperties: { type: "string" } },
      };
    default:
      return {
        name: p.name,
        in: "query",
        required: false,
        description,
        schema: { type: "string" },
      };
  }
}

function operationId(method: string, path: string): string {
  const words = path.split(/[/_]/).filter(Boolean);
  if (words.length === 0) words.push("home");
  return method.toLowerCase() +
    words.map((w) => w[0].toUpperCase() + w.slice(1)).join("");
}

function requestLine(r: EndpointRow): string {
  return `${r.method} ${r.path}${r.query ? `?${r.query}` : ""}`;
}

function operation(rows: readonly EndpointRow[]): Json {
  const first = rows[0];
  const params: QueryParam[] = [];
  for (const r of rows) {
    for (const p of r.params) if (!params.some((q) => q.name === p.name)) params.push(p);
  }
  const content: Json = {};
  for (const r of rows) {
    if (!(r.contentType in content)) {
      content[r.contentType] = { schema: schemaFor(r.contentType, r.shape) };
    }
  }
  const responses: Record<string, Json> = {
    "200": {
      description: rows.map((r) => `${requestLine(r)}: ${r.statement}`).join("\n\n"),
      content,
      "x-rule-ids": rows.map((r) => r.id),
    },
  };
  if (params.some((p) => p.kind !== "flag")) {
    responses["400"] = { $ref: "#/components/responses/BadRequest" };
  }
  if (first.path === "/ready") {
    responses["503"] = {
      description: "The server state is not LIVE; the body is the state.",
      content: { "text/plain; charset=UTF-8": { schema: { type: "string" } } },
      "x-rule-ids": ["errors.ready-not-live"],
    };
    (responses["200"]["x-rule-ids"] as string[]).push("errors.ready-live");
  }
  if (first.requires) responses["404"] = { $ref: "#/components/responses/FeatureAbsent" };
  const op: Json = {
    operationId: operationId(first.method, first.path),
    summary: first.help,
    description: rows.map((r) => `- \`${requestLine(r)}\` (\`${r.id}\`): ${r.statement}`)
      .join("\n"),
    parameters: params.map(parameter),
    responses,
    "x-rule-ids": rows.map((r) => r.id),
  };
  if (first.requires) op["x-requires"] = first.requires;
  if (first.mutating) op["x-mutating"] = true;
  return op;
}

function refusedGet(path: string): Json {
  return {
    operationId: operationId("get", path) + "Refused",
    summary: `GET is refused: ${path} changes state and answers only POST`,
    description: "A GET sent to a mutating path has no effect and the response is HTTP 400.",
    responses: { "400": { $ref: "#/components/responses/MutatingGet" } },
    "x-rule-ids": GET_400_RULES,
  };
}

/**
 * Builds the OpenAPI 3.1 document from endpoint rows.
 *
 * @param rows endpoint rows (default: the specification's table)
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toOpenApi } from "./spec_openapi.ts";
 * const doc = toOpenApi();
 * assert.ok(doc.paths["/ready"]);
 * ```
 */
export function toOpenApi(rows: readonly EndpointRow[] = ENDPOINTS): OpenApiDoc {
  const byPath = new Map<string, EndpointRow[]>();
  for (const r of rows) byPath.set(r.path, [...(byPath.get(r.path) ?? []), r]);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [path, group] of byPath) {
    const item: Record<string, unknown> = { summary: group[0].help };
    for (const method of new Set(group.map((r) => r.method))) {
      item[method.toLowerCase()] = operation(group.filter((r) => r.method === method));
    }
    if (group.some((r) => r.mutating) && !("get" in item)) item.get = refusedGet(path);
    const aliases = group.flatMap((r) => "alias" in r && r.alias ? [r.alias] : []) as {
      path: string;
      query: string;
    }[];
    if (aliases.length) {
      item.description = `Also answered at ${
        aliases.map((a) => `\`${a.path}?${a.query}\``).join(", ")
      }.`;
    }
    paths[path] = item;
  }
  const text = { "text/plain; charset=UTF-8": { schema: { type: "string" } } };
  return {
    openapi: "3.1.0",
    info: {
      title: "proxyspec administration interface",
      version: "0.1.0",
      description: [
        "Generated by `deno task spec:openapi` from `spec/admin/endpoints.ts`; do not edit.",
        "Every operation that changes state is a POST; a GET on such a path answers 400 and has no effect.",
        "A path that names no endpoint answers 404 with `invalid path. ` and the /help text.",
        "Every answer carries `Cache-Control: no-cache, max-age=0` (unless the endpoint sets its own) and `X-Content-Type-Options: nosniff`.",
      ].join("\n\n"),
    },
    servers: [{
      url: "http://127.0.0.1:9901",
      description: "The admin listener (bootstrap `admin.address`).",
    }],
    "x-unknown-path": {
      status: 404,
      "x-rule-ids": ["admin.general.unknown-path-404"],
    },
    paths,
    components: {
      responses: {
        MutatingGet: {
          description: "GET on a mutating path: no effect.",
          content: text,
          "x-rule-ids": GET_400_RULES,
        },
        BadRequest: {
          description: "A query parameter has a value the endpoint does not accept.",
          content: text,
        },
        FeatureAbsent: {
          description: "The optional feature this endpoint needs is absent.",
          content: text,
          "x-rule-ids": ["errors.optional-feature-absent"],
        },
      },
    },
  };
}

/**
 * The file's text: the document, two-space indent, ending with a newline.
 *
 * @param rows endpoint rows (default: the specification's table)
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toOpenApiJson } from "./spec_openapi.ts";
 * const json = toOpenApiJson(); // `deno task spec:openapi` writes it to a file
 * assert.equal(JSON.parse(json).openapi.split(".")[0], "3");
 * ```
 */
export function toOpenApiJson(rows: readonly EndpointRow[] = ENDPOINTS): string {
  return JSON.stringify(toOpenApi(rows), null, 2) + "\n";
}

if (import.meta.main) {
  Deno.exit(writeOrCheck(OPENAPI_URL, toOpenApiJson(), {
    name: "docs/admin.openapi.json",
    task: "spec:openapi",
    summary: `${Object.keys(toOpenApi().paths).length} paths`,
  }));
}
