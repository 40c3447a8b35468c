/**
 * `--config-yaml` merging: the override is merged over the bootstrap loaded from
 * `--config-path`, as protobuf `MergeFrom` does with messages: objects merge key by key, lists
 * append, scalars overwrite.
 *
 * One difference from Envoy (recorded on the `cli.options.config-yaml` row): a scalar written in
 * the override always overwrites, also when it is a proto3 default (`0`, `false`, `""`), which
 * `MergeFrom` would skip; so `port_value: 0` in `--config-yaml` does select port 0.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mergeProto3Json } from "./merge.ts";
 * assert.deepEqual(
 *   mergeProto3Json({ a: { b: 1, l: [1] } }, { a: { c: 2, l: [2] } }),
 *   { a: { b: 1, c: 2, l: [1, 2] } },
 * );
 * ```
 * @module
 */
import type { Json } from "./bootstrap_types.ts";
import { isJsonObject as isObject } from "./values.ts";

/**
 * Merges `over` into a copy of `base` (neither input is changed).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mergeProto3Json } from "./merge.ts";
 * assert.deepEqual(mergeProto3Json({ l: [1], s: "a" }, { l: [2], s: "b" }), { l: [1, 2], s: "b" });
 * ```
 */
export function mergeProto3Json(base: Json, over: Json): Json {
  if (Array.isArray(base) && Array.isArray(over)) return [...base, ...over];
  if (isObject(base) && isObject(over)) {
    const out: { [k: string]: Json } = { ...base };
    for (const [k, v] of Object.entries(over)) {
      out[k] = k in base ? mergeProto3Json(base[k], v) : v;
    }
    return out;
  }
  return over === null ? base : over;
}
