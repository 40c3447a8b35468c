/**
 * Log level and component logger names: what `-l`, `--component-log-level` and `/logging` accept.
 * The argv parser checks names against these; the server's loggers are built from them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isLevelName } from "./log_levels.ts";
 * assert.equal(isLevelName("warn"), true);
 * ```
 * @module
 */

/** Level names in spdlog order; `warn` is accepted as an alias of `warning`. */
export const LOG_LEVELS = [
  "trace",
  "debug",
  "info",
  "warning",
  "error",
  "critical",
  "off",
] as const;

/** A level name. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Envoy's component logger names (`ALL_LOGGER_IDS`, about 1.16), in registry order. */
export const COMPONENT_NAMES: readonly string[] = [
  "admin",
  "aws",
  "assert",
  "backtrace",
  "client",
  "config",
  "connection",
  "conn_handler",
  "decompression",
  "dubbo",
  "file",
  "filter",
  "forward_proxy",
  "grpc",
  "hc",
  "health_checker",
  "http",
  "http2",
  "hystrix",
  "init",
  "io",
  "jwt",
  "kafka",
  "lua",
  "main",
  "misc",
  "mongo",
  "quic",
  "quic_stream",
  "pool",
  "rbac",
  "redis",
  "router",
  "runtime",
  "stats",
  "secret",
  "tap",
  "testing",
  "thrift",
  "tracing",
  "upstream",
  "udp",
  "wasm",
]; // deno-fmt-ignore

/**
 * True for a level name or the `warn` alias (exact, case-sensitive).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isLevelName } from "./log_levels.ts";
 * assert.equal(isLevelName("warn"), true);
 * assert.equal(isLevelName("WARN"), false);
 * ```
 */
export function isLevelName(s: string): boolean {
  return s === "warn" || (LOG_LEVELS as readonly string[]).includes(s);
}

/**
 * The level a name stands for (`warn` -> `warning`); throws on an unknown name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { normaliseLevel } from "./log_levels.ts";
 * assert.equal(normaliseLevel("warn"), "warning");
 * ```
 */
export function normaliseLevel(s: string): LogLevel {
  if (s === "warn") return "warning";
  if (!(LOG_LEVELS as readonly string[]).includes(s)) throw new Error(`invalid log level '${s}'`);
  return s as LogLevel;
}
