/**
 * The strings of the previous head's fields on one connection, by place: a peer sends the same
 * fields in the same order head after head, so a name or value spelled as the field at the same
 * place last time is that string again, compared in place instead of sliced (and lower-cased)
 * anew. Heads are parsed one at a time per connection; strings are immutable, so sharing them is
 * invisible to whoever reads the headers.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { FieldMemo } from "./field_memo.ts";
 * const m = new FieldMemo();
 * const a = "Content-Type: text/plain";
 * assert.equal(m.name(0, a, 0, 12), "content-type");
 * assert.equal(m.value(0, a, 14, a.length), "text/plain");
 * const b = "Content-Type: text/html";
 * assert.equal(m.name(0, b, 0, 12), "content-type"); // the same string as before
 * assert.equal(m.value(0, b, 14, b.length), "text/html");
 * ```
 * @module
 */
import { lowerName } from "./header_map.ts";

/** At most this many fields of a head are remembered for the next one. */
const MAX_REMEMBERED = 32;

/** True when `text[from, to)` is `s`, compared in place. */
export function sameText(text: string, from: number, to: number, s: string): boolean {
  return to - from === s.length && text.startsWith(s, from);
}

/** One remembered field: its name as spelled, lower-cased, and its value. */
interface Field {
  raw: string;
  name: string;
  value: string;
}

/** The previous head's field strings of one connection, by place. */
export class FieldMemo {
  #fields: Field[] = [];

  /** The lower-cased name of field `k`, spelled `text[from, to)`. */
  name(k: number, text: string, from: number, to: number): string {
    const f = this.#fields;
    if (k < f.length && sameText(text, from, to, f[k].raw)) return f[k].name;
    const raw = text.slice(from, to);
    const name = lowerName(raw);
    if (k < f.length) {
      f[k].raw = raw;
      f[k].name = name;
    } else if (k === f.length && k < MAX_REMEMBERED) f.push({ raw, name, value: "" });
    return name;
  }

  /** The value of field `k`, `text[from, to)`. */
  value(k: number, text: string, from: number, to: number): string {
    const f = this.#fields;
    if (k < f.length && sameText(text, from, to, f[k].value)) return f[k].value;
    const value = text.slice(from, to);
    if (k < f.length) f[k].value = value;
    return value;
  }

  /** `text[from, to)`, the same string as last time for the same `slot` when it repeats. */
  text(slot: number, text: string, from: number, to: number): string {
    const s = this.#texts;
    const last = s[slot];
    if (last !== undefined && sameText(text, from, to, last)) return last;
    return s[slot] = text.slice(from, to);
  }

  /** Other strings of a head remembered by slot (status reason, request method and path). */
  #texts: string[] = [];
}
