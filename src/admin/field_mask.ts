/**
 * Protobuf `FieldMask` on proto3 JSON objects, as `/config_dump?mask=` applies it: the mask is a
 * comma-separated list of dotted paths; a trimmed message keeps only the fields the paths name
 * (and its `@type`). A path may go through a singular message field, including a packed `Any`
 * (`cluster.name`), but not through a repeated one, as protobuf's `FieldMaskUtil::TrimMessage`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { applyMask, parseMask } from "./field_mask.ts";
 * assert.deepEqual(
 *   applyMask({ "@type": "T", a: { b: 1, c: 2 }, d: 3 }, parseMask("a.b")),
 *   { "@type": "T", a: { b: 1 } },
 * );
 * ```
 * @module
 */

/** A parsed mask: each path split into its field names. */
export type FieldMask = string[][];

/** Parses `a.b,c` into `[["a","b"],["c"]]`; empty paths are dropped. */
export function parseMask(mask: string): FieldMask {
  return mask.split(",").map((p) => p.trim()).filter((p) => p !== "").map((p) => p.split("."));
}

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** Returns a copy of `message` with only the masked fields. */
export function applyMask(message: Obj, mask: FieldMask): Obj {
  const out: Obj = {};
  if ("@type" in message) out["@type"] = message["@type"];
  const byField = new Map<string, FieldMask>();
  const whole = new Set<string>();
  for (const path of mask) {
    const [head, ...rest] = path;
    if (rest.length === 0) whole.add(head);
    else byField.set(head, [...(byField.get(head) ?? []), rest]);
  }
  for (const [k, v] of Object.entries(message)) {
    if (k === "@type") continue;
    if (whole.has(k)) out[k] = v;
    else if (byField.has(k) && isObj(v)) out[k] = applyMask(v, byField.get(k)!);
  }
  return out;
}
