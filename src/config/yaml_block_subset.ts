/**
 * A fast reader for the plain block subset of YAML that bootstraps are mostly written in:
 * block mappings and sequences (compact `- key: value` entries included), plain scalars,
 * single-line quoted scalars without escapes, empty flow collections (`{}`, `[]`) and comments.
 * It gives exactly the value `js-yaml`'s `load` gives for such a text (plain scalars and plain
 * keys are resolved by the schema's own implicit types, in the schema's order), and answers
 * {@linkcode NOT_SUBSET} for anything else: anchors, aliases, tags, block scalars, multi-line
 * scalars, escapes, non-empty flow collections, directives, several documents, tabs, carriage
 * returns, unusual indentation, duplicate keys. The caller then reads the text with `js-yaml`,
 * which gives the value, or the error with its line and column, as before.
 *
 * A 10,000-cluster bootstrap (5 MB) is read several times faster this way than by `js-yaml`,
 * with far less garbage; repeated keys and scalars are read once (`SeenTexts`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * // @ts-types="@types/js-yaml"
 * import yaml from "js-yaml";
 * import { NOT_SUBSET, readBlockSubset } from "./yaml_block_subset.ts";
 * const text = "a:\n  - name: x # first\n    port: 0x10\n  - '@y'\nb: {}\n";
 * assert.deepEqual(readBlockSubset(text, yaml.CORE_SCHEMA), yaml.load(text));
 * assert.equal(readBlockSubset("a: &x 1\nb: *x\n", yaml.CORE_SCHEMA), NOT_SUBSET);
 * ```
 * @module
 */
// @ts-types="@types/js-yaml"
import type yaml from "js-yaml";

/** What {@linkcode readBlockSubset} answers for a text outside the subset it reads. */
export const NOT_SUBSET: unique symbol = Symbol("not the YAML block subset");

/** One implicit type of a `js-yaml` schema (the fields the loader uses). */
interface ImplicitType {
  tag: string;
  resolve(data: string): boolean;
  construct(data: string): unknown;
}

/** Thrown inside the reader when the text leaves the subset; never escapes it. */
class Outside {}
const OUTSIDE = new Outside();

/**
 * Characters that make a text leave the subset wherever they are: controls other than the line
 * feed (tab and carriage return included), C1 controls, the byte-order mark, non-characters and
 * surrogates (js-yaml checks these itself, with its own messages).
 */
// deno-lint-ignore no-control-regex
const UNUSUAL = /[\x00-\x09\x0B-\x1F\x7F-\x9F\uFEFF\uFFFE\uFFFF\uD800-\uDFFF]/;

/**
 * Reads `text` as `js-yaml` would with `schema`, or answers {@linkcode NOT_SUBSET} when the text
 * uses anything outside the plain block subset (see the module documentation).
 */
export function readBlockSubset(text: string, schema: yaml.Schema): unknown {
  const implicit = (schema as unknown as { compiledImplicit?: ImplicitType[] }).compiledImplicit;
  // Directives and document markers (`%`, `---`, `...` at a line's start) are js-yaml's too.
  if (!implicit || UNUSUAL.test(text) || /^(?:---|\.\.\.|%)/m.test(text)) return NOT_SUBSET;
  try {
    return new Reader(text, implicit).document();
  } catch (e) {
    if (e === OUTSIDE) return NOT_SUBSET;
    throw e;
  }
}

const SPACE = 0x20;
const LF = 0x0a;
const HASH = 0x23;
const DASH = 0x2d;
const COLON = 0x3a;
const SQUOTE = 0x27;
const DQUOTE = 0x22;

/**
 * Plain texts (keys or scalars) met so far, each as written and resolved, in slots chosen by the
 * text's length and its first and last characters; a text met again takes its slot's value
 * when the slot holds that very text. A bootstrap repeats a few dozen keys and many values
 * thousands of times: each is then one string, neither sliced nor resolved again (and the
 * loaded value holds it once). A later text of the same slot takes the slot over.
 */
