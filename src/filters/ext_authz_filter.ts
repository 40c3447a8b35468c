/**
 * The external authorization filter (`envoy.filters.http.ext_authz`) with an HTTP service
 * (`http_service`), as Envoy's raw HTTP client does it: each request is first sent to the
 * `server_uri.cluster` with the original method, `path_prefix` + the original path, no body
 * (`content-length: 0`), and the request headers `allowed_headers` matches (always `host`,
 * `authorization`, and the method and path), plus `headers_to_add`.
 *
 * - `200` from the service: the request goes on, with the service's response headers that
 *   `allowed_upstream_headers` matches (none when unset) set on it;
 * - another status below 500: the client gets the service's status, body and the headers
 *   `allowed_client_headers` matches (all but `host` when unset); flag `UAEX`;
 * - no answer, or a 5xx: an error, answered `status_on_error` (403), or let through with
 *   `failure_mode_allow` (adding `x-proxy-auth-failure-mode-allowed: true` with
 *   `failure_mode_allow_header_add`).
 *
 * Stats `http.<prefix>.ext_authz.ok`, `denied`, `error`, `failure_mode_allowed`. A route's
 * `ExtAuthzPerRoute` with `disabled: true` skips the check; its `check_settings.context_extensions`
 * go to a gRPC service. With `grpc_service` instead of `http_service` the check is a gRPC
 * `Authorization/Check` call (see `./ext_authz_grpc.ts`) and the service's answer applies the
 * same way: headers to set, append or remove on the upstream request, or the denied status,
 * headers and body to the client. Request bodies (`with_request_body`) are refused.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { EXT_AUTHZ } from "./ext_authz_filter.ts";
 * const errors: { path: string; rule: string; message: string }[] = [];
 * const c = EXT_AUTHZ.parse(
 *   { http_service: { server_uri: { uri: "http://authz", cluster: "authz", timeout: "0.25s" } } },
 *   "f",
 *   errors,
 * );
 * assert.equal(c?.cluster, "authz");
 * ```
 * @module
 */
import type { Json } from "../config/bootstrap_types.ts";
import { durationMs, type Errors, fail, isObject, unwrap } from "../config/config_values.ts";
import { HeaderMap } from "../http/header_map.ts";
import { localReply } from "../http/local_reply.ts";
import type { ProxyResponse } from "../http/proxy_response.ts";
import { compileStringMatcher } from "../config/string_matcher.ts";
import type { UpstreamRequest } from "../upstream/upstream_request.ts";
import type { ClusterManager } from "../upstream/cluster_manager.ts";
import type { DownstreamRequest } from "../http/downstream_request.ts";
import { anyBody, type HttpFilterFactory, onlyFields } from "./http_filter.ts";
import {
  type AuthzDecision,
  type GrpcAuthzService,
  grpcCheck,
  parseGrpcService,
} from "./ext_authz_grpc.ts";

type NameMatcher = (name: string) => boolean;

/** A compiled `ExtAuthz` with an HTTP service. */
export interface ExtAuthzConfig {
  cluster: string;
  timeoutMs: number;
  pathPrefix: string;
  allowedHeaders: NameMatcher;
  headersToAdd: [string, string][];
  allowedUpstream: NameMatcher;
  allowedClient: NameMatcher;
  failureModeAllow: boolean;
  failureModeAllowHeaderAdd: boolean;
  statusOnError: number;
  /** Set with `grpc_service`: the check is a gRPC call (the HTTP fields are unused). */
  grpc: GrpcAuthzService | null;
}

/** A route's `ExtAuthzPerRoute`. */
interface ExtAuthzPerRoute {
  disabled: boolean;
  contextExtensions: Record<string, string>;
}

const ALWAYS_SENT = new Set(["host", "authorization"]);
const HOP = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "te", "trailer"]);

function matchers(v: Json | undefined, at: string, errors: Errors): NameMatcher[] | null {
  if (v === undefined) return null;
  if (!isObject(v)) return fail(errors, at, "must be an object"), null;
  onlyFields(v, ["patterns"], at, errors);
  const list = v.patterns ?? [];
  if (!Array.isArray(list)) return fail(errors, `${at}.patterns`, "must be a list"), null;
  const out: NameMatcher[] = [];
  list.forEach((m, i) => {
    const f = compileStringMatcher(m, `${at}.patterns[${i}]`, errors);
    if (f) out.push(f);
  });
  return out;
}

