/**
 * gRPC health checks: one `grpc.health.v1.Health/Check` call per check over an HTTP/2 session
 * (the cluster's TLS and source address), `:authority` from `authority`, else the endpoint's
 * hostname, else the cluster name, and `HealthCheckRequest.service` from `service_name`. The
 * check passes when the answer is HTTP 200 with `content-type: application/grpc`, `grpc-status`
 * 0 and a `HealthCheckResponse` whose status is `SERVING` (1); anything else fails the host at
 * once, as in Envoy.
 *
 * @example
 * ```ts
 * import { encodeHealthCheckRequest, decodeServingStatus } from "./grpc_health_checker.ts";
 * const frame = encodeHealthCheckRequest("svc");
 * console.log(frame.length, decodeServingStatus(new Uint8Array([0, 0, 0, 0, 2, 8, 1]))); // 10 1
 * ```
 * @module
 */
import type http2 from "node:http2";
import { type FinishCheck, H2CheckSession } from "./http2_health_checker.ts";
import type { GrpcCheckerConfig } from "./health_check_config.ts";
import type { Checker, CheckResult, CheckSession, Endpoint } from "./checker.ts";

const encoder = new TextEncoder();

/** A gRPC frame holding `HealthCheckRequest { service }`. */
export function encodeHealthCheckRequest(service: string): Uint8Array {
  const s = encoder.encode(service);
  const msg = s.length ? [0x0a, ...varint(s.length), ...s] : [];
  const out = new Uint8Array(5 + msg.length);
  new DataView(out.buffer).setUint32(1, msg.length);
  out.set(msg, 5);
  return out;
}

function varint(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return out;
}

/**
 * The `status` of the `HealthCheckResponse` in a gRPC body (one uncompressed frame): 0 when
 * unset, -1 when the body is not such a frame.
 */
export function decodeServingStatus(body: Uint8Array): number {
  if (body.length < 5 || body[0] !== 0) return -1;
  const len = new DataView(body.buffer, body.byteOffset).getUint32(1);
  if (body.length < 5 + len) return -1;
  const m = body.subarray(5, 5 + len);
  let status = 0;
  for (let i = 0; i < m.length;) {
    const key = m[i++];
    const wire = key & 7;
    let v = 0;
    let shift = 0;
    if (wire === 0) {
      for (;;) {
        if (i >= m.length) return -1;
        const b = m[i++];
        v += (b & 0x7f) * 2 ** shift;
        shift += 7;
        if (!(b & 0x80)) break;
      }
      if (key >> 3 === 1) status = v;
    } else if (wire === 2) {
      for (;;) {
        if (i >= m.length) return -1;
        const b = m[i++];
        v += (b & 0x7f) * 2 ** shift;
        shift += 7;
        if (!(b & 0x80)) break;
      }
      i += v;
    } else return -1;
  }
  return status;
}

const fail = (reason: string): CheckResult => ({
  ok: false,
  type: "ACTIVE",
  retriable: false,
  reason,
});

class GrpcSession extends H2CheckSession {
  constructor(readonly c: GrpcCheckerConfig, e: Endpoint, reuse: boolean) {
    super(e, reuse);
  }

  protected exchange(
    session: http2.ClientHttp2Session,
    finish: FinishCheck,
  ): http2.ClientHttp2Stream {
    const stream = session.request({
      ":method": "POST",
      ":path": "/grpc.health.v1.Health/Check",
      ":authority": this.c.authority || this.e.hostname || this.e.clusterName,
      "content-type": "application/grpc",
      te: "trailers",
    });
    stream.end(encodeHealthCheckRequest(this.c.serviceName));
    let status = 0;
    let contentType = "";
    let grpcStatus: string | undefined;
    const chunks: Uint8Array[] = [];
    stream.on("response", (h) => {
      status = Number(h[":status"]);
      contentType = String(h["content-type"] ?? "");
      if (h["grpc-status"] !== undefined) grpcStatus = String(h["grpc-status"]);
    });
    stream.on("trailers", (t) => {
      if (t["grpc-status"] !== undefined) grpcStatus = String(t["grpc-status"]);
    });
    stream.on("data", (b: Uint8Array) => chunks.push(b));
    stream.on("end", () => {
      if (status !== 200) return finish(fail(`non-200 HTTP response ${status}`), true);
      if (!contentType.startsWith("application/grpc")) {
        return finish(fail(`content-type ${contentType}`), true);
      }
      if (grpcStatus !== "0") return finish(fail(`grpc-status ${grpcStatus ?? "missing"}`), true);
      const body = new Uint8Array(chunks.reduce((a, b) => a + b.length, 0));
      let at = 0;
      for (const b of chunks) {
        body.set(b, at);
        at += b.length;
      }
      const serving = decodeServingStatus(body);
      finish(
        serving === 1 ? { ok: true, degraded: false } : fail(`serving status ${serving}`),
        true,
      );
    });
    return stream;
  }
}

/** The gRPC checker. */
export class GrpcChecker implements Checker {
  readonly type = "GRPC" as const;
  /** Checks with `c`; `reuse` keeps the session between checks. */
  constructor(readonly c: GrpcCheckerConfig, readonly reuse: boolean) {}

  session(e: Endpoint): CheckSession {
    return new GrpcSession(this.c, e, this.reuse);
  }
}