class SeenTexts {
  static readonly SLOTS = 1024;
  readonly raws: string[] = new Array(SeenTexts.SLOTS).fill("");
  readonly values: unknown[] = new Array(SeenTexts.SLOTS).fill(undefined);

  /** The slot of the text from `from` to `end`. */
  slot(t: string, from: number, end: number): number {
    return ((end - from) * 31 + t.charCodeAt(from) * 7 + t.charCodeAt(end - 1)) &
      (SeenTexts.SLOTS - 1);
  }

  /** True when `slot` holds the (non-empty) text from `from` to `end`. */
  has(t: string, from: number, end: number, slot: number): boolean {
    const raw = this.raws[slot];
    const n = raw.length;
    if (n !== end - from || n === 0) return false;
    // Compared in place, character by character (most texts are a few characters long).
    for (let k = 0; k < n; k++) if (raw.charCodeAt(k) !== t.charCodeAt(from + k)) return false;
    return true;
  }

  /** Puts `raw` and its value in `slot`. */
  add(slot: number, raw: string, value: unknown): void {
    this.raws[slot] = raw;
    this.values[slot] = value;
  }
}

/** The implicit types of the core and JSON schemas. */
const PLAIN_TAGS: ReadonlySet<string> = new Set(
  ["null", "bool", "int", "float"].map((t) => `tag:yaml.org,2002:${t}`),
);

/** Characters a plain scalar or plain key may not start with (left to js-yaml). */
function badStart(ch: number): boolean {
  // , [ ] { } # & * ! | > ' " % @ ` ? : and the space
  return ch === 0x2c || ch === 0x5b || ch === 0x5d || ch === 0x7b || ch === 0x7d ||
    ch === HASH || ch === 0x26 || ch === 0x2a || ch === 0x21 || ch === 0x7c || ch === 0x3e ||
    ch === SQUOTE || ch === DQUOTE || ch === 0x25 || ch === 0x40 || ch === 0x60 ||
    ch === 0x3f || ch === COLON || ch === SPACE;
}

/** The line-by-line reader; `start`, `indent` and `end` describe the current content line. */
class Reader {
  /** Offset of the current line's first non-space character (`text.length` at the end). */
  start = 0;
  /** Indentation of the current line (-1 at the end of the text). */
  indent = -1;
  /** Offset of the current line's end (its line feed or the end of the text). */
  end = 0;

  /** Plain keys met so far, resolved (see {@linkcode SeenTexts}). */
  readonly seenKeys = new SeenTexts();
  /** Plain scalars met so far whose values are primitives, resolved. */
  readonly seenScalars = new SeenTexts();

  /**
   * True when the schema's implicit types are among YAML's null, bool, int and float (the core
   * and JSON schemas): none of them takes a scalar that starts with a letter other than n, t or
   * f (`null`, `true`, `false` in their spellings), so such a scalar is a string as it stands.
   */
  readonly lettersArePlain: boolean;

  constructor(readonly text: string, readonly implicit: readonly ImplicitType[]) {
    this.lettersArePlain = implicit.every((t) => PLAIN_TAGS.has(t.tag));
    this.seek(0);
  }

  /** Moves to the first content line (not blank, not only a comment) at or after `from`. */
  seek(from: number): void {
    const t = this.text;
    const n = t.length;
    let p = from;
    while (p < n) {
      let q = p;
      while (q < n && t.charCodeAt(q) === SPACE) q++;
      let e = t.indexOf("\n", q);
      if (e < 0) e = n;
      const ch = t.charCodeAt(q);
      if (q < n && ch !== LF && ch !== HASH) {
        this.start = q;
        this.indent = q - p;
        this.end = e;
        return;
      }
      p = e + 1;
    }
    this.start = n;
    this.indent = -1;
    this.end = n;
  }

  /** Moves to the next content line. */
  nextLine(): void {
    this.seek(this.end + 1);
  }

  document(): unknown {
    if (this.indent !== 0) throw OUTSIDE; // empty, or an indented document
    const v = this.node(0);
    if (!this.atEnd()) throw OUTSIDE;
    return v;
  }

  /** True once every content line is read. */
  atEnd(): boolean {
    return this.indent < 0;
  }

