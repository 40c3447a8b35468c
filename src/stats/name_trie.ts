/**
 * Named items in code-unit order of their full dotted names, kept as a tree of name segments.
 * A node orders its entries by key, where a stat ending at the node has key `segment` and a
 * subtree has key `segment + "."`. Because segments hold no dots, comparing keys decides the
 * same as comparing full names (a leaf `svc` comes before `svc-a.*`, which comes before `svc.*`),
 * so adding a stat re-sorts only its parent's entries, never the whole set. The flattened order
 * is cached until the next addition.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { NameTrie } from "./name_trie.ts";
 * const t = new NameTrie<{ name: string }>();
 * for (const name of ["cluster.svc.x", "cluster.svc-a.x", "cluster.svc"]) t.add({ name });
 * assert.deepEqual(
 *   t.sorted().map((s) => s.name),
 *   ["cluster.svc", "cluster.svc-a.x", "cluster.svc.x"],
 * );
 * ```
 * @module
 */

class TrieNode<T> {
  /** Items whose name ends in this node's level (unsorted). */
  leaves: T[] = [];
  /** Subtrees by segment. */
  children = new Map<string, TrieNode<T>>();
  /** Leaves and subtrees in order; null when an addition made it stale. */
  order: Array<T | TrieNode<T>> | null = [];
  /** `prefixLength`: length of the names' common prefix up to and including the last dot. */
  constructor(readonly prefixLength: number, readonly key: string) {}
}

/** Items sorted by full name, with cheap insertion (see the module documentation). */
export class NameTrie<T extends { name: string }> {
  #root = new TrieNode<T>(0, "");
  #flat: T[] | null = [];
  #size = 0;

  /** Number of items. */
  get size(): number {
    return this.#size;
  }

  /** Adds an item; items with equal names keep their insertion order. */
  add(item: T): void {
    const name = item.name;
    let node = this.#root;
    let from = 0;
    for (let dot = name.indexOf("."); dot >= 0; dot = name.indexOf(".", from)) {
      const seg = name.slice(from, dot);
      let child = node.children.get(seg);
      if (child === undefined) {
        child = new TrieNode<T>(dot + 1, seg + ".");
        node.children.set(seg, child);
        node.order = null;
      }
      node = child;
      from = dot + 1;
    }
    node.leaves.push(item);
    node.order = null;
    this.#flat = null;
    this.#size++;
  }

  /** The items in name order; a snapshot that later additions do not change. */
  sorted(): readonly T[] {
    if (this.#flat === null) {
      const out: T[] = [];
      const walk = (node: TrieNode<T>) => {
        for (const e of node.order ?? (node.order = orderOf(node))) {
          if (e instanceof TrieNode) walk(e);
          else out.push(e);
        }
      };
      walk(this.#root);
      this.#flat = out;
    }
    return this.#flat;
  }
}

function orderOf<T extends { name: string }>(node: TrieNode<T>): Array<T | TrieNode<T>> {
  const keyed: Array<{ key: string; ref: T | TrieNode<T>; seq: number }> = [];
  let seq = 0;
  for (const item of node.leaves) {
    keyed.push({ key: item.name.slice(node.prefixLength), ref: item, seq: seq++ });
  }
  for (const child of node.children.values()) {
    keyed.push({ key: child.key, ref: child, seq: seq++ });
  }
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.seq - b.seq));
  return keyed.map((k) => k.ref);
}