const any = (ms: NameMatcher[]): NameMatcher => (n) => ms.some((m) => m(n));

/** Compiles an `ExtAuthz` found at `at`. */
export function parseExtAuthz(
  c: Record<string, Json>,
  at: string,
  errors: Errors,
  clusters?: ReadonlySet<string> | null,
): ExtAuthzConfig | null {
  const n = errors.length;
  onlyFields(
    c,
    [
      "http_service",
      "grpc_service",
      "failure_mode_allow",
      "failure_mode_allow_header_add",
      "status_on_error",
      "transport_api_version",
      "stat_prefix",
    ],
    at,
    errors,
  );
  if (c.stat_prefix !== undefined) {
    fail(errors, `${at}.stat_prefix`, "stat_prefix is not supported by this build");
  }
  const version = unwrap(c.transport_api_version);
  if (version !== undefined && version !== "V3" && version !== 2) {
    fail(
      errors,
      `${at}.transport_api_version`,
      `transport_api_version ${JSON.stringify(version)} is not supported (V3 is)`,
    );
  }
  const hs = c.http_service;
  const hAt = `${at}.http_service`;
  if (c.grpc_service !== undefined) {
    if (hs !== undefined) {
      fail(errors, at, "http_service and grpc_service are exclusive");
      return null;
    }
    const grpc = parseGrpcService(c.grpc_service, `${at}.grpc_service`, errors, clusters);
    const statusOnError = parseStatusOnError(c, at, errors);
    if (errors.length > n || grpc === null) return null;
    return {
      cluster: grpc.cluster,
      timeoutMs: grpc.timeoutMs,
      pathPrefix: "",
      allowedHeaders: () => false,
      headersToAdd: [],
      allowedUpstream: () => false,
      allowedClient: () => false,
      failureModeAllow: unwrap(c.failure_mode_allow) === true,
      failureModeAllowHeaderAdd: unwrap(c.failure_mode_allow_header_add) === true,
      statusOnError,
      grpc,
    };
  }
  if (!isObject(hs)) {
    fail(errors, hAt, "one of http_service and grpc_service is required");
    return null;
  }
  onlyFields(
    hs,
    ["server_uri", "path_prefix", "authorization_request", "authorization_response"],
    hAt,
    errors,
  );
  const su = hs.server_uri;
  let cluster = "";
  let timeoutMs = 200;
  if (!isObject(su)) fail(errors, `${hAt}.server_uri`, "server_uri is required");
  else {
    if (typeof su.cluster !== "string" || su.cluster === "") {
      fail(errors, `${hAt}.server_uri.cluster`, "cluster is required");
    } else if (clusters && !clusters.has(su.cluster)) {
      fail(errors, `${hAt}.server_uri.cluster`, `unknown cluster "${su.cluster}"`);
    } else cluster = su.cluster;
    if (su.timeout === undefined) fail(errors, `${hAt}.server_uri.timeout`, "timeout is required");
    else timeoutMs = durationMs(su.timeout, `${hAt}.server_uri.timeout`, errors) ?? 200;
  }
  if (hs.path_prefix !== undefined && typeof hs.path_prefix !== "string") {
    fail(errors, `${hAt}.path_prefix`, "must be a string");
  }
  const rq = isObject(hs.authorization_request) ? hs.authorization_request : {};
  const rqAt = `${hAt}.authorization_request`;
  onlyFields(rq, ["allowed_headers", "headers_to_add"], rqAt, errors);
  const allowed = matchers(rq.allowed_headers, `${rqAt}.allowed_headers`, errors) ?? [];
  const headersToAdd: [string, string][] = [];
  if (rq.headers_to_add !== undefined) {
    if (!Array.isArray(rq.headers_to_add)) fail(errors, `${rqAt}.headers_to_add`, "must be a list");
    else {
      rq.headers_to_add.forEach((h, i) => {
        if (!isObject(h) || typeof h.key !== "string" || typeof (h.value ?? "") !== "string") {
          return fail(errors, `${rqAt}.headers_to_add[${i}]`, "needs a key and a value");
        }
        headersToAdd.push([h.key.toLowerCase(), String(h.value ?? "")]);
      });
    }
  }
  const rs = isObject(hs.authorization_response) ? hs.authorization_response : {};
  const rsAt = `${hAt}.authorization_response`;
  onlyFields(rs, ["allowed_upstream_headers", "allowed_client_headers"], rsAt, errors);
  const up = matchers(rs.allowed_upstream_headers, `${rsAt}.allowed_upstream_headers`, errors);
  const client = matchers(rs.allowed_client_headers, `${rsAt}.allowed_client_headers`, errors);
  const statusOnError = parseStatusOnError(c, at, errors);
  if (errors.length > n) return null;
  return {
    cluster,
    timeoutMs,
    pathPrefix: typeof hs.path_prefix === "string" ? hs.path_prefix : "",
    allowedHeaders: (name) => ALWAYS_SENT.has(name) || allowed.some((m) => m(name)),
    headersToAdd,
    allowedUpstream: up === null ? () => false : any(up),
    allowedClient: client === null ? (name) => name !== "host" : any(client),
    failureModeAllow: unwrap(c.failure_mode_allow) === true,
    failureModeAllowHeaderAdd: unwrap(c.failure_mode_allow_header_add) === true,
    statusOnError,
    grpc: null,
  };
}