  /** A block node starting at the current line, whose indentation is `indent`. */
  node(indent: number): unknown {
    if (this.isSequenceEntry()) return this.sequence(indent);
    if (this.keyEnd() >= 0) return this.mapping(indent, this.start);
    throw OUTSIDE; // a scalar alone on its line
  }

  /** True when the current line starts a sequence entry (`-` then a space or the line end). */
  isSequenceEntry(): boolean {
    const t = this.text;
    if (t.charCodeAt(this.start) !== DASH) return false;
    const next = this.start + 1;
    return next >= this.end || t.charCodeAt(next) === SPACE;
  }

  /**
   * When the text from the current content start is a mapping entry, the offset just after its
   * key's `:`; -1 when it is no mapping entry.
   */
  keyEnd(from = this.start): number {
    const t = this.text;
    const end = this.end;
    const ch = t.charCodeAt(from);
    let p: number;
    if (ch === SQUOTE || ch === DQUOTE) {
      p = from + 1;
      while (p < end && t.charCodeAt(p) !== ch) p++;
      if (p >= end) throw OUTSIDE;
      p++;
      while (p < end && t.charCodeAt(p) === SPACE) p++;
      if (p < end && t.charCodeAt(p) === COLON) {
        const after = p + 1;
        if (after >= end || t.charCodeAt(after) === SPACE) return after;
      }
      return -1;
    }
    for (p = from; p < end; p++) {
      const c = t.charCodeAt(p);
      if (c === COLON) {
        const after = p + 1;
        if (after >= end || t.charCodeAt(after) === SPACE) return after;
      } else if (c === HASH && p > from && t.charCodeAt(p - 1) === SPACE) return -1;
    }
    return -1;
  }

  /** A block mapping whose entries start at column `indent`; the first one at `from`. */
  mapping(indent: number, from: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    let at = from;
    for (;;) {
      const colon = this.keyEnd(at);
      if (colon < 0) throw OUTSIDE;
      const key = this.key(at, colon - 1);
      if (Object.hasOwn(out, key) || key === "__proto__" || key === "<<") throw OUTSIDE;
      const rest = this.skipSpaces(colon);
      let value: unknown;
      if (rest < this.end && !this.isComment(rest)) {
        value = this.scalar(rest);
        this.nextLine();
      } else {
        this.nextLine();
        if (this.indent > indent) value = this.node(this.indent);
        else if (this.indent === indent && this.isSequenceEntry()) {
          value = this.sequence(indent);
        } else value = null;
      }
      out[key] = value;
      if (this.indent < indent) return out;
      if (this.indent > indent || this.isSequenceEntry()) throw OUTSIDE;
      at = this.start;
    }
  }

  /** A block sequence whose `-` indicators are at column `indent`. */
  sequence(indent: number): unknown[] {
    const out: unknown[] = [];
    const t = this.text;
    for (;;) {
      const rest = this.skipSpaces(this.start + 1);
      if (rest >= this.end || this.isComment(rest)) {
        this.nextLine();
        out.push(this.indent > indent ? this.node(this.indent) : null);
      } else if (
        t.charCodeAt(rest) === DASH && (rest + 1 >= this.end || t.charCodeAt(rest + 1) === SPACE)
      ) {
        throw OUTSIDE; // a compact nested sequence
      } else if (this.keyEnd(rest) >= 0) {
        // A compact mapping: its entries are at the column of its first key.
        const column = rest - (this.start - this.indent);
        this.start = rest;
        this.indent = column;
        out.push(this.mapping(column, rest));
      } else {
        out.push(this.scalar(rest));
        this.nextLine();
      }
      // A line less indented, or a mapping entry at the indicators' column (the sequence was
      // the value of that mapping's previous key), ends it; the caller checks what follows.
      // The copy is the list's exact size: a list grown by push keeps room for 16 items, and
      // a bootstrap's lists mostly hold one or two (a quarter of the loaded value's memory).
      if (this.indent < indent || (this.indent === indent && !this.isSequenceEntry())) {
        return out.slice();
      }
      if (this.indent > indent) throw OUTSIDE;
    }
  }

