/**
 * HTTP/1.1 header blocks as bytes and back, one byte per character (header bytes are Latin-1):
 * the downstream server and the upstream client read and write heads through these.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeHead, encodeHead } from "./head_bytes.ts";
 * const bytes = encodeHead("x-a: \u00e9\r\n");
 * assert.equal(decodeHead(bytes, 0, bytes.length), "x-a: \u00e9\r\n");
 * ```
 * @module
 */

const encoder = new TextEncoder();
// deno-lint-ignore no-control-regex
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * ASCII blocks (the usual case) decode the same as UTF-8 as one byte per character, and Deno's
 * UTF-8 decoder is several times faster than its single-byte ones. The BOM is kept (`ignoreBOM`)
 * so that leading EF BB BF bytes come out non-ASCII and take the byte-by-byte path.
 */
const ascii = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * Decodes `b[from, to)` as a header block, one character per byte: an ASCII block at once, any
 * other byte by byte (neither UTF-8 nor TextDecoder's "latin1", which is windows-1252, maps
 * 0x80-0xff one to one).
 */
export function decodeHead(b: Uint8Array, from: number, to: number): string {
  const s = ascii.decode(b.subarray(from, to));
  if (!NON_ASCII.test(s)) return s;
  let out = "";
  for (let i = from; i < to; i++) out += String.fromCharCode(b[i]);
  return out;
}

/** Encodes a header block as bytes, one byte per character (headers are Latin-1). */
export function encodeHead(s: string): Uint8Array {
  if (!NON_ASCII.test(s)) return encoder.encode(s);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 0xff;
  return out;
}

/**
 * Encodes a header block into `into` when it fits and is all ASCII (the usual case: no
 * allocation); the number of bytes written, or -1 (then use {@linkcode encodeHead}).
 */
export function encodeHeadInto(s: string, into: Uint8Array): number {
  if (s.length > into.length) return -1;
  const r = encoder.encodeInto(s, into);
  return r.read === s.length && r.written === s.length ? r.written : -1;
}

/**
 * Writes a head composed piece by piece straight into a byte buffer, one byte per character
 * (the bytes {@linkcode encodeHead} makes of the whole text), without building the text.
 * `put` is handed to the composer; `pos` is the bytes written, or -1 once a piece did not fit
 * (then compose the text and use {@linkcode encodeHead}). Composition is synchronous, so one
 * writer serves every head of the isolate ({@linkcode headWriter}).
 */
export class HeadWriter {
  buf: Uint8Array = new Uint8Array(0);
  pos = 0;

  /** Starts a head at the beginning of `buf`. */
  reset(buf: Uint8Array): this {
    this.buf = buf;
    this.pos = 0;
    return this;
  }

  /** Appends the characters of `s` (each stored modulo 256, as `encodeHead` does). */
  put = (s: string): void => {
    let p = this.pos;
    if (p < 0) return;
    const b = this.buf;
    if (p + s.length > b.length) {
      this.pos = -1;
      return;
    }
    for (let i = 0; i < s.length; i++) b[p++] = s.charCodeAt(i);
    this.pos = p;
  };
}

/** The isolate's head writer (heads are composed synchronously, one at a time). */
export const headWriter: HeadWriter = new HeadWriter();
