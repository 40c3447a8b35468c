/**
 * Table `errors`: the nine rows of the specification's Errors table, with the HTTP status or
 * process exit code each result names, and a row for the error-body format the specification
 * says it does not show.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ERRORS } from "./errors.ts";
 * const statuses = ERRORS.flatMap((r) => "status" in r ? [r.status] : []);
 * assert.deepEqual(statuses, [400, 503, 200]);
 * ```
 * @module
 */
import type { ErrorRow } from "../rule.ts";

/** Rows of the `errors` table. */
export const ERRORS = [
  {
    id: "errors.get-on-mutating-path",
    level: "MUST",
    statement: "A mutating path requested with GET answers HTTP 400 and has no effect.",
    cite: { section: "Errors", quote: "Mutating path requested with GET | HTTP 400, no effect" },
    envoy:
      "Real Envoy (since \u2248v1.11) answers 405 with the body `Method GET not allowed, POST required.`.",
    check: "black-box",
    condition: "Mutating path requested with GET",
    result: "HTTP 400, no effect",
    status: 400,
  },
  {
    id: "errors.ready-not-live",
    level: "MUST",
    statement: "GET /ready answers HTTP 503 while the server state is not LIVE.",
    cite: { section: "Errors", quote: "GET /ready while state is not LIVE | HTTP 503" },
    check: "fixture:never-ready",
    condition: "GET /ready while state is not LIVE",
    result: "HTTP 503",
    status: 503,
  },
  {
    id: "errors.ready-live",
    level: "MUST",
    statement: "GET /ready answers HTTP 200 while the server state is LIVE.",
    cite: { section: "Errors", quote: "GET /ready while state is LIVE | HTTP 200" },
    check: "black-box",
    condition: "GET /ready while state is LIVE",
    result: "HTTP 200",
    status: 200,
  },
  {
    id: "errors.validate-ok",
    level: "MUST",
    statement: "`--mode validate` with a valid configuration prints an OK message and exits 0.",
    cite: {
      section: "Errors",
      quote: "`--mode validate` with a valid configuration | prints an OK message, exit code 0",
    },
    check: "command",
    condition: "`--mode validate` with a valid configuration",
    result: "prints an OK message, exit code 0",
    exitCode: 0,
  },
  {
    id: "errors.validate-errors",
    level: "MUST",
    statement: "`--mode validate` with configuration errors prints the errors and exits 1.",
    cite: {
      section: "Errors",
      quote: "`--mode validate` with configuration errors | prints the errors, exit code 1",
    },
    check: "command",
    condition: "`--mode validate` with configuration errors",
    result: "prints the errors, exit code 1",
    exitCode: 1,
  },
  {
    id: "errors.lb-config-without-policy",
    level: "MUST",
    statement:
      "A cluster with ring_hash_lb_config or least_request_lb_config but without the matching lb_policy is an error.",
    cite: {
      section: "Errors",
      quote:
        "ring_hash_lb_config or least_request_lb_config set without the matching lb_policy | error at runtime",
    },
    check: "command",
    condition: "ring_hash_lb_config or least_request_lb_config set without the matching lb_policy",
    result: "error at runtime",
  },
  {
    id: "errors.unknown-static-fields",
    level: "MUST",
    statement:
      "Unknown protobuf fields in static configuration are rejected, unless --allow-unknown-static-fields is given, which accepts them with a warning on first use counted in `server.static_unknown_fields`.",
    cite: {
      section: "Errors",
      quote:
        "rejected by validation; with --allow-unknown-static-fields accepted with a logged warning on first use and counted in `server.static_unknown_fields`",
    },
    check: "command",
    condition: "Unknown protobuf fields in static configuration (default)",
    result:
      "rejected by validation; with --allow-unknown-static-fields accepted with a logged warning on first use and counted in `server.static_unknown_fields`",
  },
  {
    id: "errors.unknown-dynamic-fields",
    level: "MUST",
    statement:
      "Unknown fields in dynamic configuration are accepted, unless --reject-unknown-dynamic-fields is given; warnings are counted in `server.dynamic_unknown_fields`.",
    cite: {
      section: "Errors",
      quote:
        "accepted by default; with --reject-unknown-dynamic-fields rejected; warnings counted in `server.dynamic_unknown_fields`",
    },
    check: "fixture:xds-server",
    condition: "Unknown dynamic-configuration fields",
    result:
      "accepted by default; with --reject-unknown-dynamic-fields rejected; warnings counted in `server.dynamic_unknown_fields`",
  },
  {
    id: "errors.optional-feature-absent",
    level: "MUST",
    statement:
      "An endpoint that depends on an optional feature (health check filter, profiling build, mutex tracing, dashboard sink, tap extension) is available only when the feature is present.",
    cite: {
      section: "Errors",
      quote:
        "Endpoints that depend on an optional feature (health check filter, profiling build, mutex tracing, dashboard sink, tap extension) | available only when the feature is present",
    },
    envoy:
      "Real Envoy answers 404 for /hystrix_event_stream and /tap when their extension is absent, 500 or 501 for the profilers in builds without them, 200 with a note for /contention without --enable-mutex-tracing, and runs /healthcheck/* even without the filter.",
    check: "black-box",
    condition:
      "Endpoints that depend on an optional feature (health check filter, profiling build, mutex tracing, dashboard sink, tap extension)",
    result: "available only when the feature is present",
  },
  {
    id: "errors.error-format-not-shown",
    level: "MAY",
    statement:
      "The format of error bodies and the status codes of the unavailable-feature cases are not specified; this implementation answers as real Envoy does.",
    cite: {
      section: "Errors",
      quote:
        "Format of error bodies and the status codes for the unavailable-feature cases: not shown.",
    },
    envoy: "Real Envoy's error bodies are plain text (`text/plain; charset=UTF-8`).",
    check: "internal",
    condition: "Any admin error",
    result: "not shown",
  },
] as const satisfies readonly ErrorRow[];