  skipSpaces(p: number): number {
    const t = this.text;
    while (p < this.end && t.charCodeAt(p) === SPACE) p++;
    return p;
  }

  /** True when a `#` at `p` starts a comment (it follows a space). */
  isComment(p: number): boolean {
    return this.text.charCodeAt(p) === HASH && this.text.charCodeAt(p - 1) === SPACE;
  }

  /** A mapping key from `from` to its `:` at `colon`: quoted, or plain and resolved. */
  key(from: number, colon: number): string {
    const t = this.text;
    const ch = t.charCodeAt(from);
    if (ch === SQUOTE || ch === DQUOTE) {
      const close = t.indexOf(ch === SQUOTE ? "'" : '"', from + 1);
      const inner = t.slice(from + 1, close);
      if (inner.includes("\\") && ch === DQUOTE) throw OUTSIDE;
      // '' inside single quotes is an escaped quote: the close found is not the close.
      if (ch === SQUOTE && t.charCodeAt(close + 1) === SQUOTE) throw OUTSIDE;
      return inner;
    }
    let e = colon;
    while (e > from && t.charCodeAt(e - 1) === SPACE) e--;
    const seen = this.seenKeys;
    const slot = seen.slot(t, from, e);
    if (seen.has(t, from, e, slot)) return seen.values[slot] as string;
    const raw = t.slice(from, e);
    if (raw === "" || badStart(ch) || raw.length > 1000) throw OUTSIDE;
    if (ch === DASH && (from + 1 >= e || t.charCodeAt(from + 1) === SPACE)) throw OUTSIDE;
    const key = String(this.resolve(raw));
    seen.add(slot, raw, key);
    return key;
  }

  /** The scalar from `from` to the line's end (a trailing comment left out). */
  scalar(from: number): unknown {
    const t = this.text;
    let e = this.end;
    for (let p = from + 1; p < e; p++) {
      if (t.charCodeAt(p) === HASH && t.charCodeAt(p - 1) === SPACE) e = p - 1;
    }
    while (e > from && t.charCodeAt(e - 1) === SPACE) e--;
    const ch = t.charCodeAt(from);
    if (ch === SQUOTE || ch === DQUOTE) {
      const q = ch === SQUOTE ? "'" : '"';
      // The close must end the scalar; a quote inside (escaped or not) is left to js-yaml.
      if (e - from < 2 || t.charCodeAt(e - 1) !== ch) throw OUTSIDE;
      const inner = t.slice(from + 1, e - 1);
      if (inner.includes(q) || (ch === DQUOTE && inner.includes("\\"))) throw OUTSIDE;
      return inner;
    }
    if (e - from === 2) {
      const pair = t.slice(from, e);
      if (pair === "{}") return {};
      if (pair === "[]") return [];
    }
    const seen = this.seenScalars;
    const slot = seen.slot(t, from, e);
    if (seen.has(t, from, e, slot)) return seen.values[slot];
    if (badStart(ch)) throw OUTSIDE;
    const raw = t.slice(from, e);
    if (ch === DASH && (raw.length === 1 || raw.charCodeAt(1) === SPACE)) throw OUTSIDE;
    // A ': ' or a final ':' would make it a mapping entry (an error js-yaml words itself).
    if (raw.includes(": ") || raw.charCodeAt(raw.length - 1) === COLON) throw OUTSIDE;
    const value = this.resolve(raw);
    // An object (a schema's own implicit type may construct one) is not shared between nodes.
    if (raw !== "" && (value === null || typeof value !== "object")) seen.add(slot, raw, value);
    return value;
  }

  /** A plain scalar's value: the first implicit type of the schema that resolves it. */
  resolve(raw: string): unknown {
    if (this.lettersArePlain) {
      const c = raw.charCodeAt(0) | 0x20; // lower case, for letters
      if (c >= 0x61 && c <= 0x7a && c !== 0x6e && c !== 0x74 && c !== 0x66) return raw;
    }
    for (const type of this.implicit) {
      if (type.resolve(raw)) return type.construct(raw);
    }
    return raw;
  }
}
