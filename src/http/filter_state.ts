/**
 * A request's filter state: named objects that HTTP filters store for later parts of the same
 * request to read (Envoy's `StreamInfo::FilterState`). This build's objects are strings, made by
 * the two generic factories of Envoy's `set_filter_state` filters: `envoy.string` and
 * `envoy.hashable_string`, whose objects a `hash_policy.filter_state` can hash (xxHash64 of the
 * value, as Envoy's `HashableString`).
 *
 * An object stored read-only stays: a later store under its key is refused (Envoy reports the
 * violation and keeps the first object).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { FilterState } from "./filter_state.ts";
 * const fs = new FilterState();
 * assert.equal(fs.set("k", { value: "a", hashable: true, readOnly: true }), true);
 * assert.equal(fs.set("k", { value: "b", hashable: true, readOnly: false }), false);
 * assert.equal(fs.get("k")?.value, "a");
 * ```
 * @module
 */

/** One object in filter state. */
export interface FilterStateObject {
  /** The object's bytes as text (what the access log's `PLAIN` form shows). */
  readonly value: string;
  /** Whether the object has a hash (`envoy.hashable_string`). */
  readonly hashable: boolean;
  /** Stored read-only: no later store replaces it. */
  readonly readOnly: boolean;
}

/** The filter state of one request. */
export class FilterState {
  #objects = new Map<string, FilterStateObject>();

  /** Stores `object` under `key`; false (nothing changed) when a read-only object is there. */
  set(key: string, object: FilterStateObject): boolean {
    if (this.#objects.get(key)?.readOnly) return false;
    this.#objects.set(key, object);
    return true;
  }

  /** The object under `key`, if any. */
  get(key: string): FilterStateObject | undefined {
    return this.#objects.get(key);
  }
}
