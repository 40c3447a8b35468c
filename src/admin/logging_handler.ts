/**
 * `/logging` (Envoy >=1.22 behaviour): no parameter lists the loggers; `level=<l>` sets all;
 * `<logger>=<l>` sets one; `paths=a=l,b=l` (the specification's form) or `paths=a:l,b:l` (Envoy's)
 * sets several (all validated before any is applied).
 * Errors answer 400 with `error: <why>`, the usage, the level names and the logger listing.
 * `/reopen_logs` reopens the log files (as SIGUSR1 does).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LOGGING_HANDLERS } from "./logging_handler.ts";
 * import { call, testContext } from "./testing_context.ts";
 * const res = await call(testContext(), "POST", "/logging?level=debug", {
 *   handlers: LOGGING_HANDLERS,
 * });
 * assert.equal(res.status, 200);
 * ```
 * @module
 */
import type { LoggingView } from "../server/context.ts";
import type { Handler } from "./types.ts";
import { textResponse } from "../config/proto_json.ts";

/** Level names in severity order (spdlog's, as Envoy shows them). */
export const LEVEL_NAMES = ["trace", "debug", "info", "warning", "error", "critical", "off"];

/** The `active loggers:` listing. */
export function loggerListing(log: LoggingView): string {
  return "active loggers:\n" + log.loggers().map(([n, l]) => `  ${n}: ${l}\n`).join("") + "\n";
}

function usage(log: LoggingView): string {
  return "usage: /logging?<name>=<level> (change single level)\n" +
    "usage: /logging?paths=name1=level1,name2=level2,... (change multiple levels)\n" +
    "usage: /logging?level=<level> (change all levels)\n" +
    `levels: ${LEVEL_NAMES.filter((l) => log.isLevel(l)).map((l) => `${l} `).join("")}\n`;
}

function fail(log: LoggingView, why: string): Response {
  return textResponse(`error: ${why}\n\n${usage(log)}${loggerListing(log)}`, 400);
}

/** Validates one change; returns an error text or null. */
function check(log: LoggingView, name: string, level: string): string | null {
  if (!name || !level) return "empty logger name or empty logger level";
  if (!log.isLevel(level)) return "unknown logger level";
  if (!log.loggers().some(([n]) => n === name)) return "unknown logger name";
  return null;
}

const logging: Handler = (req, server) => {
  const log = server.logging;
  // Empty values are ignored, so an HTML form with blank fields just lists the loggers.
  const set = [...req.params].filter(([k, v]) => !((k === "level" || k === "paths") && v === ""));
  if (set.length === 0) return textResponse(loggerListing(log));
  if (set.length > 1) return fail(log, "invalid number of parameters");
  const [key, value] = set[0];
  if (key === "level") {
    if (!log.isLevel(value)) return fail(log, "unknown logger level");
    log.setAll(value);
  } else if (key === "paths") {
    const changes: [string, string][] = [];
    for (const item of value.split(",")) {
      if (item === "") continue;
      // The specification writes `<logger>=<level>`; Envoy writes `<logger>:<level>`.
      const eq = item.indexOf("=");
      const i = eq >= 0 ? eq : item.lastIndexOf(":");
      const name = i < 0 ? item : item.slice(0, i), level = i < 0 ? "" : item.slice(i + 1);
      const why = check(log, name, level);
      if (why) return fail(log, why);
      changes.push([name, level]);
    }
    for (const [n, l] of changes) log.set(n, l);
  } else {
    const why = check(log, key, value);
    if (why) return fail(log, why);
    log.set(key, value);
  }
  return textResponse(loggerListing(log));
};

/** Handlers of this family, by path. */
export const LOGGING_HANDLERS = {
  "/logging": logging,
  "/reopen_logs": async (_req, server) => {
    await server.reopenLogs();
    return textResponse("OK\n");
  },
} satisfies Record<string, Handler>;
