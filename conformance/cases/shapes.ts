/**
 * Body-shape checks named by the `shape` column of endpoint rows (`text:stats`, `json:ServerInfo`,
 * `prometheus-0.0.4`, ...). Each returns null when the body has the shape, or what is wrong. A
 * shape this suite does not know only needs a non-failing answer (JSON shapes: a JSON object).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkShape } from "./shapes.ts";
 * assert.equal(checkShape("text:state", "LIVE\n"), null);
 * ```
 * @module
 */

type Check = (body: string) => string | null;

const lines = (body: string) => body.split("\n").filter((l) => l.trim() !== "");

function everyLine(re: RegExp, what: string): Check {
  return (body) => {
    const bad = lines(body).find((l) => !re.test(l));
    return bad === undefined ? null : `line ${JSON.stringify(bad)} is not ${what}`;
  };
}

/** Required top-level JSON members per message name: member → JSON type. */
const JSON_MEMBERS: Record<string, Record<string, string>> = {
  ServerInfo: {
    version: "string",
    state: "string",
    command_line_options: "object",
    uptime_current_epoch: "string",
    uptime_all_epochs: "string",
    node: "object",
  },
  Runtime: { layers: "array", entries: "object" },
  Certificates: {},
  Clusters: {},
  ConfigDump: { configs: "array" },
  Listeners: {},
  Stats: { stats: "array" },
  StatsBuckets: { stats: "array" },
  Memory: {},
  MutexStats: {},
  UnreadyTargetsDumps: {},
};

/** Optional repeated members that must be arrays when present. */
const JSON_ARRAYS: Record<string, string[]> = {
  Certificates: ["certificates"],
  Clusters: ["cluster_statuses"],
  Listeners: ["listener_statuses"],
  UnreadyTargetsDumps: ["unready_targets_dumps"],
};

function typeOf(v: unknown): string {
  return v === null ? "null" : Array.isArray(v) ? "array" : typeof v;
}

function jsonShape(name: string): Check {
  return (body) => {
    let v: unknown;
    try {
      v = JSON.parse(body);
    } catch (e) {
      return `body is not JSON: ${(e as Error).message}`;
    }
    if (typeOf(v) !== "object") return `expected a JSON object, got ${typeOf(v)}`;
    const o = v as Record<string, unknown>;
    for (const [k, t] of Object.entries(JSON_MEMBERS[name] ?? {})) {
      if (typeOf(o[k]) !== t) return `member "${k}" should be ${t}, got ${typeOf(o[k])}`;
    }
    for (const k of JSON_ARRAYS[name] ?? []) {
      if (k in o && !Array.isArray(o[k])) return `member "${k}" should be an array`;
    }
    return null;
  };
}

const PROM_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;

function prometheus(body: string): string | null {
  const typed = new Set<string>();
  for (const l of lines(body)) {
    if (l.startsWith("#")) {
      const m = /^# (TYPE|HELP) (\S+)(?: (.*))?$/.exec(l);
      if (!m) return `comment line ${JSON.stringify(l)} is neither # TYPE nor # HELP`;
      if (!PROM_NAME.test(m[2])) return `invalid metric name ${JSON.stringify(m[2])}`;
      if (m[1] === "TYPE") {
        if (!/^(counter|gauge|histogram|summary|untyped)$/.test(m[3] ?? "")) {
          return `unknown metric type in ${JSON.stringify(l)}`;
        }
        typed.add(m[2]);
      }
      continue;
    }
    const s =
      /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*",?)*\})? (\S+)( \d+)?$/
        .exec(l);
    if (!s) return `sample line ${JSON.stringify(l)} is not in the 0.0.4 text format`;
    if (!/^([-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?|[-+]?Inf|NaN)$/.test(s[3])) {
      return `sample value ${JSON.stringify(s[3])} is not a number`;
    }
    const family = s[1].replace(/_(bucket|sum|count)$/, "");
    if (!typed.has(s[1]) && !typed.has(family)) {
      return `sample ${s[1]} has no # TYPE line before it`;
    }
  }
  return null;
}

const CHECKS: Record<string, Check> = {
  "html": (b) => /<(html|table|body|a )/i.test(b) ? null : "no HTML markup",
  "text": (b) => b.trim() !== "" ? null : "empty body",
  "text:clusters": everyLine(/::/, "a `name::value` line"),
  "text:listeners": everyLine(/^.+::.+:\d+$/, "a `name::address:port` line"),
  "text:hot-restart-version": (b) => lines(b).length === 1 ? null : "expected one line",
  "text:state": (b) =>
    /^(LIVE|DRAINING|PRE_INITIALIZING|INITIALIZING)$/.test(b.trim())
      ? null
      : `expected a server state, got ${JSON.stringify(b)}`,
  "text:stats": everyLine(/^[^\s:][^:]*: .*$/, "a `name: value` line"),
  "text:stats-buckets": everyLine(/^[^\s:][^:]*: .*$/, "a `name: value` line"),
  "text:loggers": (b) => /^[a-z ]+:\s*$/m.test(b) || /^\s+\S+: \S+$/m.test(b) ? null : "no logger",
  "prometheus-0.0.4": prometheus,
};

/**
 * Checks a body against a shape name.
 *
 * @param shape the row's `shape`
 * @param body the body
 * @returns null when it fits, else what is wrong
 */
export function checkShape(shape: string, body: string): string | null {
  if (shape.startsWith("json:")) return jsonShape(shape.slice(5))(body);
  const c = CHECKS[shape];
  return c ? c(body) : null;
}
