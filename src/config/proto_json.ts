/**
 * JSON rendering of protobuf-shaped admin answers, as Envoy prints them: pretty output with a
 * one-space indent and a trailing newline, `<` and `>` escaped as `\u003c` and `\u003e`, and
 * (unless a handler asks to print every primitive field) proto3 default values left out: `0`,
 * `false`, `""`, empty lists and unset (`undefined`/`null`) fields. 64-bit integers are strings
 * in proto3 JSON; {@linkcode uint64} makes one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { protoJson } from "./proto_json.ts";
 * assert.equal(protoJson({ name: "a", added_via_api: false, hosts: [] }), '{\n "name": "a"\n}\n');
 * ```
 * @module
 */

/** Options of {@linkcode protoJson}. */
export interface ProtoJsonOptions {
  /** Keep fields that hold their proto3 default (Envoy's `always_print_primitive_fields`). */
  alwaysPrintPrimitives?: boolean;
  /** Pretty output (default true). */
  pretty?: boolean;
}

/** Whether a value is a proto3 default that JSON output omits. */
export function isProtoDefault(v: unknown): boolean {
  return v === undefined || v === null || v === 0 || v === false || v === "" ||
    (Array.isArray(v) && v.length === 0);
}

/**
 * Removes proto3 default values from an object tree (objects that end up empty stay, as a set
 * message does).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { omitDefaults } from "./proto_json.ts";
 * assert.deepEqual(omitDefaults({ a: 0, b: { c: "" }, d: [1] }), { b: {}, d: [1] });
 * ```
 */
export function omitDefaults(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(omitDefaults);
  if (v !== null && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      if (isProtoDefault(x)) continue;
      out[k] = omitDefaults(x);
    }
    return out;
  }
  return v;
}

/**
 * A uint64 as proto3 JSON prints it: a decimal string.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { uint64 } from "./proto_json.ts";
 * assert.equal(uint64(5), "5");
 * ```
 */
export function uint64(n: number | bigint): string {
  if (typeof n === "bigint") return n.toString();
  return Number.isFinite(n) ? Math.max(0, Math.trunc(n)).toString() : "0";
}

/**
 * Renders a message as Envoy's admin does.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { protoJson } from "./proto_json.ts";
 * assert.equal(
 *   protoJson({ path: "<inline>" }, { alwaysPrintPrimitives: true }),
 *   '{\n "path": "\\u003cinline\\u003e"\n}\n',
 * );
 * ```
 */
export function protoJson(message: unknown, opts: ProtoJsonOptions = {}): string {
  const value = opts.alwaysPrintPrimitives ? message : omitDefaults(message);
  const text = opts.pretty === false ? JSON.stringify(value) : JSON.stringify(value, null, 1);
  return text.replaceAll("<", "\\u003c").replaceAll(">", "\\u003e") + "\n";
}

/**
 * An `application/json` response holding {@linkcode protoJson} output.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { jsonResponse } from "./proto_json.ts";
 * const res = jsonResponse({ a: 1 });
 * assert.equal(res.headers.get("content-type"), "application/json");
 * ```
 */
export function jsonResponse(
  message: unknown,
  opts: ProtoJsonOptions & { status?: number } = {},
): Response {
  return new Response(protoJson(message, opts), {
    status: opts.status ?? 200,
    headers: { "content-type": "application/json" },
  });
}

/**
 * A `text/plain; charset=UTF-8` response.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { textResponse } from "./proto_json.ts";
 * assert.equal(textResponse("OK\n").status, 200);
 * ```
 */
export function textResponse(body: string, status = 200, contentType?: string): Response {
  return new Response(body, {
    status,
    headers: { "content-type": contentType ?? "text/plain; charset=UTF-8" },
  });
}
