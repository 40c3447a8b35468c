/**
 * Query-string parsing as real Envoy's admin does it: split on `&`, split each part on its first
 * `=`, a bare key gets `""`, the first occurrence of a key wins in `params` while `pairs` keeps
 * every occurrence in order; keys and values are percent-decoded with `+` read as a space.
 * Malformed escapes are kept verbatim rather than rejected, so no query can make parsing fail.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseQuery } from "./query.ts";
 * const q = parseQuery("usedonly&filter=a%2Bb&filter=x");
 * assert.equal(q.params.get("usedonly"), "");
 * assert.equal(q.params.get("filter"), "a+b");
 * assert.equal(q.pairs.length, 3);
 * ```
 * @module
 */

/** The result of {@linkcode parseQuery}. */
export interface ParsedQuery {
  /** First occurrence of each key. */
  params: Map<string, string>;
  /** Every `key=value` pair in order, duplicates kept. */
  pairs: [string, string][];
}

/**
 * Percent-decodes one query component (`+` is a space). Invalid escapes and invalid UTF-8 are
 * left as they are.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeComponent } from "./query.ts";
 * assert.equal(decodeComponent("a+b%21"), "a b!");
 * assert.equal(decodeComponent("100%"), "100%");
 * ```
 */
export function decodeComponent(s: string): string {
  const plus = s.replaceAll("+", " ");
  if (!plus.includes("%")) return plus;
  try {
    return decodeURIComponent(plus);
  } catch {
    // Decode the valid runs only, keeping anything malformed verbatim.
    return plus.replace(/(%[0-9a-fA-F]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
}

/**
 * Parses a query string (without the leading `?`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseQuery } from "./query.ts";
 * assert.equal(parseQuery("a=1&a=2").params.get("a"), "1");
 * ```
 */
export function parseQuery(query: string): ParsedQuery {
  const params = new Map<string, string>();
  const pairs: [string, string][] = [];
  for (const part of query.split("&")) {
    if (part === "") continue;
    const eq = part.indexOf("=");
    const key = decodeComponent(eq < 0 ? part : part.slice(0, eq));
    const value = eq < 0 ? "" : decodeComponent(part.slice(eq + 1));
    pairs.push([key, value]);
    if (!params.has(key)) params.set(key, value);
  }
  return { params, pairs };
}
