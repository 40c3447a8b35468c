/**
 * The `http_inspector` listener filter's parser: from the first bytes of a plain connection it
 * tells the HTTP version (`h2c` for the HTTP/2 preface, `http/1.1`, `http/1.0`), which filter
 * chains may match as an application protocol. Nothing is consumed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { inspectHttp } from "./http_inspector.ts";
 * assert.deepEqual(inspectHttp(new TextEncoder().encode("GET / HTTP/1.0\r\n")), { kind: "http/1.0" });
 * ```
 * @module
 */

/** What the first bytes say. */
export type HttpInspection = { kind: "more" | "none" | "h2c" | "http/1.1" | "http/1.0" };

const PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
/** How many bytes the request line may take before the inspector gives up. */
const MAX_LINE = 8192;
const LINE = /^[A-Z][A-Z0-9_-]* \S+ HTTP\/1\.([01])$/;

/** Inspects `b`, the bytes read so far. */
export function inspectHttp(b: Uint8Array): HttpInspection {
  const n = Math.min(b.length, MAX_LINE);
  const s = new TextDecoder("latin1").decode(b.subarray(0, n));
  if (PREFACE.startsWith(s)) return { kind: s.length === PREFACE.length ? "h2c" : "more" };
  if (s.startsWith(PREFACE)) return { kind: "h2c" };
  const eol = s.indexOf("\r\n");
  if (eol < 0) {
    if (n >= MAX_LINE || !/^[A-Z]/.test(s)) return { kind: "none" };
    return { kind: "more" };
  }
  const m = LINE.exec(s.slice(0, eol));
  if (!m) return { kind: "none" };
  return { kind: m[1] === "1" ? "http/1.1" : "http/1.0" };
}
