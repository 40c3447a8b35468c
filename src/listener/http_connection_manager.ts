/**
 * The HTTP connection manager network filter with its HTTP filters (health check, router):
 * parses its configuration and handles each downstream request a codec decoded, counting
 * `http.<stat_prefix>.downstream_rq_*`. Requests a codec found malformed arrive with their
 * error and are answered 400 (or 431) with the connection closed, never forwarded.
 *
 * @example Not run: it needs a downstream connection and upstream clusters (`deps`, `conn`).
 * ```ts ignore
 * import { HttpConnectionManager, parseHcm } from "./http_connection_manager.ts";
 * const hcm = new HttpConnectionManager(parseHcm(cfg, "f", errors, null)!, deps);
 * const res = await hcm.handle(fromRequest(new Request("http://a/")), conn);
 * ```
 * @module
 */
import { mergeMetadataMatch, withDynamicMetadata } from "../router/metadata_match.ts";
import { canonicalFilterName } from "../config/filter_names.ts";
import { HeaderMap } from "../http/header_map.ts";
import type { Json, JsonObject } from "../config/bootstrap_types.ts";
import type { Counter, Gauge, Histogram, Scope } from "../stats/types.ts";
import type { ClusterManager } from "../upstream/cluster_manager.ts";
import { localReply } from "../http/local_reply.ts";
import { isGrpcRequest, toGrpcLocalReply } from "../http/grpc_local_reply.ts";
import type { UpstreamRequest } from "../upstream/upstream_request.ts";
import { type ProxyResponse, proxyResponse } from "../http/proxy_response.ts";
import {
  type CodecError,
  DOWNSTREAM_REMOTE_CLOSE,
  DOWNSTREAM_REMOTE_RESET,
  type DownstreamRequest,
} from "../http/downstream_request.ts";
import { reasonPhrase } from "../http/http1_codec.ts";
import {
  type AccessLogConfig,
  openLogSinks,
  parseAccessLogs,
} from "../access_log/access_log_config.ts";
import type { AccessLogFiles } from "../access_log/access_log_file.ts";
import { type LogCtx, RequestLogger } from "../access_log/request_logger.ts";
import type { DownstreamConn } from "../http/downstream_request.ts";
import {
  type Errors,
  fail,
  filterConfig,
  filterKind,
  isObject,
  typeName,
  unwrap,
} from "../config/config_values.ts";
import {
  healthCheck,
  type HealthCheckFilter,
  parseHealthCheck,
} from "../filters/health_check_filter.ts";
import type { ProxyHooks } from "./hooks.ts";
import { type DownstreamLimits, parseDownstreamLimits } from "./downstream_limits.ts";
import { parseForwarding } from "./forwarding_config.ts";
import type { OverloadView } from "./overload_state.ts";
import { type ForwardingConfig, sanitizeRequestHeaders } from "../http/internal_headers.ts";
import { beginTap, parseTapFilter, type TapFilterConfig } from "../filters/tap_filter.ts";
import {
  type ConfiguredFilter,
  parseChainFilter,
  perRouteFactory,
} from "../filters/configured_filters.ts";
import { compilePerRoute, type HttpFilter, runChain } from "../filters/http_filter.ts";
import { matchHeaders, parseHeaderMatcher } from "../router/header_matcher.ts";
import {
  type LocalReplyConfig,
  parseLocalReplyConfig,
  rewriteLocalReply,
} from "../filters/local_reply_config.ts";
import { type HcmOptions, normalizeRequestPath, parseHcmOptions } from "./hcm_options.ts";
import { upstreamHeaders } from "../http/request_headers.ts";
import { pickWeighted } from "../router/route_action.ts";
import { finalTimeout, putTimeoutHeaders, timeoutHeaders } from "../router/route_timeout.ts";
import {
  DEFAULT_ROUTER_FILTER,
  parseRouterFilter,
  type RouterFilterConfig,
  SUPPRESSED_RESPONSE_HEADERS,
} from "../filters/router_filter_config.ts";
import { redirectLocation } from "../router/redirect.ts";
import { applyRegexRewrite, type MatchedPrefix, rewritePath } from "../router/path_rewrite.ts";
import { applyHeaderMutations, mutateHeaderList } from "../router/header_mutation.ts";
import { headerRecord } from "../router/header_context.ts";
import { forwardWithRetries } from "../router/retry_forward.ts";
import type { MirrorPolicy } from "../router/mirror_policy.ts";
import {
  forwardUpgrade,
  parseUpgradeConfigs,
  upgradeAllowed,
  type UpgradeConfigs,
} from "../router/upgrade.ts";
import { terminateConnect } from "../router/connect.ts";
import { bufferUpTo, bytesStream } from "../router/buffered_body.ts";
import {
  countRedirect,
  type InternalRedirectPolicy,
  ORIGINAL_URL_HEADER,
  redirectCount,
  redirectTarget,
} from "../router/internal_redirect.ts";
import type { Cluster } from "../upstream/cluster.ts";
import { type ComponentLog, SILENT } from "../platform/log_site.ts";
import { accountedStream } from "./overload_reset.ts";
import {
  DURATION_TIMEOUT_DETAILS,
  limitStreamDuration,
  streamDurationMs,
} from "./stream_duration.ts";
import { type HashPolicy, requestHash } from "../router/hash_policy.ts";
import {
  parseRouteConfig,
  type Route,
  type RouteConfig,
  selectRoute,
} from "../router/route_config.ts";

