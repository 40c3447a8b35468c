/**
 * A route's `max_stream_duration` (RouteAction.MaxStreamDuration), as Envoy reads it:
 * `max_stream_duration` replaces the connection manager's for the route's streams (0 turns it
 * off), and `grpc_timeout_header_max` (0: no cap) makes a request's `grpc-timeout` header the
 * limit, less `grpc_timeout_header_offset`. A route that sets the message uses these "new
 * timeouts": its `timeout` (default 15 s) no longer applies (`route_action.ts`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseMaxStreamDuration } from "./max_stream_duration.ts";
 * const d = parseMaxStreamDuration({ max_stream_duration: "2s" }, "r.max_stream_duration", []);
 * assert.deepEqual(d, { maxMs: 2000, grpcHeaderMaxMs: null, grpcHeaderOffsetMs: null });
 * ```
 * @module
 */
import type { Json } from "../config/bootstrap_types.ts";
import { durationMs, type Errors, fail, isObject } from "../config/config_values.ts";

/** A parsed `MaxStreamDuration`; a null member was not set. */
export interface MaxStreamDuration {
  /** `max_stream_duration` (ms; 0 turns the limit off for the route). */
  maxMs: number | null;
  /** `grpc_timeout_header_max` (ms; 0: the header's value is not capped). */
  grpcHeaderMaxMs: number | null;
  /** `grpc_timeout_header_offset` (ms). */
  grpcHeaderOffsetMs: number | null;
}

const FIELDS = ["max_stream_duration", "grpc_timeout_header_max", "grpc_timeout_header_offset"];

/** Parses `v` (found at `path`); null when unset or malformed. */
export function parseMaxStreamDuration(
  v: Json | undefined,
  path: string,
  errors: Errors,
): MaxStreamDuration | null {
  if (v === undefined || v === null) return null;
  if (!isObject(v)) {
    fail(errors, path, "max_stream_duration must be an object");
    return null;
  }
  for (const k of Object.keys(v)) {
    if (!FIELDS.includes(k)) fail(errors, `${path}.${k}`, `unknown field (${FIELDS.join(", ")})`);
  }
  const ms = (k: string) => {
    const x = v[k];
    return x === undefined || x === null ? null : durationMs(x, `${path}.${k}`, errors);
  };
  return {
    maxMs: ms("max_stream_duration"),
    grpcHeaderMaxMs: ms("grpc_timeout_header_max"),
    grpcHeaderOffsetMs: ms("grpc_timeout_header_offset"),
  };
}
