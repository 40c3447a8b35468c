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
  /**
   * Items whose name ends in this node's level and that `order` does not hold yet, in insertion
   * order (once ordered, an item is kept by `order` only).
   */
  leaves: T[] = [];
  /** Subtrees by segment. */
  children = new Map<string, TrieNode<T>>();
  /** Ordered leaves and subtrees (without the additions since; see `NameTrie.settle`). */
  order: Array<T | TrieNode<T>> = [];
  /** `prefixLength`: length of the names' common prefix up to and including the last dot. */
  constructor(readonly prefixLength: number, readonly key: string) {}
}

/**
 * What the trie sorts: anything with a name. Items that also carry their name as a shared head
 * and a leaf (see `stat_name.ts`) are placed and ordered without building their names.
 */
export interface TrieItem {
  readonly name: string;
  readonly nameHead?: string;
  readonly nameLeaf?: string;
}

/** Items sorted by full name, with cheap insertion (see the module documentation). */
export class NameTrie<T extends TrieItem> {
  #root = new TrieNode<T>(0, "");
  #flat: T[] | null = [];
  #size = 0;
  /** The node of each head seen, so items of one scope skip the walk. */
  #byHead = new Map<string, TrieNode<T>>();
  /** One string per distinct subtree key (`segment.`), shared by sibling scopes. */
  #subtreeKeys = new Map<string, string>();
  #lastKeys: string[] = [];
  #lastPerm: number[] = [];
  /** Nodes whose order an addition made stale. */
  #stale = new Set<TrieNode<T>>();
  /** A flattening under way (see {@linkcode NameTrie.settle}). */
  #flattening: { out: T[]; stack: Array<{ order: Array<T | TrieNode<T>>; at: number }> } | null =
    null;

  /** Number of items. */
  get size(): number {
    return this.#size;
  }

  /** Adds an item; items with equal names keep their insertion order. */
  add(item: T): void {
    const head = item.nameHead, leaf = item.nameLeaf;
    let node: TrieNode<T>;
    if (head !== undefined && leaf !== undefined) {
      node = this.#byHead.get(head) ?? this.#headNode(head);
      node = this.#descend(node, leaf, head.length);
    } else {
      node = this.#descend(this.#root, item.name, 0);
    }
    node.leaves.push(item);
    this.#touch(node);
    this.#flat = null;
    this.#flattening = null;
    this.#size++;
  }

  #headNode(head: string): TrieNode<T> {
    const node = this.#descend(this.#root, head, 0);
    this.#byHead.set(head, node);
    return node;
  }

  /** The node reached from `node` by the dotted segments of `s` (whose text starts at `base`). */
  #descend(node: TrieNode<T>, s: string, base: number): TrieNode<T> {
    let from = 0;
    for (let dot = s.indexOf("."); dot >= 0; dot = s.indexOf(".", from)) {
      const seg = s.slice(from, dot);
      let child = node.children.get(seg);
      if (child === undefined) {
        let key = this.#subtreeKeys.get(seg);
        if (key === undefined) this.#subtreeKeys.set(seg, key = `${seg}.`);
        child = new TrieNode<T>(base + dot + 1, key);
        node.children.set(seg, child);
        this.#touch(node);
      }
      node = child;
      from = dot + 1;
    }
    return node;
  }

  /**
   * A node's entries in order. Sibling scopes usually hold the same keys in the same insertion
   * order (every cluster creates the same stats), so the permutation of the previous node is
   * reused when the keys match, instead of sorting again.
   */
  #orderOf(node: TrieNode<T>): Array<T | TrieNode<T>> {
    const refs: Array<T | TrieNode<T>> = [];
    const keys: string[] = [];
    // Items already ordered come first, in order (so equal names keep their insertion order).
    for (const e of node.order) {
      if (e instanceof TrieNode) continue;
      keys.push(keyOf(e, node.prefixLength));
      refs.push(e);
    }
    for (const item of node.leaves) {
      keys.push(keyOf(item, node.prefixLength));
      refs.push(item);
    }
    node.leaves = [];
    for (const child of node.children.values()) {
      keys.push(child.key);
      refs.push(child);
    }
    let perm = this.#lastPerm;
    if (!sameKeys(keys, this.#lastKeys)) {
      perm = keys.map((_, i) => i);
      perm.sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : a - b));
      this.#lastKeys = keys;
      this.#lastPerm = perm;
    }
    return perm.map((i) => refs[i]);
  }

  #touch(node: TrieNode<T>): void {
    this.#stale.add(node);
    this.#flat = null;
    this.#flattening = null;
  }

  /**
   * Does about `budget` items of the pending sorting work: ordering the entries of nodes that
   * changed, then flattening the tree; true when {@linkcode NameTrie.sorted} is ready. Lets a
   * caller spread the work over several event-loop turns.
   */
  settle(budget: number): boolean {
    if (this.#flat !== null) return true;
    let spent = 0;
    for (const node of this.#stale) {
      if (spent >= budget) return false;
      node.order = this.#orderOf(node);
      spent += node.order.length;
      this.#stale.delete(node);
    }
    const f = this.#flattening ??= { out: [], stack: [{ order: this.#root.order, at: 0 }] };
    const { out, stack } = f;
    while (stack.length > 0) {
      if (spent >= budget) return false;
      const top = stack[stack.length - 1];
      if (top.at === top.order.length) {
        stack.pop();
        continue;
      }
      const e = top.order[top.at++];
      if (e instanceof TrieNode) stack.push({ order: e.order, at: 0 });
      else out.push(e);
      spent++;
    }
    this.#flat = out;
    this.#flattening = null;
    return true;
  }

  /** The items in name order; a snapshot that later additions do not change. */
  sorted(): readonly T[] {
    this.settle(Infinity);
    return this.#flat!;
  }
}

function keyOf<T extends TrieItem>(item: T, prefixLength: number): string {
  return item.nameHead?.length === prefixLength && item.nameLeaf !== undefined
    ? item.nameLeaf
    : item.name.slice(prefixLength);
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
