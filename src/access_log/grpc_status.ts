/**
 * The gRPC status of a request for access logs, as Envoy's `Grpc::Common::getGrpcStatus` finds
 * it: the `grpc-status` response trailer, else the `grpc-status` response header (a
 * trailers-only answer, or a gRPC local reply), else the response code mapped by
 * `httpToGrpcStatus`; none when no response was sent. A value that is not a number is
 * `InvalidCode` (-1), and so is one above 16 unless user-defined codes are allowed.
 *
 * It feeds the `%GRPC_STATUS%` command operator (`%GRPC_STATUS(CAMEL_STRING)%`, the default,
 * `SNAKE_STRING` or `NUMBER`; `%GRPC_STATUS_NUMBER%`), which is empty for a request without a
 * gRPC content type, and the `grpc_status_filter` access log filter (`statuses`, `exclude`),
 * which treats a request without a status as `UNKNOWN`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { grpcStatusText } from "./grpc_status.ts";
 * assert.equal(grpcStatusText(14, "CAMEL_STRING"), "Unavailable");
 * assert.equal(grpcStatusText(14, "SNAKE_STRING"), "UNAVAILABLE");
 * assert.equal(grpcStatusText(1, "CAMEL_STRING"), "Canceled");
 * assert.equal(grpcStatusText(1, "SNAKE_STRING"), "CANCELLED");
 * assert.equal(grpcStatusText(20, "CAMEL_STRING"), "20");
 * ```
 * @module
 */
import { httpToGrpcStatus } from "../http/grpc_local_reply.ts";
import type { LogRecord } from "./access_log_format.ts";
import type { Json } from "../config/bootstrap_types.ts";
import { type Errors, fail, isObject } from "../config/config_values.ts";

/** The highest well-known gRPC status (`UNAUTHENTICATED`). */
const MAX_KNOWN = 16;
/** Envoy's `InvalidCode`. */
const INVALID = -1;

/** Envoy's `grpcStatusToString` names, by code. */
const CAMEL = [
  "OK",
  "Canceled",
  "Unknown",
  "InvalidArgument",
  "DeadlineExceeded",
  "NotFound",
  "AlreadyExists",
  "PermissionDenied",
  "ResourceExhausted",
  "FailedPrecondition",
  "Aborted",
  "OutOfRange",
  "Unimplemented",
  "Internal",
  "Unavailable",
  "DataLoss",
  "Unauthenticated",
] as const;

/** `absl::StatusCodeToString` names, by code. */
const SNAKE = CAMEL.map((c, i) =>
  i === 1 ? "CANCELLED" : c === "OK" ? c : c.replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase()
);

/** The names `AccessLogFilter.grpc_status_filter.statuses` takes (the proto enum), by code. */
const FILTER_NAMES = CAMEL.map((_, i) => i === 1 ? "CANCELED" : SNAKE[i]);

/** How `%GRPC_STATUS(F)%` writes the status. */
export const GRPC_STATUS_FORMATS = ["CAMEL_STRING", "SNAKE_STRING", "NUMBER"] as const;
/** One of {@linkcode GRPC_STATUS_FORMATS}. */
export type GrpcStatusFormat = typeof GRPC_STATUS_FORMATS[number];

function fromHeader(h: Headers | null | undefined, userDefined: boolean): number | null {
  const v = h?.get("grpc-status");
  if (v === null || v === undefined) return null;
  if (!/^\d+$/.test(v.trim())) return INVALID;
  const n = Number(v.trim());
  return n > MAX_KNOWN && !userDefined ? INVALID : n;
}

/** The gRPC status of the request `r` logs, or null (see the module documentation). */
export function grpcStatusOf(r: LogRecord, userDefined: boolean): number | null {
  return fromHeader(r.trailers, userDefined) ?? fromHeader(r.resp, userDefined) ??
    (r.status === 0 ? null : httpToGrpcStatus(r.status));
}

/** `code` as `%GRPC_STATUS(format)%` writes it (the number when the name is unknown). */
export function grpcStatusText(code: number, format: GrpcStatusFormat): string {
  if (format === "NUMBER") return String(code);
  const names = format === "CAMEL_STRING" ? CAMEL : SNAKE;
  return names[code] ?? String(code);
}

const GRPC = "application/grpc";

/** True when the request `r` logs has a gRPC content type. */
function grpcRequest(r: LogRecord): boolean {
  const ct = r.req?.("content-type") ?? null;
  if (ct === null || !ct.startsWith(GRPC)) return false;
  return ct.length === GRPC.length || ct.charCodeAt(GRPC.length) === 0x2b;
}

/**
 * The value of `%GRPC_STATUS(format)%` for `r`: null for a request that is not gRPC or has no
 * status; a number for `NUMBER` (so a JSON format keeps it a number).
 */
export function grpcStatusValue(r: LogRecord, format: GrpcStatusFormat): string | number | null {
  if (!grpcRequest(r)) return null;
  const s = grpcStatusOf(r, true);
  if (s === null) return null;
  return format === "NUMBER" ? s : grpcStatusText(s, format);
}

/**
 * Compiles `grpc_status_filter` (found at `at`): true when the request's status (UNKNOWN when
 * it has none) is one of `statuses`, or is not with `exclude`.
 */
export function parseGrpcStatusFilter(
  v: Json,
  at: string,
  errors: Errors,
): ((r: LogRecord) => boolean) | null {
  if (!isObject(v)) return fail(errors, at, "must be an object"), null;
  const list = v.statuses ?? [];
  if (!Array.isArray(list)) return fail(errors, `${at}.statuses`, "must be a list"), null;
  const want = new Set<number>();
  for (const [i, s] of list.entries()) {
    const code = typeof s === "number" && Number.isInteger(s) && s >= 0 && s <= MAX_KNOWN
      ? s
      : typeof s === "string"
      ? FILTER_NAMES.indexOf(s)
      : -1;
    if (code < 0) {
      return fail(
        errors,
        `${at}.statuses[${i}]`,
        `unknown gRPC status ${JSON.stringify(s)} (known: ${FILTER_NAMES.join(", ")})`,
      ),
        null;
    }
    want.add(code);
  }
  const ex = v.exclude ?? false;
  if (typeof ex !== "boolean") return fail(errors, `${at}.exclude`, "must be a bool"), null;
  return (r) => want.has(grpcStatusOf(r, false) ?? 2) !== ex;
}