function parseStatusOnError(c: Record<string, Json>, at: string, errors: Errors): number {
  if (c.status_on_error === undefined) return 403;
  const code = isObject(c.status_on_error) ? c.status_on_error.code : undefined;
  if (typeof code !== "number" || !Number.isInteger(code) || code < 100 || code > 599) {
    fail(errors, `${at}.status_on_error.code`, "must be an HTTP status code");
    return 403;
  }
  return code;
}

function parsePerRoute(v: Json, at: string, errors: Errors): ExtAuthzPerRoute | null {
  const c = anyBody(v);
  if (c === null) return fail(errors, at, "must be an object"), null;
  if (!onlyFields(c, ["disabled", "check_settings"], at, errors)) return null;
  if (c.disabled !== undefined && c.check_settings !== undefined) {
    return fail(errors, at, "disabled and check_settings are exclusive"), null;
  }
  const contextExtensions: Record<string, string> = {};
  if (c.check_settings !== undefined) {
    const cs = c.check_settings;
    const csAt = `${at}.check_settings`;
    if (!isObject(cs)) return fail(errors, csAt, "must be an object"), null;
    if (!onlyFields(cs, ["context_extensions"], csAt, errors)) return null;
    const ce = cs.context_extensions ?? {};
    if (!isObject(ce)) return fail(errors, `${csAt}.context_extensions`, "must be a map"), null;
    for (const [k, x] of Object.entries(ce)) {
      if (typeof x !== "string") {
        return fail(errors, `${csAt}.context_extensions.${k}`, "must be a string"), null;
      }
      contextExtensions[k] = x;
    }
    return { disabled: false, contextExtensions };
  }
  if (typeof c.disabled !== "boolean") {
    return fail(errors, `${at}.disabled`, "must be a boolean"), null;
  }
  return { disabled: c.disabled, contextExtensions };
}

async function drain(res: ProxyResponse): Promise<Uint8Array | null> {
  if (res.body === null || res.body instanceof Uint8Array) return res.body;
  return new Uint8Array(await new Response(res.body).arrayBuffer());
}

const NAME = "proxy.filters.http.ext_authz";

