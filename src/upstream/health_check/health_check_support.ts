/**
 * What the support table (`support` column of the cluster rows) cannot say about health
 * checking: a value this build does not run in a field it otherwise honours. Today that is
 * `codec_client_type: HTTP3` (HTTP/1.1 and HTTP/2 checks run). Each refusal names its path.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { healthSupportErrors } from "./health_check_support.ts";
 * const errs = healthSupportErrors({
 *   health_checks: [{ http_health_check: { path: "/", codec_client_type: "HTTP3" } }],
 * });
 * assert.equal(errs[0].path, "health_checks[0].http_health_check.codec_client_type");
 * ```
 * @module
 */
import { isObject } from "../../config/values.ts";

/** One problem, with its path relative to the cluster. */
export interface SupportError {
  path: string;
  message: string;
}

/** Refusals of a cluster's (validated, normalized) `health_checks`. */
export function healthSupportErrors(c: Record<string, unknown>): SupportError[] {
  const out: SupportError[] = [];
  const hcs = Array.isArray(c.health_checks) ? c.health_checks : [];
  hcs.forEach((h, i) => {
    const http = isObject(h) && isObject(h.http_health_check) ? h.http_health_check : null;
    if (http && String(http.codec_client_type ?? "HTTP1") === "HTTP3") {
      out.push({
        path: `health_checks[${i}].http_health_check.codec_client_type`,
        message: "codec_client_type HTTP3 is not supported by this build (HTTP1 and HTTP2 are)",
      });
    }
  });
  return out;
}
