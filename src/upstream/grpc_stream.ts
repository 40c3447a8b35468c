/**
 * gRPC streams to a control plane, for {@linkcode XdsMux}: `@grpc/grpc-js` over HTTP/2 to the
 * first host of a static cluster (`grpc_services[].envoy_grpc.cluster_name`), in cleartext or,
 * when that cluster has a TLS transport socket, over TLS (ALPN `h2`, the cluster's CA, SNI and
 * client certificate), or to a `google_grpc` target URI with its channel credentials. Messages
 * pass as bytes; `src/config/xds_wire.ts` encodes and decodes them. With a stats scope (a
 * `google_grpc` service's `stat_prefix`), streams are counted as Envoy's gRPC clients count them:
 * `streams_total` and `streams_closed_<status code>`.
 *
 * @example Not run: it connects to a control plane.
 * ```ts ignore
 * import { grpcOpener } from "./grpc_stream.ts";
 * const open = grpcOpener("127.0.0.1", 18000);
 * const s = open(GRPC_METHODS.ads, { onMessage: console.log, onClose: console.log });
 * s.cancel();
 * ```
 * @module
 */
import type * as Grpc from "@grpc/grpc-js";
import { Buffer } from "node:buffer";
import type { OpenStream } from "../config/xds_mux.ts";
import type { Scope } from "../stats/types.ts";

/** How the channel is secured and counted. */
export interface GrpcChannelOptions {
  /**
   * TLS (PEM text). The server's certificate is verified against `rootCerts`, or against the
   * system's roots with `verifyWithoutRoots` (a `google_grpc` channel, as Envoy's); otherwise a
   * context without roots does not verify (an `envoy_grpc` cluster without `trusted_ca`, as in
   * Envoy).
   */
  tls?: {
    rootCerts?: string;
    privateKey?: string;
    certChain?: string;
    serverName?: string;
    verifyWithoutRoots?: boolean;
  };
  /** Where `streams_total` and `streams_closed_<code>` go. */
  scope?: Scope;
}

/** `@grpc/grpc-js`, loaded on first use so a proxy without a control plane never loads it. */
let grpcModule: Promise<typeof Grpc> | null = null;

/** Opens streams to `host:port`; `close()` of the result closes the channel. */
export function grpcOpener(
  host: string,
  port: number,
  ch: GrpcChannelOptions = {},
): OpenStream & { close(): void } {
  return grpcTargetOpener(host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`, ch);
}

const pem = (t: string | undefined) => t === undefined ? null : Buffer.from(t);

/** Opens streams to a gRPC target URI (`host:port`, `dns:///...`, `unix:...`). */
export function grpcTargetOpener(
  target: string,
  ch: GrpcChannelOptions = {},
): OpenStream & { close(): void } {
  let client: Grpc.Client | null = null;
  let closed = false;
  const open: OpenStream = (method, h) => {
    let cancelled = false;
    let done = false;
    let call: Grpc.ClientDuplexStream<Uint8Array, Uint8Array> | null = null;
    const queue: Uint8Array[] = [];
    const end = (why: string) => {
      if (done || cancelled) return;
      done = true;
      h.onClose(why);
    };
    grpcModule ??= import("@grpc/grpc-js");
    grpcModule.then((grpc) => {
      if (cancelled || closed) return;
      const tls = ch.tls;
      client ??= new grpc.Client(
        target,
        tls
          ? grpc.credentials.createSsl(
            pem(tls.rootCerts),
            pem(tls.privateKey),
            pem(tls.certChain),
            {
              rejectUnauthorized: tls.rootCerts !== undefined || tls.verifyWithoutRoots === true,
            },
          )
          : grpc.credentials.createInsecure(),
        {
          "grpc.max_receive_message_length": 256 * 1024 * 1024,
          ...(tls?.serverName
            ? {
              "grpc.ssl_target_name_override": tls.serverName,
              "grpc.default_authority": tls.serverName,
            }
            : {}),
        },
      );
      const c = client.makeBidiStreamRequest(
        method,
        (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength),
        (b: Buffer) => new Uint8Array(b),
      );
      call = c;
      ch.scope?.counter("streams_total").inc();
      c.on("status", (st: Grpc.StatusObject) => {
        ch.scope?.counter(`streams_closed_${st.code}`).inc();
      });
      c.on("data", (b: Uint8Array) => {
        if (!cancelled) h.onMessage(b);
      });
      c.on("error", (e: Error) => end(e.message));
      c.on("end", () => end("the control plane ended the stream"));
      for (const b of queue.splice(0)) c.write(b);
    }, (e) => end(`cannot load @grpc/grpc-js: ${(e as Error).message}`));
    return {
      write: (b) => {
        if (cancelled || done) return;
        if (call) call.write(b);
        else queue.push(b);
      },
      cancel: () => {
        cancelled = true;
        call?.cancel();
      },
    };
  };
  return Object.assign(open, {
    close: () => {
      closed = true;
      client?.close();
      client = null;
    },
  });
}
