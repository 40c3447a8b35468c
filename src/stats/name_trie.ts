/**
 * Named items in code-unit order of their full dotted names, kept as a tree of name segments.
 * A node orders its entries by key, where a stat ending at the node has key `segment` and a
 * subtree has key `segment + "."`. Because segments hold no dots, comparing keys decides the
 * same as comparing full names (a leaf `svc` comes before `svc-a.*`, which comes before `svc.*`),
 * so adding a stat re-sorts only its parent's entries, never the whole set. The flattened order
 * is cached until the next addition.
 *
 * A store's stats come in blocks (one per scope and kind, see `leaf_table.ts`): a node lists a
 * block once, not each of its stats, and merges the block's stats (in the leaf order the block
 * shares with every block built alike) with its other entries when the tree is flattened. How a
 * node's entries interleave is a plan shared by sibling nodes alike (every cluster's scope).
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

import { appended, EMPTY } from "./small_list.ts";

/** Sorted key lists remembered for reuse by sibling nodes (see `NameTrie.#order`). */
const RECENT_ORDERS = 8;

/**
 * Items that share one head and are found by index (a store's `LeafTable`): a node of the trie
 * lists the block, not each item.
 */
export interface TrieBlock<T> {
  /** The head of every item's name (`""` or a prefix ending in a dot). */
  readonly head: string;
  /** Number of items; they are at indexes `0 .. size - 1`, and only ever added at the end. */
  readonly size: number;
  /** The item at `index`. */
  at(index: number): T;
  /** The leaf (name after `head`, without dots) of the item at `index`. */
  leafAt(index: number): string;
  /**
   * The indexes `0 .. size - 1` in code-unit order of their leaves: the same array for blocks
   * whose leaves are the same, so that sibling nodes can share their merge plans.
   */
  leafOrder(): readonly number[];
}

/** A node's merge plan: which source each flattened entry comes from (0: `order`, j: block j-1). */
type Plan = Uint8Array;

