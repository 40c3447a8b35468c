/**
 * Stat names as JSON strings, for the JSON form of `/stats`: what `JSON.stringify(stat.name)`
 * gives, without building and scanning every full name. A stat's name is its head (the scope,
 * shared by the stats of one block) followed by its leaf (shared by every block); whether each
 * part needs escaping is decided once per head run and once per leaf, and a name whose parts
 * both need none is quoted as it is.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Store } from "./store.ts";
 * import { jsonNameQuoter } from "./json_name.ts";
 * const store = new Store();
 * const quote = jsonNameQuoter();
 * assert.equal(quote(store.counter("a.b")), '"a.b"');
 * assert.equal(quote(store.counter('a."b"')), '"a.\\"b\\""');
 * ```
 * @module
 */
import type { NamedStat } from "./stat_name.ts";

/** Whether `JSON.stringify` leaves `s` as it is between its quotes (it escapes by lengthening). */
function plain(s: string): boolean {
  return JSON.stringify(s).length === s.length + 2;
}

/**
 * A function that quotes stat names as `JSON.stringify(stat.name)` does, for one render. It
 * remembers the last head and every leaf it saw (leaves are shared by the store, so that is no
 * more than the store holds). A head or leaf that needs escaping, or that could form a surrogate
 * pair with the other part, sends the whole name through `JSON.stringify`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Store } from "./store.ts";
 * import { jsonNameQuoter } from "./json_name.ts";
 * const store = new Store();
 * const quote = jsonNameQuoter();
 * assert.equal(quote(store.gauge("x.y\n")), '"x.y\\n"');
 * ```
 */
export function jsonNameQuoter(): (stat: NamedStat) => string {
  const leaves = new Map<string, boolean>();
  let head = "";
  let headPlain = true;
  return (stat) => {
    const h = stat.nameHead, l = stat.nameLeaf;
    if (h !== head) {
      head = h;
      headPlain = plain(h);
    }
    let leafPlain = leaves.get(l);
    if (leafPlain === undefined) leaves.set(l, leafPlain = plain(l));
    return headPlain && leafPlain ? '"' + h + l + '"' : JSON.stringify(h + l);
  };
}
