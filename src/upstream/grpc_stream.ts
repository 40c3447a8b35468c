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
import * as grpc from "@grpc/grpc-js";
import { Buffer } from "node:buffer";
import type { OpenStream } from "../config/xds_mux.ts";

/** Opens streams to `host:port`; `close()` of the result closes the channel. */
export function grpcOpener(host: string, port: number): OpenStream & { close(): void } {
  const target = host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
  let client: grpc.Client | null = null;
  const open: OpenStream = (method, h) => {
    client ??= new grpc.Client(target, grpc.credentials.createInsecure(), {
      "grpc.max_receive_message_length": 256 * 1024 * 1024,
    });
    const call = client.makeBidiStreamRequest(
      method,
      (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength),
      (b: Buffer) => new Uint8Array(b),
    );
    let cancelled = false;
    let done = false;
    const end = (why: string) => {
      if (done || cancelled) return;
      done = true;
      h.onClose(why);
    };
    call.on("data", (b: Uint8Array) => {
      if (!cancelled) h.onMessage(b);
    });
    call.on("error", (e: Error) => end(e.message));
    call.on("end", () => end("the control plane ended the stream"));
    return {
      write: (b) => {
        if (!cancelled && !done) call.write(b);
      },
      cancel: () => {
        cancelled = true;
        call.cancel();
      },
    };
  };
  return Object.assign(open, {
    close: () => {
      client?.close();
      client = null;
    },
  });
}