/** A parsed `http_connection_manager`. */
export interface HcmConfig {
  statPrefix: string;
  /** The routes; with `rds`, swapped whole by each accepted RDS update (empty before one). */
  routes: RouteConfig;
  /** `rds`: the route configuration's name and its `config_source`. */
  rds?: { name: string; source: JsonObject };
  healthCheck: HealthCheckFilter | null;
  useRemoteAddress: boolean;
  serverName: string;
  generateRequestId: boolean;
  /** `preserve_external_request_id`: an edge request keeps the x-request-id it came with. */
  preserveExternalRequestId?: boolean;
  /** Compiled `access_log` entries. */
  accessLogs: AccessLogConfig[];
  /** The tap filter (`admin_config`), if configured. */
  tap?: TapFilterConfig | null;
  /** Downstream timeouts and header limits. */
  limits: DownstreamLimits;
  /** Forwarding and trust: x-forwarded-for, internal addresses. */
  forwarding: ForwardingConfig;
  /** `upgrade_configs`: upgrade type -> enabled. */
  upgrades?: UpgradeConfigs;
  /** The other HTTP filters, in order (`src/filters/http_filters.ts`). */
  filters?: ConfiguredFilter[];
  /** Warnings to log when the manager starts (optional filters this build does not have). */
  warnings?: string[];
  /** `local_reply_config`, compiled. */
  localReplies?: LocalReplyConfig | null;
  /** Options of `hcm_options.ts` (server header, path normalization). */
  options?: HcmOptions;
  /** The router filter's settings (defaults when absent). */
  router?: RouterFilterConfig;
}

/** A bool field (also as a BoolValue); false when unset, an error at `path` when not a bool. */
function flag(v: Json | undefined, path: string, errors: Errors): boolean {
  const b = unwrap(v);
  if (b === undefined) return false;
  if (typeof b !== "boolean") fail(errors, path, "must be a bool");
  return b === true;
}

/** Parses the filter configuration `c` (found at `path`). */
export function parseHcm(
  c: JsonObject,
  path: string,
  errors: Errors,
  clusters: ReadonlySet<string> | null,
): HcmConfig | null {
  if (typeof c.stat_prefix !== "string" || c.stat_prefix === "") {
    fail(errors, `${path}.stat_prefix`, "stat_prefix is required");
  }
  let rds: HcmConfig["rds"];
  if (c.rds !== undefined) {
    const r = c.rds;
    const name = isObject(r) ? r.route_config_name : undefined;
    if (c.route_config !== undefined) {
      fail(errors, `${path}.rds`, "rds and route_config are exclusive: set one");
    } else if (!isObject(r) || !isObject(r.config_source)) {
      fail(errors, `${path}.rds.config_source`, "rds needs a config_source");
    } else if (typeof name !== "string" || name === "") {
      fail(errors, `${path}.rds.route_config_name`, "rds needs a route_config_name");
    } else rds = { name, source: r.config_source };
  }
  const routes = rds
    ? parseRouteConfig({ name: rds.name }, `${path}.rds`, errors, null)
    : c.route_config === undefined
    ? (fail(errors, `${path}.route_config`, "route_config or rds is required"), null)
    : parseRouteConfig(c.route_config, `${path}.route_config`, errors, clusters);
  let hc: HealthCheckFilter | null = null;
  let tap: TapFilterConfig | null = null;
  let router: RouterFilterConfig = DEFAULT_ROUTER_FILTER;
  const chain: ConfiguredFilter[] = [];
  const warnings: string[] = [];
  const filters = c.http_filters ?? [{ name: "envoy.filters.http.router" }];
  if (!Array.isArray(filters)) fail(errors, `${path}.http_filters`, "http_filters must be a list");
  else {
    filters.forEach((f, i) => {
      const at = `${path}.http_filters[${i}]`;
      if (!isObject(f) || typeof f.name !== "string") {
        return fail(errors, at, "filter needs a name");
      }
      const kind = filterKind(f.name);
      const t = typeName(f);
      if (kind === "router" || t === "Router") {
        if (i !== filters.length - 1) fail(errors, at, "the router filter must be the last filter");
        router = parseRouterFilter(filterConfig(f, at, errors), at, errors);
      } else if (kind === "health_check" || t === "HealthCheck") {
        hc = parseHealthCheck(filterConfig(f, at, errors), at, errors);
      } else if (kind === "tap" || t === "Tap") {
        tap = parseTapFilter(filterConfig(f, at, errors), at, errors);
      } else parseChainFilter(f, at, errors, clusters, chain, warnings);
    });
    const last = filters[filters.length - 1];
    if (!isObject(last) || typeof last.name !== "string" || filterKind(last.name) !== "router") {
      if (!(isObject(last) && typeName(last) === "Router")) {
        fail(errors, `${path}.http_filters`, "http_filters must end with the router filter");
      }
    }
  }
  const limits = parseDownstreamLimits(c, path, errors);
  const forwarding = parseForwarding(c, path, errors);
  const accessLogs = parseAccessLogs(
    c.access_log,
    `${path}.access_log`,
    errors,
    parseHeaderMatcher,
  );
  if (routes) {
    compilePerRoute(
      routes,
      perRouteFactory,
      errors,
      (f) => chain.filter((x) => x.factory === f).map((x) => x.config),
    );
  }
  const localReplies = parseLocalReplyConfig(
    c.local_reply_config,
    `${path}.local_reply_config`,
    errors,
  );
  const options = parseHcmOptions(c, path, errors);
  if (!routes || typeof c.stat_prefix !== "string") return null;
  return {
    statPrefix: c.stat_prefix,
    routes,
    rds,
    healthCheck: hc,
    useRemoteAddress: forwarding.useRemoteAddress,
    serverName: typeof c.server_name === "string" ? c.server_name : "proxy",
    generateRequestId: unwrap(c.generate_request_id) !== false,
    preserveExternalRequestId: flag(
      c.preserve_external_request_id,
      `${path}.preserve_external_request_id`,
      errors,
    ),
    accessLogs,
    tap,
    limits,
    forwarding,
    upgrades: parseUpgradeConfigs(c.upgrade_configs, `${path}.upgrade_configs`, errors, false),
    filters: chain,
    warnings,
    localReplies,
    options,
    router,
  };
}

