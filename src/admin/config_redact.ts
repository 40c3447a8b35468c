/**
 * Redaction of secrets in `/config_dump`: under every field named `private_key` or `password`,
 * inline data (`inline_bytes`, `inline_string`, or the field itself when it is a string) reads
 * `[redacted]`; file names and other references are kept, as they are not secret.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { redact } from "./config_redact.ts";
 * assert.deepEqual(
 *   redact({ private_key: { inline_string: "-----BEGIN..." } }),
 *   { private_key: { inline_string: "[redacted]" } },
 * );
 * ```
 * @module
 */

/** Field names whose contents are secret. */
export const SENSITIVE_FIELDS: ReadonlySet<string> = new Set(["private_key", "password"]);
const INLINE = new Set(["inline_bytes", "inline_string"]);

/** Every string of a sensitive field's value, replaced by `[redacted]`. */
export function redactSecret(v: unknown): unknown {
  if (typeof v === "string") return "[redacted]";
  if (Array.isArray(v)) return v.map(redactSecret);
  if (v !== null && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      out[k] = INLINE.has(k) && typeof x === "string" ? "[redacted]" : redactSecret2(k, x);
    }
    return out;
  }
  return v;
}

function redactSecret2(_k: string, x: unknown): unknown {
  return x !== null && typeof x === "object" ? redactSecret(x) : x;
}

/** Returns a deep copy of `v` with secrets redacted. */
export function redact(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(redact);
  if (v !== null && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      out[k] = SENSITIVE_FIELDS.has(k) ? redactSecret(x) : redact(x);
    }
    return out;
  }
  return v;
}