/** The external authorization filter (HTTP or gRPC service). */
export const EXT_AUTHZ: HttpFilterFactory<ExtAuthzConfig> = {
  kind: "ext_authz",
  types: ["ExtAuthz"],
  parse: parseExtAuthz,
  parsePerRoute,
  checkPerRoute(c, pr, at, errors) {
    const ext = (pr as ExtAuthzPerRoute).contextExtensions;
    if (c.grpc === null && Object.keys(ext).length > 0) {
      fail(
        errors,
        `${at}.check_settings.context_extensions`,
        "context_extensions reach a gRPC authorization service only; this filter uses http_service",
      );
    }
  },
  create(c, deps) {
    const s = deps.stats.scope("ext_authz");
    const ok = s.counter("ok");
    const denied = s.counter("denied");
    const error = s.counter("error");
    const allowedOnFailure = s.counter("failure_mode_allowed");
    return async (ctx, next) => {
      const apply = (d: AuthzDecision): Promise<ProxyResponse> | ProxyResponse => {
        const req = ctx.req;
        if (d.kind === "ok") {
          ok.inc();
          for (const k of d.remove) {
            if (!k.startsWith(":") && k !== "host") req.headers.delete(k);
          }
          for (const [k, v] of d.set) req.headers.set(k, v);
          for (const [k, v] of d.append) req.headers.append(k, v);
          return next();
        }
        if (d.kind === "error") {
          error.inc();
          if (c.failureModeAllow) {
            allowedOnFailure.inc();
            if (c.failureModeAllowHeaderAdd) {
              req.headers.set("x-proxy-auth-failure-mode-allowed", "true");
            }
            return next();
          }
          if (ctx.lg !== null) {
            ctx.lg.details = "ext_authz_error";
            ctx.lg.flags.push("UAEX");
          }
          req.body?.cancel().catch(() => {});
          return localReply(c.statusOnError, "");
        }
        denied.inc();
        if (ctx.lg !== null) {
          ctx.lg.details = "ext_authz_denied";
          ctx.lg.flags.push("UAEX");
        }
        req.body?.cancel().catch(() => {});
        const h = new HeaderMap();
        for (const [k, v] of d.headers) {
          if (k !== "content-length" && !HOP.has(k)) h.append(k, v);
        }
        // A local reply, as Envoy's: a gRPC request gets it as a trailers-only gRPC response.
        const text = d.body === null ? "" : new TextDecoder().decode(d.body);
        return { status: d.status, headers: h, body: d.body, localBody: text };
      };
      const pr = ctx.perRoute<ExtAuthzPerRoute>(NAME);
      if (pr?.disabled) return next();
      const req = ctx.req;
      if (c.grpc !== null) {
        const d = await grpcCheck(
          c.grpc,
          deps.clusters,
          req,
          ctx.conn,
          pr?.contextExtensions ?? {},
        );
        return apply(d);
      }
      return apply(await httpCheck(c, deps.clusters, req));
    };
  },
};

/**
 * Asks the HTTP authorization service of `c` about `req`: `ok` with the allowed upstream
 * headers for a `200`, `denied` with the allowed client headers and the body for another
 * status, `error` when the service cannot be reached, resets or answers `5xx`.
 */
async function httpCheck(
  c: ExtAuthzConfig,
  clusters: ClusterManager,
  req: DownstreamRequest,
): Promise<AuthzDecision> {
  const headers: [string, string][] = [];
  req.headers.forEach((v, k) => {
    if (k !== "host" && k !== "content-length" && !HOP.has(k) && c.allowedHeaders(k)) {
      headers.push([k, v]);
    }
  });
  for (const h of c.headersToAdd) headers.push(h);
  const check: UpstreamRequest = {
    method: req.method,
    path: c.pathPrefix + req.path,
    authority: req.authority,
    headers,
    body: new ReadableStream({ start: (ctrl) => ctrl.close() }),
    contentLength: 0,
    timeoutMs: c.timeoutMs,
    priority: 0,
    downstreamH2: false,
    upstream: null,
  };
  const cluster = clusters.get(c.cluster);
  let res: ProxyResponse | null = null;
  try {
    res = cluster === undefined ? null : await cluster.forward(check);
  } catch {
    res = null;
  }
  if (res === null || res.flag !== undefined || res.status >= 500) {
    if (res !== null) await drain(res).catch(() => null);
    return { kind: "error" };
  }
  const body = await drain(res);
  const pick = (allowed: NameMatcher) => {
    const out: [string, string][] = [];
    res!.headers.forEach((v, k) => {
      if (allowed(k)) out.push([k, v]);
    });
    return out;
  };
  if (res.status === 200) {
    return { kind: "ok", set: pick(c.allowedUpstream), append: [], remove: [] };
  }
  return { kind: "denied", status: res.status, headers: pick(c.allowedClient), body };
}