/** What a connection manager needs from its listener. */
export interface HcmDeps {
  clusters: ClusterManager;
  /** Root stats scope. */
  stats: Scope;
  /** `listener.<address>_<port>` scope. */
  listenerStats: Scope;
  hooks: ProxyHooks;
  /** The local address of `--local-address-ip-version`. */
  localAddress: string;
  /** 0..1: the share of responses that should close their connection (draining). */
  drainShare(): number;
  /** Where access log lines go (required when `accessLogs` is not empty). */
  accessLogFiles?: AccessLogFiles;
  /** The overload manager's actions, when one is configured. */
  overload?: OverloadView;
}

/** Envoy's local reply body for a request refused by `stop_accepting_requests`. */
export const OVERLOADED = "proxy overloaded";

/** True with probability `p` (0 to 1): how a partly engaged overload action applies. */
const engaged = (p: number) => p > 0 && (p >= 1 || Math.random() < p);

/** Handles requests of one listener. */
export class HttpConnectionManager {
  readonly #rqTotal: Counter;
  readonly #rqActive: Gauge;
  readonly #rqCompleted: Counter;
  readonly #rqClass: Counter[];
  readonly #lsClass: Counter[];
  readonly #rqTime: Histogram;
  readonly #h1: Counter;
  readonly #h2: Counter;
  readonly #noRoute: Counter;
  readonly #noCluster: Counter;
  readonly #direct: Counter;
  readonly #redirect: Counter;
  readonly #logger: RequestLogger | null;
  readonly #protocolError: Counter;
  readonly #overloadClose: Counter | null;
  /** `downstream_rq_rx_reset`: streams reset by the overload manager (Envoy counts every reset). */
  readonly #rxReset: Counter | null;
  readonly #overloadKeepalive: Counter | null;
  /** `downstream_rq_max_duration_reached` (`stream_duration.ts`). */
  readonly #maxDuration: Counter;
  readonly #chain: HttpFilter[];
  /** The `http` and `router` loggers (debug lines per request, built only when enabled). */
  readonly #http: ComponentLog;
  readonly #router: ComponentLog;
  #streamId = 0;
  /** Stream numbers of requests in flight, only while debug lines are enabled. */
  readonly #streams = new WeakMap<DownstreamRequest, number>();

