/**
 * A request's dynamic metadata (Envoy's `StreamInfo::dynamicMetadata()`): namespaces, each a
 * `google.protobuf.Struct` that HTTP filters write (the header-to-metadata filter) and later
 * parts of the same request read: the router (its `envoy.lb` namespace joins the route's
 * `metadata_match` criteria) and access logs (`%DYNAMIC_METADATA(NAMESPACE:KEY*)%`).
 *
 * Writing a Struct into a namespace merges it as Envoy's `setDynamicMetadata` does (protobuf
 * `MergeFrom` of the Struct's field map): each key written replaces that key's value whole,
 * keys not written stay.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DynamicMetadata } from "./dynamic_metadata.ts";
 * const md = new DynamicMetadata();
 * md.set("envoy.lb", { version: "v1", stage: "prod" });
 * md.set("envoy.lb", { version: "v2" });
 * assert.deepEqual(md.get("envoy.lb"), { version: "v2", stage: "prod" });
 * md.set("f", { a: { b: 1 } });
 * assert.equal(md.value("f", ["a", "b"]), 1);
 * assert.equal(md.value("f", ["a", "c"]), undefined);
 * ```
 * @module
 */

/** A `google.protobuf.Value` as JSON. */
export type MetadataValue =
  | null
  | boolean
  | number
  | string
  | MetadataValue[]
  | { [k: string]: MetadataValue };

/** A `google.protobuf.Struct` as JSON. */
export type MetadataStruct = { [k: string]: MetadataValue };

/** The dynamic metadata of one request. */
export class DynamicMetadata {
  #namespaces = new Map<string, MetadataStruct>();

  /** Merges `struct` into namespace `ns`: its keys replace those of the namespace. */
  set(ns: string, struct: Readonly<MetadataStruct>): void {
    const have = this.#namespaces.get(ns);
    if (have === undefined) this.#namespaces.set(ns, { ...struct });
    else Object.assign(have, struct);
  }

  /** The Struct of namespace `ns`, if anything was written to it. */
  get(ns: string): Readonly<MetadataStruct> | undefined {
    return this.#namespaces.get(ns);
  }

  /**
   * The value at `path` (keys of nested Structs) in namespace `ns`, as Envoy's
   * `Metadata::metadataValue` finds it: undefined when a key is missing or a step is not a Struct.
   */
  value(ns: string, path: readonly string[]): MetadataValue | undefined {
    let v: MetadataValue | undefined = this.#namespaces.get(ns);
    for (const k of path) {
      if (v === null || typeof v !== "object" || Array.isArray(v) || !Object.hasOwn(v, k)) {
        return undefined;
      }
      v = v[k];
    }
    return v;
  }

  /** The namespaces written, in the order they were first written. */
  namespaces(): IterableIterator<string> {
    return this.#namespaces.keys();
  }
}
