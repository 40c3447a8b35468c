/**
 * Reading header text as metadata values the way Envoy's header-to-metadata filter does: base64
 * without required padding (Envoy's `Base64::decodeWithoutPadding`) and numbers as
 * `absl::SimpleAtod` reads them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeBase64WithoutPadding, parseAtod } from "./metadata_values.ts";
 * assert.deepEqual(decodeBase64WithoutPadding("aGk"), new TextEncoder().encode("hi"));
 * assert.equal(decodeBase64WithoutPadding("aGl"), null); // non-zero trailing bits
 * assert.equal(parseAtod(" +1.5e3 "), 1500);
 * assert.equal(parseAtod("0x10"), null);
 * ```
 * @module
 */

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const LOOKUP = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) LOOKUP[ALPHABET.charCodeAt(i)] = i;

/**
 * The bytes of standard base64 `input` with or without its `=` padding (at most two), or null
 * when it does not decode: a character outside the alphabet, a length that leaves one character
 * over, or unused low bits of the last character that are not zero. Empty input gives null.
 */
export function decodeBase64WithoutPadding(input: string): Uint8Array | null {
  let n = input.length;
  if (n === 0) return null;
  if (input[n - 1] === "=") {
    n--;
    if (n > 0 && input[n - 1] === "=") n--;
  }
  if (n % 4 === 1) return null;
  const out = new Uint8Array(Math.floor((n * 3) / 4));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < n; i++) {
    const c = input.charCodeAt(i);
    const v = c < 128 ? LOOKUP[c] : -1;
    if (v < 0) return null;
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  if ((acc & ((1 << bits) - 1)) !== 0) return null;
  return out;
}

/** A decimal, `inf`/`infinity` or `nan` (any case), after an optional sign (`+` once). */
const ATOD =
  /^-?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf(?:inity)?|nan(?:\([0-9A-Za-z_]*\))?)$/i;

/**
 * `text` read as a double as `absl::SimpleAtod` reads it (surrounding ASCII whitespace allowed,
 * one leading `+`, no hexadecimal, the whole text consumed), or null.
 */
export function parseAtod(text: string): number | null {
  let s = text.replace(/^[ \t\n\v\f\r]+|[ \t\n\v\f\r]+$/g, "");
  if (s.startsWith("+")) {
    s = s.slice(1);
    if (s.startsWith("-")) return null;
  }
  if (!ATOD.test(s)) return null;
  const neg = s.startsWith("-");
  const body = (neg ? s.slice(1) : s).toLowerCase();
  if (body.startsWith("inf")) return neg ? -Infinity : Infinity;
  if (body.startsWith("nan")) return NaN;
  return Number(s);
}
