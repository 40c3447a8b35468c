/**
 * The fault injection filter (`envoy.filters.http.fault`, `HTTPFault`): delays and aborts a share
 * of requests, as Envoy does. A delay (`fixed_delay`, or `header_delay` read from
 * `x-proxy-fault-delay-request` / `x-envoy-fault-delay-request`, in ms) comes first; then an
 * abort (`http_status`, `grpc_status`, or `header_abort` read from
 * `x-proxy-fault-abort-request`) answers with the body `fault filter abort`. Each has a
 * `percentage` (unset: 0%); for header-controlled faults the `...-percentage` header gives the
 * numerator, capped by the configured one. `headers` must match and `upstream_cluster` must be
 * the route's cluster for a fault to apply; `max_active_faults` caps concurrent faults.
 *
 * Stats `http.<prefix>.fault.delays_injected`, `aborts_injected`, `faults_overflow`,
 * `active_faults`; response flags `DI` and `FI`. A route's `typed_per_filter_config` replaces
 * the whole configuration. Runtime keys are not looked up (their defaults apply);
 * `response_rate_limit` is refused.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { FAULT } from "./fault_filter.ts";
 * const errors: { path: string; rule: string; message: string }[] = [];
 * const c = FAULT.parse({ abort: { http_status: 503, percentage: { numerator: 100 } } }, "f", errors);
 * assert.equal(c?.abort?.status, 503);
 * ```
 * @module
 */
import type { Json, JsonObject } from "../config/bootstrap_types.ts";
import { durationMs, type Errors, fail, isObject } from "../config/config_values.ts";
import { localReply } from "../http/local_reply.ts";
import type { DownstreamRequest } from "../http/downstream_request.ts";
import type { ProxyResponse } from "../http/proxy_response.ts";
import { type HeaderMatcher, matchHeaders, parseHeaderMatchers } from "../router/header_matcher.ts";
import { DENOMINATORS, parsePercent, sampled } from "./fractional_percent.ts";
import { type HttpFilterFactory, onlyFields } from "./http_filter.ts";

/** A compiled `HTTPFault`. */
export interface FaultConfig {
  delay: { ms: number | "header"; share: number; denominator: number } | null;
  abort:
    | { status: number | "header"; grpc: number | null; share: number; denominator: number }
    | null;
  upstreamCluster: string | null;
  headers: HeaderMatcher[];
  downstreamNodes: string[] | null;
  maxActive: number | null;
}

const FIELDS = [
  "delay",
  "abort",
  "upstream_cluster",
  "headers",
  "downstream_nodes",
  "max_active_faults",
  "delay_percent_runtime",
  "abort_percent_runtime",
  "delay_duration_runtime",
  "abort_http_status_runtime",
  "max_active_faults_runtime",
  "abort_grpc_status_runtime",
  "disable_downstream_cluster_stats",
];

function denominatorOf(p: Json | undefined): number {
  const d = isObject(p) ? p.denominator : undefined;
  return typeof d === "string" && d in DENOMINATORS
    ? DENOMINATORS[d as keyof typeof DENOMINATORS]
    : 100;
}

function parseDelay(v: Json, at: string, errors: Errors): FaultConfig["delay"] {
  if (!isObject(v)) return fail(errors, at, "must be an object"), null;
  onlyFields(v, ["fixed_delay", "header_delay", "percentage", "type"], at, errors);
  const share = parsePercent(v.percentage, `${at}.percentage`, errors, 0) ?? 0;
  const denominator = denominatorOf(v.percentage);
  if (v.fixed_delay !== undefined && v.header_delay !== undefined) {
    return fail(errors, at, "only one of fixed_delay, header_delay"), null;
  }
  if (v.header_delay !== undefined) return { ms: "header", share, denominator };
  if (v.fixed_delay === undefined) {
    return fail(errors, at, "one of fixed_delay, header_delay is required"), null;
  }
  const ms = durationMs(v.fixed_delay, `${at}.fixed_delay`, errors);
  return ms === null ? null : { ms, share, denominator };
}

function parseAbort(v: Json, at: string, errors: Errors): FaultConfig["abort"] {
  if (!isObject(v)) return fail(errors, at, "must be an object"), null;
  onlyFields(v, ["http_status", "grpc_status", "header_abort", "percentage"], at, errors);
  const share = parsePercent(v.percentage, `${at}.percentage`, errors, 0) ?? 0;
  const denominator = denominatorOf(v.percentage);
  const set = ["http_status", "grpc_status", "header_abort"].filter((k) => v[k] !== undefined);
  if (set.length !== 1) {
    return fail(errors, at, "exactly one of http_status, grpc_status, header_abort"), null;
  }
  if (v.header_abort !== undefined) return { status: "header", grpc: null, share, denominator };
  if (v.grpc_status !== undefined) {
    const g = v.grpc_status;
    if (typeof g !== "number" || !Number.isInteger(g) || g < 0) {
      return fail(errors, `${at}.grpc_status`, "must be a non-negative integer"), null;
    }
    return { status: 200, grpc: g, share, denominator };
  }
  const s = v.http_status;
  if (typeof s !== "number" || !Number.isInteger(s) || s < 200 || s >= 600) {
    return fail(errors, `${at}.http_status`, "must be an integer in [200, 600)"), null;
  }
  return { status: s, grpc: null, share, denominator };
}

