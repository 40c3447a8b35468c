/**
 * The gRPC side of the external authorization filter: `grpc_service.envoy_grpc.cluster_name`
 * names an HTTP/2 cluster that serves `envoy.service.auth.v3.Authorization/Check`. Each request
 * becomes a unary call with a protobuf `CheckRequest` (encoded with the descriptor set of
 * `src/config/proto_registry.ts`) whose attributes carry the source and destination addresses,
 * the request's method, path, host, scheme, protocol and headers (pseudo-headers included, as
 * Envoy sends them), and the route's `context_extensions`. The `CheckResponse` decides:
 * `status.code` 0 lets the request on with `ok_response.headers` set (or appended with
 * `append: true`) and `ok_response.headers_to_remove` removed; another code denies it with
 * `denied_response` (its status, 403 when unset, headers and body). No answer within
 * `grpc_service.timeout` (200 ms by default), a non-200 HTTP status, a `grpc-status` other than
 * 0 in the response headers or a body that is not one `CheckResponse` is an error.
 *
 * The call goes through the cluster like any upstream request (its load balancing, its
 * HTTP/2 pool), so the cluster needs `http2_protocol_options` as in Envoy. Trailers are not
 * read: a server that sends a message and then a failing status in trailers is taken at its
 * message. The messages are encoded with the protobuf runtime (`protobuf_module.ts`): `grpcCheck`
 * loads it; `encodeCheckRequest` and `decodeCheckResponse` throw when it is not loaded. The
 * service's side of the messages (for tests and example servers) is in `ext_authz_messages.ts`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeCheckResponse } from "./ext_authz_grpc.ts";
 * import { encodeCheckResponse } from "./ext_authz_messages.ts";
 * import { PROTOBUF } from "../config/protobuf_module.ts";
 * await PROTOBUF.load(); // grpcCheck loads it itself
 * const bytes = encodeCheckResponse({ status: { code: 7 }, denied_response: { body: "no" } });
 * const d = decodeCheckResponse(bytes);
 * assert.equal(d.kind === "denied" && d.status, 403);
 * ```
 * @module
 */
import { PROTOBUF } from "../config/protobuf_module.ts";
import type { Json, JsonObject } from "../config/bootstrap_types.ts";
import { durationMs, type Errors, fail, isObject } from "../config/config_values.ts";
import type { DownstreamConn, DownstreamRequest } from "../http/downstream_request.ts";
import type { ProxyResponse } from "../http/proxy_response.ts";
import type { ClusterManager } from "../upstream/cluster_manager.ts";
import { onlyFields } from "./http_filter.ts";

/** A compiled `grpc_service`. */
export interface GrpcAuthzService {
  cluster: string;
  /** `envoy_grpc.authority`: the `:authority` of the calls (default: the cluster's name). */
  authority: string;
  timeoutMs: number;
}

/** What the authorization service decided. */
export type AuthzDecision =
  | { kind: "ok"; set: [string, string][]; append: [string, string][]; remove: string[] }
  | { kind: "denied"; status: number; headers: [string, string][]; body: Uint8Array | null }
  | { kind: "error" };

/** The method path of the v3 Check call. */
export const CHECK_PATH = "/envoy.service.auth.v3.Authorization/Check";
const CHECK_REQUEST = "envoy.service.auth.v3.CheckRequest";
const CHECK_RESPONSE = "envoy.service.auth.v3.CheckResponse";

/** Compiles `grpc_service` at `at` (only `envoy_grpc` with a known cluster). */
export function parseGrpcService(
  gs: Json | undefined,
  at: string,
  errors: Errors,
  clusters?: ReadonlySet<string> | null,
): GrpcAuthzService | null {
  if (!isObject(gs)) return fail(errors, at, "must be an object"), null;
  onlyFields(gs, ["envoy_grpc", "timeout", "initial_metadata"], at, errors);
  if (gs.initial_metadata !== undefined) {
    fail(errors, `${at}.initial_metadata`, "initial_metadata is not supported by this build");
  }
  const eg = gs.envoy_grpc;
  if (!isObject(eg)) {
    fail(errors, `${at}.envoy_grpc`, "envoy_grpc is required (google_grpc is not supported)");
    return null;
  }
  onlyFields(eg, ["cluster_name", "authority"], `${at}.envoy_grpc`, errors);
  const name = eg.cluster_name;
  if (typeof name !== "string" || name === "") {
    return fail(errors, `${at}.envoy_grpc.cluster_name`, "cluster_name is required"), null;
  }
  if (clusters && !clusters.has(name)) {
    return fail(errors, `${at}.envoy_grpc.cluster_name`, `unknown cluster "${name}"`), null;
  }
  const timeoutMs = gs.timeout === undefined
    ? 200
    : durationMs(gs.timeout, `${at}.timeout`, errors) ?? 200;
  const authority = eg.authority ?? name;
  if (typeof authority !== "string" || authority === "" || /[\0\r\n]/.test(authority)) {
    return fail(errors, `${at}.envoy_grpc.authority`, "must be a valid HTTP header value"), null;
  }
  return { cluster: name, authority, timeoutMs };
}

const address = (a: Deno.NetAddr) => ({
  address: { socket_address: { address: a.hostname, port_value: a.port } },
});

