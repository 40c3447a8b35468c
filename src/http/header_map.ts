/**
 * A header map for the proxy's hot path: a plain list of lower-case name/value pairs in the
 * order received, with the `Headers` interface, so everything that reads headers takes either.
 * Unlike Fetch `Headers` it validates nothing (codecs validate what they parse) and iterates in
 * insertion order without sorting or joining repeated fields, which is what a proxy forwards.
 * `get` joins repeated fields with ", " as `Headers` does.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { HeaderMap } from "./header_map.ts";
 * const h = new HeaderMap([["x-b", "1"], ["x-a", "2"], ["x-b", "3"]]);
 * h.set("Server", "proxy");
 * assert.equal(h.get("x-b"), "1, 3");
 * assert.deepEqual([...h.keys()], ["x-b", "x-a", "x-b", "server"]);
 * assert.equal(h.hasNamePrefix("x-"), true);
 * assert.equal(h.hasNamePrefix("x-envoy-", "x-proxy-"), false);
 * ```
 * @module
 */

/** A header name lower-cased (no copy when it already is, the usual case). */
export function lowerName(n: string): string {
  for (let i = 0; i < n.length; i++) {
    const c = n.charCodeAt(i);
    if (c >= 65 && c <= 90) return n.toLowerCase();
  }
  return n;
}

/** Lower-case name/value pairs behind the `Headers` interface. */
export class HeaderMap implements Headers {
  /** Names (lower-case) and values, alternating. */
  #kv: string[];

  /** A map of `pairs` (names must already be lower-case), or an empty one. */
  constructor(pairs?: readonly (readonly [string, string])[]) {
    const kv: string[] = [];
    if (pairs !== undefined) {
      for (let i = 0; i < pairs.length; i++) kv.push(pairs[i][0], pairs[i][1]);
    }
    this.#kv = kv;
  }

  /**
   * A map taking `kv` as it is: lower-case names and values alternating (the caller gives the
   * list up; no copy is made).
   */
  static fromFlat(kv: string[]): HeaderMap {
    const h = new HeaderMap();
    h.#kv = kv;
    return h;
  }

  /** Adds a field (keeps earlier ones of the same name). */
  append(name: string, value: string): void {
    this.#kv.push(lowerName(name), value);
  }

  /** Removes every field named `name`. */
  delete(name: string): void {
    const n = lowerName(name);
    const kv = this.#kv;
    let w = 0;
    while (w < kv.length && kv[w] !== n) w += 2;
    for (let r = w; r < kv.length; r += 2) {
      if (kv[r] === n) continue;
      kv[w++] = kv[r];
      kv[w++] = kv[r + 1];
    }
    kv.length = w;
  }

  /** The value of `name` (repeated fields joined with ", "), or null. */
  get(name: string): string | null {
    const n = lowerName(name);
    const kv = this.#kv;
    let out: string | null = null;
    for (let i = 0; i < kv.length; i += 2) {
      if (kv[i] === n) out = out === null ? kv[i + 1] : `${out}, ${kv[i + 1]}`;
    }
    return out;
  }

  /**
   * True when some field's name starts with `prefix` or `other` (lower-case): one pass that lets
   * a caller skip looking up each of a family of names, e.g. the `x-envoy-` control headers.
   */
  hasNamePrefix(prefix: string, other: string = prefix): boolean {
    const kv = this.#kv;
    for (let i = 0; i < kv.length; i += 2) {
      if (kv[i].startsWith(prefix) || kv[i].startsWith(other)) return true;
    }
    return false;
  }

  /** Every `set-cookie` value. */
  getSetCookie(): string[] {
    const kv = this.#kv;
    const out: string[] = [];
    for (let i = 0; i < kv.length; i += 2) if (kv[i] === "set-cookie") out.push(kv[i + 1]);
    return out;
  }

  /** True when a field named `name` is present. */
  has(name: string): boolean {
    const n = lowerName(name);
    const kv = this.#kv;
    for (let i = 0; i < kv.length; i += 2) if (kv[i] === n) return true;
    return false;
  }

  /** Replaces every field named `name` with one holding `value`, where the first one was. */
  set(name: string, value: string): void {
    const n = lowerName(name);
    const kv = this.#kv;
    for (let i = 0; i < kv.length; i += 2) {
      if (kv[i] === n) {
        kv[i + 1] = value;
        // Later fields of the name go; the first keeps its place (as in Fetch `Headers`).
        let w = i + 2;
        for (let r = i + 2; r < kv.length; r += 2) {
          if (kv[r] === n) continue;
          kv[w++] = kv[r];
          kv[w++] = kv[r + 1];
        }
        kv.length = w;
        return;
      }
    }
    kv.push(n, value);
  }

  /** Calls `fn` for each field in order. */
  forEach(fn: (value: string, key: string, parent: this) => void, thisArg?: unknown): void {
    const kv = this.#kv;
    for (let i = 0; i < kv.length; i += 2) fn.call(thisArg, kv[i + 1], kv[i], this);
  }

  /** The fields in order, as [name, value] pairs. */
  *entries(): IterableIterator<[string, string]> {
    const kv = this.#kv;
    for (let i = 0; i < kv.length; i += 2) yield [kv[i], kv[i + 1]];
  }

  /** The names in order (repeated names repeated). */
  *keys(): IterableIterator<string> {
    const kv = this.#kv;
    for (let i = 0; i < kv.length; i += 2) yield kv[i];
  }

  /** The values in order. */
  *values(): IterableIterator<string> {
    const kv = this.#kv;
    for (let i = 0; i < kv.length; i += 2) yield kv[i + 1];
  }

  /** Same as {@linkcode HeaderMap.entries}. */
  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }

  /** The number of fields. */
  get size(): number {
    return this.#kv.length / 2;
  }

  /** Field `i` (0-based) as [name, value]: indexed access without an iterator. */
  nameAt(i: number): string {
    return this.#kv[2 * i];
  }

  /** The value of field `i`. */
  valueAt(i: number): string {
    return this.#kv[2 * i + 1];
  }
}