class TrieNode<T> {
  /**
   * Subtrees: a short list while there are few (most scopes have one or two), then a map by
   * segment; null until the first.
   */
  children: TrieNode<T>[] | Map<string, TrieNode<T>> | null = null;
  /** Blocks whose items end at this node's level, in the order they were first added. */
  blocks: TrieBlock<T>[] | null = null;
  /** How `order` and the blocks' items interleave (null: `order` alone). */
  plan: Plan | null = null;
  /**
   * The items whose name ends at this node's level and the subtrees: in order when the node is
   * not stale, else the entries ordered before followed by the additions since, in insertion
   * order (see `NameTrie.settle`).
   */
  order: Array<T | TrieNode<T>> = EMPTY as never[];
  /** Listed in `NameTrie`'s stale nodes (`order` holds additions). */
  stale = false;
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
  /**
   * The last flattened order handed out by {@linkcode NameTrie.sorted}, while a render still
   * holds it (or until the collector takes it): reused when nothing changed since, and never
   * kept alive by the trie, so an idle store does not hold a list of every stat.
   */
  #handed: WeakRef<T[]> | null = null;
  #size = 0;
  /** The node of each head seen, so items of one scope skip the walk. */
  #byHead = new Map<string, TrieNode<T>>();
  /** One string per distinct subtree key (`segment.`), shared by sibling scopes. */
  #subtreeKeys = new Map<string, string>();
  /** The keys and sorting permutations of the last nodes sorted, newest first. */
  #recent: Array<{ keys: readonly string[]; perm: number[] }> = [];
  /** The last merge plans made: what they were made from, newest first. */
  #recentPlans: Array<
    { keys: readonly string[]; orders: readonly (readonly number[])[]; plan: Plan }
  > = [];
  /** Reused by {@linkcode NameTrie.#order}. */
  #scratch: Array<T | TrieNode<T> | undefined> = [];
  /** Nodes whose order an addition made stale, each once; those before `#staleAt` are done. */
  #stale: TrieNode<T>[] = [];
  #staleAt = 0;
  /** A flattening under way (see {@linkcode NameTrie.settle}). */
  #flattening: {
    out: T[];
    filled: number;
    stack: Frame<T>[];
  } | null = null;

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
    node.order = appended(node.order, item);
    this.#touch(node);
    this.#size++;
  }

  /**
   * Adds the item just added at the end of `block` (index `block.size - 1`); a block's items
   * are listed as one entry of the node of its head.
   */
  addToBlock(block: TrieBlock<T>): void {
    const head = block.head;
    const node = head === "" ? this.#root : this.#byHead.get(head) ?? this.#headNode(head);
    const blocks = node.blocks;
    if (blocks === null) node.blocks = [block];
    else if (!blocks.includes(block)) node.blocks = appended(blocks, block);
    this.#touch(node);
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
      let key = this.#subtreeKeys.get(seg);
      let child = key === undefined ? undefined : childOf(node, seg, key);
      if (child === undefined) {
        if (key === undefined) this.#subtreeKeys.set(seg, key = `${seg}.`);
        child = new TrieNode<T>(base + dot + 1, key);
        addChild(node, seg, child);
        node.order = appended(node.order, child);
        this.#touch(node);
      }
      node = child;
      from = dot + 1;
    }
    return node;
  }

  /**
   * Puts a node's entries in order, in place: a stable sort by key, so the entries ordered
   * before come first among equal names and equal names keep their insertion order. Sibling
   * scopes usually hold the same keys in the same insertion order (every cluster creates the
   * same stats), so the permutation of one of the last few nodes sorted (a cluster's scope, its
   * circuit breaker scopes, ...) is reused when the keys match, instead of sorting again. The
   * only allocation is `order`'s own growth.
   */
  #order(node: TrieNode<T>): void {
    const order = node.order;
    const n = order.length;
    const recent = this.#recent;
    let perm: number[] | undefined;
    for (let r = 0; r < recent.length && perm === undefined; r++) {
      const keys = recent[r].keys;
      let same = keys.length === n;
      for (let i = 0; same && i < n; i++) same = entryKey(order[i], node.prefixLength) === keys[i];
      if (same) perm = recent[r].perm;
    }
    if (perm === undefined) {
      const keys = order.map((e) => entryKey(e, node.prefixLength));
      const sorted = keys.map((_, i) => i);
      sorted.sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : a - b));
      recent.unshift({ keys, perm: sorted });
      if (recent.length > RECENT_ORDERS) recent.pop();
      perm = sorted;
    }
    const copy = this.#scratch;
    for (let i = 0; i < n; i++) copy[i] = order[i];
    for (let i = 0; i < n; i++) order[i] = copy[perm[i]]!;
    copy.fill(undefined, 0, n);
    node.plan = node.blocks === null ? null : this.#plan(node);
  }

  /**
   * The merge plan of a node with blocks, whose `order` is sorted: one of the last plans made
   * when it was made from the same keys and leaf orders (sibling scopes), else a new one.
   */
  #plan(node: TrieNode<T>): Plan {
    const order = node.order, blocks = node.blocks!;
    const orders = blocks.map((b) => b.leafOrder());
    const recent = this.#recentPlans;
    for (const r of recent) {
      if (r.orders.length !== orders.length || r.keys.length !== order.length) continue;
      let same = true;
      for (let j = 0; same && j < orders.length; j++) same = r.orders[j] === orders[j];
      for (let i = 0; same && i < order.length; i++) {
        same = entryKey(order[i], node.prefixLength) === r.keys[i];
      }
      if (same) return r.plan;
    }
    const keys = order.map((e) => entryKey(e, node.prefixLength));
    let total = keys.length;
    for (const o of orders) total += o.length;
    const plan = new Uint8Array(total);
    const at = new Array<number>(orders.length + 1).fill(0);
    for (let p = 0; p < total; p++) {
      // The smallest next key; on equal keys, `order` first, then blocks in the order added.
      let src = -1, best = "";
      if (at[0] < keys.length) src = 0, best = keys[at[0]];
      for (let j = 0; j < orders.length; j++) {
        const o = orders[j];
        if (at[j + 1] >= o.length) continue;
        const key = blocks[j].leafAt(o[at[j + 1]]);
        if (src < 0 || key < best) src = j + 1, best = key;
      }
      plan[p] = src;
      at[src]++;
    }
    recent.unshift({ keys, orders, plan });
    if (recent.length > RECENT_ORDERS) recent.pop();
    return plan;
  }

  #touch(node: TrieNode<T>): void {
    if (!node.stale) {
      node.stale = true;
      this.#stale.push(node);
    }
    this.#flat = null;
    this.#handed = null;
    this.#flattening = null;
  }

  /**
   * Does about `budget` items of the pending sorting work: ordering the entries of nodes that
   * changed, then (with `flatten`, the default) flattening the tree; true when that is done,
   * with `flatten` when {@linkcode NameTrie.sorted} is ready. Lets a caller spread the work over
   * several event-loop turns.
   */
  settle(budget: number, flatten = true): boolean {
    if (this.#flat !== null) return true;
    const kept = this.#handed?.deref();
    if (kept !== undefined) {
      this.#flat = kept;
      return true;
    }
    let spent = 0;
    const stale = this.#stale;
    while (this.#staleAt < stale.length) {
      if (spent >= budget) return false;
      const node = stale[this.#staleAt++];
      node.stale = false;
      this.#order(node);
      spent += node.order.length;
    }
    this.#stale = [];
    this.#staleAt = 0;
    if (!flatten) return true;
    const f = this.#flattening ??= {
      out: new Array<T>(this.#size),
      filled: 0,
      stack: [frameOf(this.#root)],
    };
    const { out, stack } = f;
    let filled = f.filled;
    while (stack.length > 0) {
      if (spent >= budget) {
        f.filled = filled;
        return false;
      }
      const top = stack[stack.length - 1];
      const { order, plan, blocks } = top;
      let at = top.at;
      let descend: TrieNode<T> | null = null;
      if (plan === null) {
        // The items of one node in a row, then its next subtree.
        for (; at < order.length && spent < budget; at++, spent++) {
          const e = order[at];
          if (e instanceof TrieNode) {
            descend = e;
            at++;
            break;
          }
          out[filled++] = e;
        }
        top.at = at;
        if (at === order.length && descend === null) stack.pop();
      } else {
        const next = top.next!;
        let p = top.p;
        for (; p < plan.length && spent < budget; p++, spent++) {
          const src = plan[p];
          if (src === 0) {
            const e = order[at++];
            if (e instanceof TrieNode) {
              descend = e;
              p++;
              break;
            }
            out[filled++] = e;
          } else {
            const b = blocks![src - 1];
            out[filled++] = b.at(top.orders![src - 1][next[src - 1]++]);
          }
        }
        top.at = at;
        top.p = p;
        if (p === plan.length && descend === null) stack.pop();
      }
      if (descend !== null) stack.push(frameOf(descend));
    }
    this.#flat = out;
    this.#flattening = null;
    return true;
  }

  /** The items in name order; a snapshot that later additions do not change. */
  sorted(): readonly T[] {
    this.settle(Infinity);
    const flat = this.#flat!;
    this.#flat = null;
    this.#handed = new WeakRef(flat);
    return flat;
  }
}

/** Children kept in a list up to this many; a map by segment beyond. */
const LISTED_CHILDREN = 8;

/** The child of `node` for segment `seg`, whose subtree key (`seg.`, interned) is `key`. */
function childOf<T>(node: TrieNode<T>, seg: string, key: string): TrieNode<T> | undefined {
  const c = node.children;
  if (c === null) return undefined;
  if (c instanceof Map) return c.get(seg);
  for (let i = 0; i < c.length; i++) if (c[i].key === key) return c[i];
  return undefined;
}

function addChild<T>(node: TrieNode<T>, seg: string, child: TrieNode<T>): void {
  const c = node.children;
  if (c === null) node.children = [child];
  else if (c instanceof Map) c.set(seg, child);
  else if (c.length < LISTED_CHILDREN) node.children = appended(c, child);
  else {
    const map = new Map<string, TrieNode<T>>();
    for (const n of c) map.set(n.key.slice(0, -1), n);
    map.set(seg, child);
    node.children = map;
  }
}

/** Where the flattening of one node stands. */
interface Frame<T> {
  order: Array<T | TrieNode<T>>;
  at: number;
  plan: Plan | null;
  blocks: TrieBlock<T>[] | null;
  /** Each block's leaf order, as the plan was made from. */
  orders: (readonly number[])[] | null;
  /** Per block, how many of its items are out. */
  next: number[] | null;
  /** Position in the plan. */
  p: number;
}

function frameOf<T>(node: TrieNode<T>): Frame<T> {
  const blocks = node.plan === null ? null : node.blocks;
  return {
    order: node.order,
    at: 0,
    plan: node.plan,
    blocks,
    orders: blocks === null ? null : blocks.map((b) => b.leafOrder()),
    next: blocks === null ? null : blocks.map(() => 0),
    p: 0,
  };
}

function keyOf<T extends TrieItem>(item: T, prefixLength: number): string {
  // Each of head and leaf read once: on stats they are getters over the stat's block.
  if (item.nameHead?.length === prefixLength) {
    const leaf = item.nameLeaf;
    if (leaf !== undefined) return leaf;
  }
  return item.name.slice(prefixLength);
}

function entryKey<T extends TrieItem>(e: T | TrieNode<T>, prefixLength: number): string {
  return e instanceof TrieNode ? e.key : keyOf(e, prefixLength);
}