/** The protobuf `CheckRequest` for `req` on `conn`. */
export function encodeCheckRequest(
  req: DownstreamRequest,
  conn: DownstreamConn,
  contextExtensions: Record<string, string>,
): Uint8Array {
  const headers: Record<string, string> = {
    ":authority": req.authority,
    ":method": req.method,
    ":path": req.path,
    ":scheme": req.scheme,
  };
  req.headers.forEach((v, k) => {
    headers[k] = headers[k] === undefined ? v : `${headers[k]},${v}`;
  });
  const q = req.path.indexOf("?");
  const json = {
    attributes: {
      source: address(conn.remoteAddr),
      destination: address(conn.localAddr),
      request: {
        http: {
          method: req.method,
          headers,
          path: req.path,
          host: req.authority,
          scheme: req.scheme,
          ...(q >= 0 ? { query: req.path.slice(q + 1) } : {}),
          protocol: req.h2 ? "HTTP/2" : "HTTP/1.1",
          size: String(req.contentLength >= 0 ? req.contentLength : -1),
        },
      },
      context_extensions: contextExtensions,
    },
  };
  return PROTOBUF.get().encodeMessage(CHECK_REQUEST, json);
}

function headerOptions(v: Json | undefined): { key: string; value: string; append: boolean }[] {
  if (!Array.isArray(v)) return [];
  const out = [];
  for (const o of v) {
    if (!isObject(o) || !isObject(o.header) || typeof o.header.key !== "string") continue;
    out.push({
      key: o.header.key.toLowerCase(),
      value: typeof o.header.value === "string" ? o.header.value : "",
      append: o.append === true,
    });
  }
  return out;
}

/** What a `CheckResponse` decides; an error when the bytes are not one. */
export function decodeCheckResponse(bytes: Uint8Array): AuthzDecision {
  let r: JsonObject;
  const pb = PROTOBUF.get();
  try {
    r = pb.decodeMessage(CHECK_RESPONSE, bytes, { enumAsInteger: true });
  } catch {
    return { kind: "error" };
  }
  const code = isObject(r.status) && typeof r.status.code === "number" ? r.status.code : 0;
  if (code === 0) {
    const ok = isObject(r.ok_response) ? r.ok_response : {};
    const hs = headerOptions(ok.headers);
    return {
      kind: "ok",
      set: hs.filter((h) => !h.append).map((h) => [h.key, h.value]),
      append: hs.filter((h) => h.append).map((h) => [h.key, h.value]),
      remove: Array.isArray(ok.headers_to_remove)
        ? ok.headers_to_remove.filter((x): x is string => typeof x === "string")
          .map((x) => x.toLowerCase())
        : [],
    };
  }
  const d = isObject(r.denied_response) ? r.denied_response : {};
  const st = isObject(d.status) && typeof d.status.code === "number" && d.status.code >= 100 &&
      d.status.code <= 599
    ? d.status.code
    : 403;
  const body = typeof d.body === "string" && d.body !== ""
    ? new TextEncoder().encode(d.body)
    : null;
  return {
    kind: "denied",
    status: st,
    headers: headerOptions(d.headers).map((h) => [h.key, h.value]),
    body,
  };
}

/** Frames a message as one gRPC length-prefixed message (uncompressed). */
export function grpcFrame(msg: Uint8Array): Uint8Array {
  const out = new Uint8Array(5 + msg.length);
  new DataView(out.buffer).setUint32(1, msg.length);
  out.set(msg, 5);
  return out;
}

/** The one message of a unary gRPC response body; `null` when it is not exactly one. */
export function grpcUnframe(body: Uint8Array): Uint8Array | null {
  if (body.length < 5 || body[0] !== 0) return null;
  const n = new DataView(body.buffer, body.byteOffset, body.byteLength).getUint32(1);
  return body.length === 5 + n ? body.subarray(5) : null;
}

async function drain(res: ProxyResponse): Promise<Uint8Array> {
  if (res.body === null) return new Uint8Array(0);
  if (res.body instanceof Uint8Array) return res.body;
  return new Uint8Array(await new Response(res.body).arrayBuffer());
}

/** Calls Check on the service's cluster for `req`; what the service decided. */
export async function grpcCheck(
  svc: GrpcAuthzService,
  clusters: ClusterManager,
  req: DownstreamRequest,
  conn: DownstreamConn,
  contextExtensions: Record<string, string>,
): Promise<AuthzDecision> {
  if (!PROTOBUF.loaded) await PROTOBUF.load();
  const cluster = clusters.get(svc.cluster);
  if (cluster === undefined) return { kind: "error" };
  let frame: Uint8Array;
  try {
    frame = grpcFrame(encodeCheckRequest(req, conn, contextExtensions));
  } catch {
    return { kind: "error" };
  }
  try {
    const res = await cluster.forward({
      method: "POST",
      path: CHECK_PATH,
      authority: svc.authority,
      headers: [
        ["content-type", "application/grpc"],
        ["te", "trailers"],
        ["grpc-timeout", `${svc.timeoutMs}m`],
      ],
      body: new ReadableStream({
        start: (ctrl) => {
          ctrl.enqueue(frame);
          ctrl.close();
        },
      }),
      contentLength: frame.length,
      timeoutMs: svc.timeoutMs,
      priority: 0,
      downstreamH2: true,
      upstream: null,
    });
    const status = res.headers.get("grpc-status");
    if (res.flag !== undefined || res.status !== 200 || (status !== null && status !== "0")) {
      // A trailers-only answer: no message follows.
      if (res.body instanceof ReadableStream) res.body.cancel().catch(() => {});
      return { kind: "error" };
    }
    const body = await drain(res);
    const msg = grpcUnframe(body);
    return msg === null ? { kind: "error" } : decodeCheckResponse(msg);
  } catch {
    return { kind: "error" };
  }
}
