/**
 * `header_key_format: proper_case_words` for HTTP/1.1 responses: each header name is written
 * with its first letter, and every letter after a non-letter, in upper case
 * (`x-request-id` -> `X-Request-Id`), as Envoy does.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { properCaseHead, properCaseName } from "./header_case.ts";
 * assert.equal(properCaseName("x-request-id"), "X-Request-Id");
 * assert.equal(
 *   properCaseHead("HTTP/1.1 200 OK\r\ncontent-type: a-b\r\n\r\n"),
 *   "HTTP/1.1 200 OK\r\nContent-Type: a-b\r\n\r\n",
 * );
 * ```
 * @module
 */

/** A header name in proper case. */
export function properCaseName(name: string): string {
  let out = "";
  let up = true;
  for (const ch of name) {
    const alpha = (ch >= "a" && ch <= "z") || (ch >= "A" && ch <= "Z");
    out += up && alpha ? ch.toUpperCase() : ch;
    up = !alpha;
  }
  return out;
}

/** A whole response head (status line, header lines, empty line) with its names in proper case. */
export function properCaseHead(head: string): string {
  const lines = head.split("\r\n");
  for (let i = 1; i < lines.length; i++) {
    const c = lines[i].indexOf(":");
    if (c > 0) lines[i] = properCaseName(lines[i].slice(0, c)) + lines[i].slice(c);
  }
  return lines.join("\r\n");
}