/** Compiles an `HTTPFault` found at `at`. */
export function parseFault(v: Json, at: string, errors: Errors): FaultConfig | null {
  if (!isObject(v)) return fail(errors, at, "must be an object"), null;
  const c: JsonObject = v;
  const n = errors.length;
  onlyFields(c, ["@type", ...FIELDS], at, errors);
  const delay = c.delay === undefined ? null : parseDelay(c.delay, `${at}.delay`, errors);
  const abort = c.abort === undefined ? null : parseAbort(c.abort, `${at}.abort`, errors);
  if (c.upstream_cluster !== undefined && typeof c.upstream_cluster !== "string") {
    fail(errors, `${at}.upstream_cluster`, "must be a string");
  }
  const headers = parseHeaderMatchers(c.headers, `${at}.headers`, errors);
  let nodes: string[] | null = null;
  if (c.downstream_nodes !== undefined) {
    if (
      !Array.isArray(c.downstream_nodes) || c.downstream_nodes.some((x) => typeof x !== "string")
    ) {
      fail(errors, `${at}.downstream_nodes`, "must be a list of strings");
    } else if (c.downstream_nodes.length > 0) nodes = c.downstream_nodes as string[];
  }
  const maxRaw = isObject(c.max_active_faults) ? c.max_active_faults.value : c.max_active_faults;
  if (
    maxRaw !== undefined && (typeof maxRaw !== "number" || !Number.isInteger(maxRaw) || maxRaw < 0)
  ) {
    fail(errors, `${at}.max_active_faults`, "must be a non-negative integer");
  }
  if (errors.length > n) return null;
  return {
    delay,
    abort,
    upstreamCluster: typeof c.upstream_cluster === "string" ? c.upstream_cluster : null,
    headers,
    downstreamNodes: nodes,
    maxActive: typeof maxRaw === "number" ? maxRaw : null,
  };
}

/** A request header in either spelling (`x-proxy-` first, then `x-envoy-`). */
function faultHeader(req: DownstreamRequest, name: string): string | null {
  return req.headers.get(`x-proxy-${name}`) ?? req.headers.get(`x-envoy-${name}`);
}

function share(req: DownstreamRequest, name: string, configured: number, denominator: number) {
  const h = faultHeader(req, name);
  if (h === null || !/^\d+$/.test(h.trim())) return configured;
  return Math.min(configured, Number(h.trim()) / denominator);
}

function routeCluster(action: unknown): string | null {
  const a = action as { kind?: string; cluster?: string };
  return a.kind === "cluster" && typeof a.cluster === "string" ? a.cluster : null;
}

const NAME = "proxy.filters.http.fault";

/** The fault injection filter. */
export const FAULT: HttpFilterFactory<FaultConfig> = {
  kind: "fault",
  types: ["HTTPFault"],
  parse: parseFault,
  parsePerRoute: parseFault,
  create(base, deps) {
    const s = deps.stats.scope("fault");
    const delays = s.counter("delays_injected");
    const aborts = s.counter("aborts_injected");
    const overflow = s.counter("faults_overflow");
    const active = s.gauge("active_faults");
    return async (ctx, next) => {
      const c = ctx.perRoute<FaultConfig>(NAME) ?? base;
      const req = ctx.req;
      if (c.delay === null && c.abort === null) return next();
      if (c.upstreamCluster !== null && routeCluster(ctx.route?.action) !== c.upstreamCluster) {
        return next();
      }
      if (c.headers.length > 0 && !matchHeaders(c.headers, req)) return next();
      if (c.downstreamNodes !== null) {
        const node = req.headers.get("x-proxy-downstream-service-node") ??
          req.headers.get("x-envoy-downstream-service-node");
        if (node === null || !c.downstreamNodes.includes(node)) return next();
      }
      let delayMs = 0;
      if (c.delay !== null) {
        const ms = c.delay.ms === "header"
          ? Number(faultHeader(req, "fault-delay-request")?.trim() ?? NaN)
          : c.delay.ms;
        const p = c.delay.ms === "header"
          ? share(req, "fault-delay-request-percentage", c.delay.share, c.delay.denominator)
          : c.delay.share;
        if (Number.isFinite(ms) && ms > 0 && sampled(p)) delayMs = ms;
      }
      let abort: { status: number; grpc: number | null } | null = null;
      if (c.abort !== null) {
        const status = c.abort.status === "header"
          ? Number(faultHeader(req, "fault-abort-request")?.trim() ?? NaN)
          : c.abort.status;
        const p = c.abort.status === "header"
          ? share(req, "fault-abort-request-percentage", c.abort.share, c.abort.denominator)
          : c.abort.share;
        if (Number.isInteger(status) && status >= 200 && status < 600 && sampled(p)) {
          abort = { status, grpc: c.abort.grpc };
        }
      }
      if (delayMs === 0 && abort === null) return next();
      if (c.maxActive !== null && active.value() >= c.maxActive) {
        overflow.inc();
        return next();
      }
      active.inc();
      try {
        if (delayMs > 0) {
          delays.inc();
          ctx.lg?.flags.push("DI");
          await new Promise((r) => setTimeout(r, delayMs));
        }
        if (abort === null) return await next();
        aborts.inc();
        if (ctx.lg !== null) ctx.lg.details = "fault_filter_abort";
        req.body?.cancel().catch(() => {});
        return abortReply(abort.status, abort.grpc);
      } finally {
        active.dec();
      }
    };
  },
};

/**
 * The abort's local reply: with `grpc_status` an HTTP 200 made with that gRPC status, which a
 * gRPC request gets as its `grpc-status` (as Envoy's `abortWithStatus`); any other request gets
 * the HTTP reply.
 */
function abortReply(status: number, grpc: number | null): ProxyResponse {
  const res = localReply(status, "fault filter abort", undefined, "FI");
  if (grpc !== null) res.grpcStatus = grpc;
  return res;
}
