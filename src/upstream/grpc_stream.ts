/**
 * gRPC streams to a control plane, for {@linkcode XdsMux}: `@grpc/grpc-js` over HTTP/2 cleartext
 * to the first host of a static cluster (`grpc_services[].envoy_grpc.cluster_name`). Messages
 * pass as bytes; `src/config/xds_wire.ts` encodes and decodes them.
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

/** `@grpc/grpc-js`, loaded on first use so a proxy without a control plane never loads it. */
let grpcModule: Promise<typeof Grpc> | null = null;

/** Opens streams to `host:port`; `close()` of the result closes the channel. */
export function grpcOpener(host: string, port: number): OpenStream & { close(): void } {
  const target = host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
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
      client ??= new grpc.Client(target, grpc.credentials.createInsecure(), {
        "grpc.max_receive_message_length": 256 * 1024 * 1024,
      });
      const c = client.makeBidiStreamRequest(
        method,
        (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength),
        (b: Buffer) => new Uint8Array(b),
      );
      call = c;
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