  /** Creates the manager for `cfg`. */
  constructor(readonly cfg: HcmConfig, readonly deps: HcmDeps) {
    this.#http = deps.hooks.logFor?.("http") ?? SILENT;
    this.#router = deps.hooks.logFor?.("router") ?? SILENT;
    const s = deps.stats.scope("http").scope(cfg.statPrefix);
    const ls = deps.listenerStats.scope("http").scope(cfg.statPrefix);
    this.#rqTotal = s.counter("downstream_rq_total");
    this.#rqActive = s.gauge("downstream_rq_active");
    this.#rqCompleted = s.counter("downstream_rq_completed");
    this.#rqClass = [1, 2, 3, 4, 5].map((n) => s.counter(`downstream_rq_${n}xx`));
    this.#lsClass = [1, 2, 3, 4, 5].map((n) => ls.counter(`downstream_rq_${n}xx`));
    this.#rqTime = s.histogram("downstream_rq_time", "milliseconds");
    this.#h1 = s.counter("downstream_rq_http1_total");
    this.#h2 = s.counter("downstream_rq_http2_total");
    this.#noRoute = s.counter("no_route");
    this.#noCluster = s.counter("no_cluster");
    this.#direct = s.counter("rq_direct_response");
    this.#redirect = s.counter("rq_redirect");
    this.#protocolError = s.counter("downstream_cx_protocol_error");
    this.#maxDuration = s.counter("downstream_rq_max_duration_reached");
    this.#overloadClose = deps.overload ? s.counter("downstream_rq_overload_close") : null;
    this.#rxReset = deps.overload?.accounts ? s.counter("downstream_rq_rx_reset") : null;
    this.#overloadKeepalive = deps.overload
      ? s.counter("downstream_cx_overload_disable_keepalive")
      : null;
    this.#logger = cfg.accessLogs.length === 0 ? null : new RequestLogger(
      openLogSinks(cfg.accessLogs, deps.accessLogFiles, deps.clusters.deps.runtime),
    );
    const fd = {
      stats: s,
      root: deps.stats,
      clusters: deps.clusters,
      log: deps.hooks.log,
      runtime: deps.clusters.deps.runtime,
    };
    this.#chain = (cfg.filters ?? []).map((f) => {
      const run = f.factory.create(f.config, fd);
      const name = canonicalFilterName(f.name);
      // A route's `FilterConfig` may disable the filter there.
      return (ctx, next) => ctx.route?.perFilter?.get(name)?.disabled ? next() : run(ctx, next);
    });
    for (const w of cfg.warnings ?? []) deps.hooks.log("warning", `http.${cfg.statPrefix}: ${w}`);
  }

  /** Handles one request of downstream connection `conn`. */
  handle = (req: DownstreamRequest, conn: DownstreamConn): Promise<ProxyResponse> => {
    const t0 = performance.now();
    this.#rqTotal.inc();
    this.#rqActive.inc();
    const lg = this.#logger === null ? null : this.#logger.start(req, conn);
    const http = this.#http;
    const sid = http.on("debug") || this.#router.on("debug") ? ++this.#streamId : 0;
    if (sid > 0 && http.on("debug")) {
      http(
        "debug",
        `[S${sid}] request headers complete: ${req.method} ${req.authority}${req.path} ` +
          `(${req.h2 ? "HTTP/2" : "HTTP/1.1"} from ${conn.remoteAddr.hostname})`,
      );
    }
    if (sid > 0) this.#streams.set(req, sid);
    // Decided on the request as it arrived (Envoy's is_grpc_request), before filters change it.
    const grpc = req.error === null && isGrpcRequest(req.headers);
    const ov = this.deps.overload;
    let answer: Promise<ProxyResponse>;
    try {
      if (ov !== undefined && engaged(ov.value("stop_accepting_requests"))) {
        this.#overloadClose!.inc();
        if (req.body !== null) req.body.cancel().catch(() => {});
        answer = Promise.resolve(localReply(503, OVERLOADED, { connection: "close" }));
      } else if (ov?.accounts !== undefined) {
        answer = accountedStream(ov.accounts, req, (r) => this.#route(r, conn, lg), () => {
          this.#rxReset!.inc();
          if (lg !== null) lg.flags.push("OM");
        });
      } else answer = this.#route(req, conn, lg);
    } catch (e) {
      answer = Promise.reject(e);
    }
    // The answer is finished in reactions rather than an async frame kept while it is awaited.
    return answer.then(
      (res) => this.#respond(res, req, conn, t0, lg, sid, grpc),
      (e) => {
        this.deps.hooks.log("error", `http.${this.cfg.statPrefix}: ${(e as Error).message}`);
        return this.#respond(localReply(500, "internal error"), req, conn, t0, lg, sid, grpc);
      },
    );
  };

  /** What every answer goes through on its way out: counted, logged, headers settled. */
  #respond(
    answer: ProxyResponse,
    req: DownstreamRequest,
    conn: DownstreamConn,
    t0: number,
    lg: LogCtx | null,
    sid: number,
    grpc: boolean,
  ): ProxyResponse {
    let res = answer;
    const ov = this.deps.overload;
    const http = this.#http;
    const gone = req.signal?.reason === DOWNSTREAM_REMOTE_CLOSE
      ? DOWNSTREAM_REMOTE_CLOSE
      : req.clientGone?.();
    if (gone === DOWNSTREAM_REMOTE_CLOSE || gone === DOWNSTREAM_REMOTE_RESET) {
      res = this.#remoteClosed(res, lg, gone === DOWNSTREAM_REMOTE_RESET);
    }
    if (this.cfg.localReplies) {
      res = rewriteLocalReply(
        this.cfg.localReplies,
        res,
        req,
        conn,
        Date.now() - (performance.now() - t0),
      );
    }
    // After the mappers, as Envoy's prepareLocalReply; counted and logged as sent (200).
    if (grpc && res.localBody !== undefined) res = toGrpcLocalReply(res, req.method === "HEAD");
    const c = Math.floor(res.status / 100) - 1;
    if (c >= 0 && c < 5) {
      this.#rqClass[c].inc();
      this.#lsClass[c].inc();
    }
    // A stream reset before its answer has no response: not completed (as Envoy counts).
    if (res.status !== 0) this.#rqCompleted.inc();
    this.#rqActive.dec();
    this.#rqTime.record(performance.now() - t0);
    const h = res.headers;
    const sht = this.cfg.options?.serverHeader ?? "OVERWRITE";
    if (sht === "OVERWRITE" || (sht === "APPEND_IF_ABSENT" && !h.has("server"))) {
      h.set("server", this.cfg.serverName);
    }
    const share = this.deps.drainShare();
    // HTTP/1 closes after this response; on HTTP/2 the server turns it into a GOAWAY.
    if (share > 0 && (share >= 1 || Math.random() < share)) {
      h.set("connection", "close");
    } else if (
      ov !== undefined && !req.h2 && h.get("connection") !== "close" &&
      engaged(ov.value("disable_http_keepalive"))
    ) {
      this.#overloadKeepalive!.inc();
      h.set("connection", "close");
    }
    if (sid > 0 && http.on("debug")) {
      const close = h.get("connection") === "close" ? " (closing the connection)" : "";
      http("debug", `[S${sid}] encoding headers: status ${res.status}${close}`);
    }
    return lg === null ? res : this.#logger!.finish(lg, res);
  }

  #route(req: DownstreamRequest, conn: DownstreamConn, lg: LogCtx | null): Promise<ProxyResponse> {
    (req.h2 ? this.#h2 : this.#h1).inc();
    if (req.error !== null) return Promise.resolve(this.#codecError(req.error, lg));
    const o = this.cfg.options;
    if (o !== undefined && o.normalizes && req.method !== "CONNECT") {
      const r = normalizeRequestPath(req, o);
      if (r !== null) return Promise.resolve(r);
    }
    const fwd = sanitizeRequestHeaders(
      req.headers,
      conn.remoteAddr.hostname,
      req.scheme,
      this.deps.localAddress,
      this.cfg.forwarding,
    );
    // Edge requests get a request ID of this proxy's making unless preserve_external_request_id.
    if (fwd.edge && this.cfg.generateRequestId && !this.cfg.preserveExternalRequestId) {
      req.headers.delete("x-request-id");
    }
    const tap = this.cfg.tap ? beginTap(this.cfg.tap, req) : null;
    if (tap) return this.#filters(tap.request, conn, lg).then(tap.finish);
    return this.#filters(req, conn, lg);
  }

  #filters(
    req: DownstreamRequest,
    conn: DownstreamConn,
    lg: LogCtx | null,
  ): Promise<ProxyResponse> {
    const hc = this.cfg.healthCheck;
    if (hc) {
      if (lg !== null) lg.healthCheck = matchHeaders(hc.headers, req);
      const r = healthCheck(hc, req, this.deps.hooks.healthCheckFailed());
      if (r) return Promise.resolve(r);
    }
    const route = selectRoute(this.cfg.routes, req);
    if (lg !== null && route) lg.routeName = route.name;
    const idle = route !== null && "idleTimeoutMs" in route.action
      ? route.action.idleTimeoutMs
      : null;
    if (idle !== null) req.setIdleTimeout?.(idle);
    const msd = route !== null && "maxStreamDuration" in route.action
      ? route.action.maxStreamDuration
      : null;
    const hcmMs = this.cfg.limits.maxStreamDurationMs;
    if (hcmMs > 0 || msd !== null) {
      const ms = streamDurationMs(msd, req.headers, hcmMs);
      if (ms !== null) {
        const run = (r: DownstreamRequest) => this.#chained(route, r, conn, lg);
        return limitStreamDuration(ms, req, run, () => this.#durationReached(req, lg));
      }
    }
    return this.#chained(route, req, conn, lg);
  }

  /** The stream's `max_stream_duration` passed: counted, noted for the access log. */
  #durationReached(req: DownstreamRequest, lg: LogCtx | null): void {
    this.#maxDuration.inc();
    if (lg !== null) lg.details = DURATION_TIMEOUT_DETAILS;
    if (this.#http.on("debug")) {
      this.#http("debug", `[S${this.#streams.get(req) ?? 0}] stream max duration time reached`);
    }
  }

  #chained(
    route: Route | null,
    req: DownstreamRequest,
    conn: DownstreamConn,
    lg: LogCtx | null,
  ): Promise<ProxyResponse> {
    if (this.#chain.length === 0) return this.#routed(route, req, conn, lg);
    const ctx = {
      req,
      conn,
      route,
      lg,
      perRoute: <T>(name: string) => route?.perFilter?.get(name)?.compiled as T | undefined,
    };
    return runChain(this.#chain, ctx, () => this.#routed(route, ctx.req, conn, lg));
  }

  #routed(
    route: Route | null,
    req: DownstreamRequest,
    conn: DownstreamConn,
    lg: LogCtx | null,
  ): Promise<ProxyResponse> {
    const ir = route !== null && "internalRedirect" in route.action
      ? route.action.internalRedirect
      : null;
    if (ir === null) return this.#routedOnce(route, req, conn, lg);
    return this.#internalRedirect(route!, ir, req, conn, lg);
  }

  /**
   * Sends `req` on `route` and follows the internal redirect its answer asks for, if the
   * policy allows it: the request, body buffered, goes again through route selection and the
   * filters (`internal_redirect.ts`).
   */
  async #internalRedirect(
    route: Route,
    ir: InternalRedirectPolicy,
    req: DownstreamRequest,
    conn: DownstreamConn,
    lg: LogCtx | null,
  ): Promise<ProxyResponse> {
    let bytes: Uint8Array | null = null;
    let m = req;
    if (req.body !== null) {
      const b = await bufferUpTo(req.body, route.bufferLimit, req.account);
      bytes = "bytes" in b ? b.bytes : null;
      m = { ...req, body: "bytes" in b ? bytesStream(b.bytes) : b.stream };
    }
    const hold: { ur?: UpstreamRequest; cluster?: Cluster } = {};
    const res = await this.#routedOnce(route, m, conn, lg, hold);
    if (!ir.codes.has(res.status) || !hold.ur?.upstream || !hold.cluster) return res;
    const target = redirectTarget(
      ir,
      res.status,
      res.headers.get("location"),
      req,
      redirectCount(req),
    );
    const stat = (n: string) =>
      hold.cluster!.stats.s.counter(`upstream_internal_redirect_${n}_total`);
    if (target === null || (req.body !== null && bytes === null && !target.dropBody)) {
      stat("failed").inc();
      return res;
    }
    stat("succeeded").inc();
    if (res.body instanceof ReadableStream) res.body.cancel().catch(() => {});
    const headers = new HeaderMap();
    req.headers.forEach((v, k) => headers.append(k, v));
    if (!headers.has(ORIGINAL_URL_HEADER)) headers.set(ORIGINAL_URL_HEADER, target.originalUrl);
    const body = target.dropBody || bytes === null ? null : bytesStream(bytes);
    const next: DownstreamRequest = {
      ...req,
      method: target.method,
      authority: target.authority,
      path: target.path,
      scheme: target.scheme,
      headers,
      body,
      contentLength: body === null ? 0 : req.contentLength,
      upgrade: undefined,
      bodyError: undefined,
    };
    countRedirect(req, next);
    return this.#filters(next, conn, lg);
  }

  #routedOnce(
    route: Route | null,
    req: DownstreamRequest,
    conn: DownstreamConn,
    lg: LogCtx | null,
    hold: { ur?: UpstreamRequest; cluster?: Cluster } = {},
  ): Promise<ProxyResponse> {
    if (!route) {
      if (this.#router.on("debug")) {
        this.#router(
          "debug",
          `[S${this.#streams.get(req) ?? 0}] no route match for URL '${req.path}'`,
        );
      }
      this.#noRoute.inc();
      if (lg !== null) lg.flags.push("NR");
      return Promise.resolve(localReply(404, ""));
    }
    if (route.responseHeaders.length === 0) return this.#act(route, req, conn, lg, hold);
    const startMs = Date.now();
    return this.#act(route, req, conn, lg, hold).then((res) => {
      const rec = headerRecord(req, conn, startMs, hold.ur?.upstream, res, lg?.cluster ?? null);
      applyHeaderMutations(route.responseHeaders, res.headers, rec);
      return res;
    });
  }

  #act(
    route: Route,
    m: DownstreamRequest,
    conn: DownstreamConn,
    lg: LogCtx | null,
    hold?: { ur?: UpstreamRequest; cluster?: Cluster },
  ): Promise<ProxyResponse> {
    const a = route.action;
    if (a.kind === "direct") {
      this.#direct.inc();
      if (lg !== null) lg.details = "direct_response";
      return Promise.resolve(localReply(a.status, a.body));
    }
    const matched: MatchedPrefix = route.match.kind === "prefix"
      ? { kind: "prefix", length: route.match.value.length }
      : route.match.kind === "path"
      ? { kind: "path" }
      : null;
    if (a.kind === "redirect") {
      this.#redirect.inc();
      const loc = redirectLocation(a.redirect, m, matched);
      // A local reply in Envoy (a direct response entry): the mappers and gRPC apply to it.
      const res = proxyResponse(a.redirect.status, new HeaderMap([["location", loc]]));
      res.localBody = "";
      return Promise.resolve(res);
    }
    let name: string | null;
    let metadataMatch = a.metadataMatch;
    if (a.kind === "cluster") name = a.cluster;
    else if (a.kind === "cluster_header") name = m.headers.get(a.header);
    else {
      const w = pickWeighted(a);
      name = w.name;
      metadataMatch = mergeMetadataMatch(metadataMatch, w.metadataMatch);
    }
    if (m.dynamicMetadata !== undefined) {
      metadataMatch = withDynamicMetadata(metadataMatch, m.dynamicMetadata);
    }
    const cluster = name === null ? undefined : this.deps.clusters.get(name);
    const router = this.#router;
    if (!cluster) {
      if (router.on("debug")) {
        router("debug", `[S${this.#streams.get(m) ?? 0}] unknown cluster '${name ?? ""}'`);
      }
      this.#noCluster.inc();
      if (lg !== null) lg.flags.push("NC");
      return Promise.resolve(localReply(503, ""));
    }
    const path = rewritePath(m.path, a.prefixRewrite, a.regexRewrite, matched);
    let authority = a.hostRewrite ?? m.authority;
    if (a.hostRewriteHeader !== null) authority = m.headers.get(a.hostRewriteHeader) || authority;
    if (a.hostRewritePathRegex !== null) {
      const q = m.path.indexOf("?");
      authority = applyRegexRewrite(q < 0 ? m.path : m.path.slice(0, q), a.hostRewritePathRegex);
    }
    // Before the headers are copied: the timeout headers the router reads are consumed.
    const rf = this.cfg.router ?? DEFAULT_ROUTER_FILTER;
    const timeouts = finalTimeout(
      a,
      a.retry?.perTryTimeoutMs ?? 0,
      m.headers,
      rf.respectExpectedRqTimeout,
    );
    const ur: UpstreamRequest = {
      method: m.method,
      path,
      authority,
      // x-forwarded-for and -proto were settled when the request arrived.
      headers: upstreamHeaders(m.headers, {
        appendXff: null,
        proto: m.scheme,
        overwriteProto: false,
        requestId: this.cfg.generateRequestId,
      }),
      body: lg === null || m.body === null ? m.body : lg.countRequestBody(m.body),
      contentLength: m.body === null ? 0 : m.contentLength,
      trailers: m.body === null ? undefined : m.trailers,
      timeoutMs: timeouts.globalMs,
      timeoutStatus: timeouts.timeoutStatus,
      priority: a.priority,
      downstreamH2: m.h2,
      downstreamLocal: conn.localAddr,
      metadataMatch: metadataMatch ?? undefined,
      upstream: null,
      autoHostRewrite: a.autoHostRewrite,
    };
    if (hold !== undefined) {
      hold.ur = ur;
      hold.cluster = cluster;
    }
    // The list was made for this request just above: the timeout headers go in in place.
    ur.headers = putTimeoutHeaders(
      ur.headers,
      timeoutHeaders(0, timeouts, !rf.suppressEnvoyHeaders),
    );
    if (route.requestHeaders.length > 0) {
      const rec = headerRecord(m, conn, Date.now(), null, null, cluster.name);
      ur.headers = mutateHeaderList(route.requestHeaders, ur.headers, rec);
    }
    const cookies = a.hashPolicy.length === 0 ? null : this.#hashContext(ur, a.hashPolicy, m, conn);
    if (lg !== null) {
      lg.cluster = cluster.name;
      lg.upstreamRequest = ur;
    }
    if (router.on("debug")) {
      router(
        "debug",
        `[S${this.#streams.get(m) ?? 0}] cluster '${cluster.name}' match for URL '${m.path}'` +
          (route.name ? ` (route ${route.name})` : ""),
      );
    }
    if (m.method === "CONNECT") return this.#connect(cluster, ur, a, m, lg);
    const up = m.upgrade === undefined ? null : m.headers.get("upgrade");
    if (up && this.cfg.upgrades && upgradeAllowed(this.cfg.upgrades, a.upgrades, up)) {
      return forwardUpgrade(cluster, ur, up, m.upgrade!);
    }
    const bodyError = m.bodyError;
    const forwarded = forwardWithRetries(cluster, ur, m, {
      policy: a.retry,
      attemptCountInRequest: route.attemptCountInRequest,
      attemptCountInResponse: route.attemptCountInResponse,
      bufferLimit: route.bufferLimit,
      shadows: a.mirrors.length === 0 ? undefined : this.#shadows(a.mirrors, m),
      gone: m.signal,
      account: m.account,
      timeouts,
      expectedTimeoutHeader: !rf.suppressEnvoyHeaders,
    }).then((r) => {
      if (lg !== null) { for (const f of r.flags) lg.flags.push(f); }
      if (rf.suppressEnvoyHeaders) {
        for (const n of SUPPRESSED_RESPONSE_HEADERS) r.res.headers.delete(n);
      }
      if (router.on("debug")) {
        const host = ur.upstream ? `${ur.upstream.address}:${ur.upstream.port}` : "no host";
        const flags = r.flags.length > 0 ? ` (${r.flags.join(",")})` : "";
        router(
          "debug",
          `[S${this.#streams.get(m) ?? 0}] upstream ${host} answered ${r.res.status}${flags}`,
        );
      }
      return r.res;
    });
    const sent = cookies === null ? forwarded : forwarded.then((res) => {
      // Cookies a hash policy generated go out with the upstream's answer, as in Envoy.
      if (ur.upstream) { for (const c of cookies) res.headers.append("set-cookie", c); }
      return res;
    });
    if (bodyError === undefined) return sent;
    return sent.then((res) => {
      const e = bodyError();
      if (e === null) return res;
      // The request body was malformed: answer that instead of whatever the upstream made of it.
      if (res.body instanceof ReadableStream) res.body.cancel().catch(() => {});
      return this.#codecError(e, lg);
    });
  }

  /**
   * A CONNECT request on a route: tunnelled when the connection manager and the route allow
   * upgrade type CONNECT (ended here with `connect_config`, else passed on), else `403` as Envoy
   * answers an upgrade it does not allow.
   */
  #connect(
    cluster: Cluster,
    ur: UpstreamRequest,
    a: { upgrades: UpgradeConfigs | null; connectTerminate: boolean },
    m: DownstreamRequest,
    lg: LogCtx | null,
  ): Promise<ProxyResponse> {
    if (
      !this.cfg.upgrades || !upgradeAllowed(this.cfg.upgrades, a.upgrades, "connect") || !m.upgrade
    ) {
      if (lg !== null) lg.details = "upgrade_failed";
      return Promise.resolve(localReply(403, ""));
    }
    return a.connectTerminate
      ? terminateConnect(cluster, ur, m.upgrade)
      : forwardUpgrade(cluster, ur, "connect", m.upgrade);
  }

  /** The clusters that get a shadow of request `m` this time (each drawn by its fraction). */
  #shadows(mirrors: readonly MirrorPolicy[], m: DownstreamRequest) {
    const out: { cluster: Cluster; hostSuffix: boolean }[] = [];
    for (const mp of mirrors) {
      if (mp.fraction < 1 && Math.random() >= mp.fraction) continue;
      const name = mp.cluster ?? m.headers.get(mp.clusterHeader!);
      const c = name === null ? undefined : this.deps.clusters.get(name);
      if (c) out.push({ cluster: c, hostSuffix: mp.hostSuffix });
    }
    return out;
  }

  /**
   * Gives `ur` the route's request hash, computed once when a hashing balancer asks for it; the
   * returned list receives the `set-cookie` values a cookie policy generates.
   */
  #hashContext(
    ur: UpstreamRequest,
    policies: readonly HashPolicy[],
    m: DownstreamRequest,
    conn: DownstreamConn,
  ): string[] {
    const cookies: string[] = [];
    let done = false;
    let hash: bigint | undefined;
    ur.lb = {
      computeHashKey: () => {
        if (!done) {
          done = true;
          hash = requestHash(policies, {
            method: m.method,
            path: ur.path,
            authority: m.authority,
            scheme: m.scheme,
            headers: m.headers,
            remote: conn.remoteAddr,
            local: conn.localAddr,
            filterState: m.filterState,
          }, (c) => cookies.push(c));
        }
        return hash;
      },
    };
    return cookies;
  }

  /**
   * The answer of a stream whose client closed the connection before it was answered: status 0
   * (nothing is written), logged with flag `DC` and details `downstream_remote_disconnect`; an HTTP/2 stream the client `reset` is logged as Envoy logs
   * it: flag `DR`, details `http2.remote_reset`. Whatever the route made of it is dropped.
   */
  #remoteClosed(res: ProxyResponse, lg: LogCtx | null, reset: boolean): ProxyResponse {
    if (res.body instanceof ReadableStream) res.body.cancel().catch(() => {});
    if (lg !== null) {
      if (reset) {
        // Envoy's HTTP/2 codec names the reset; the stream is flagged DownstreamRemoteReset.
        lg.details = "http2.remote_reset";
        lg.flags.push("DR");
      } else {
        lg.details = "downstream_remote_disconnect";
        lg.flags.push("DC");
      }
    }
    return { status: 0, headers: new HeaderMap(), body: null };
  }

  /**
   * The local reply to a request the codec found malformed (Envoy's body: the status's reason
   * phrase); counted, logged at debug with the details, and the connection closes after it.
   */
  #codecError(e: CodecError, lg: LogCtx | null): ProxyResponse {
    this.#protocolError.inc();
    if (this.#http.on("debug")) {
      this.#http("debug", `http.${this.cfg.statPrefix}: codec error: ${e.details}`);
    }
    if (lg !== null) lg.flags.push("DPE");
    return localReply(e.status, reasonPhrase(e.status), { connection: "close" });
  }
}
