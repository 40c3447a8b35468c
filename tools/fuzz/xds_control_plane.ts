/**
 * The control plane of the `xds` fuzz target: one gRPC ADS service (state of the world, or with
 * `delta` incremental) on loopback that pushes whatever `Any` resources it is handed, byte for
 * byte, and reports the
 * proxy's answer to that push (its ACK, or its NACK with `error_detail`). Requests that subscribe
 * to endpoint or route names it has not answered yet get a plain default resource for each name
 * (an empty `ClusterLoadAssignment`, a `RouteConfiguration` with no virtual hosts), so clusters
 * and listeners an accepted push brings finish warming at once instead of waiting for their
 * initial fetch timeout.
 *
 * @example Not run: it listens on a port.
 * ```ts ignore
 * import { startFuzzControlPlane } from "./xds_control_plane.ts";
 * const cp = await startFuzzControlPlane();
 * const reply = await cp.push(TYPE_URLS.cds, [jsonToAny(cluster)], "1");
 * console.log(reply.error ?? "ACK");
 * await cp.close();
 * ```
 * @module
 */
import * as grpc from "@grpc/grpc-js";
import { Buffer } from "node:buffer";
import { type AnyBytes, jsonToAny } from "../../src/config/proto_registry.ts";
import {
  decodeDeltaRequest,
  decodeRequest,
  encodeDeltaResponse,
  encodeResponse,
  GRPC_METHODS,
  TYPE_URLS,
} from "../../src/config/xds_wire.ts";

/** What the proxy answered to one push. */
export interface PushReply {
  /** The NACK's `error_detail.message`; absent for an ACK. */
  error?: string;
  /** The version the proxy reports after the answer. */
  version_info: string;
}

/** A running fuzz control plane. */
export interface FuzzControlPlane {
  port: number;
  /** Resolves once the proxy has subscribed to `typeUrl` (its first request arrived). */
  subscribed(typeUrl: string): Promise<void>;
  /**
   * Pushes `resources` as the state of `typeUrl` at `version` (incremental: as the resources
   * `names`, and `removed` gone); resolves with the proxy's answer to that response (null when
   * none came within `timeoutMs`).
   */
  push(
    typeUrl: string,
    resources: AnyBytes[],
    version: string,
    delta?: { names: string[]; removed: string[] },
    timeoutMs?: number,
  ): Promise<PushReply | null>;
  /** Resolves when every default answer sent so far has been answered by the proxy. */
  settled(timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
}

type Call = grpc.ServerDuplexStream<Uint8Array, Uint8Array>;

const bytes = {
  requestStream: true,
  responseStream: true,
  requestSerialize: (b: Uint8Array) => Buffer.from(b),
  requestDeserialize: (b: Buffer) => new Uint8Array(b),
  responseSerialize: (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength),
  responseDeserialize: (b: Buffer) => new Uint8Array(b),
};

/** The default resource of a name, for the types the proxy subscribes to by name. */
function defaultResource(typeUrl: string, name: string): AnyBytes | null {
  if (typeUrl === TYPE_URLS.eds) {
    return jsonToAny({ "@type": typeUrl, cluster_name: name, endpoints: [] });
  }
  if (typeUrl === TYPE_URLS.rds) return jsonToAny({ "@type": typeUrl, name });
  return null;
}

/** What the control plane needs of a request, either kind. */
interface Request {
  type_url: string;
  response_nonce: string;
  error?: string;
  version_info: string;
  /** SotW: every name asked for; incremental: the names newly subscribed. */
  names: string[];
}

/** Starts the control plane on a free loopback port (incremental xDS with `delta`). */
export async function startFuzzControlPlane(delta = false): Promise<FuzzControlPlane> {
  let call: Call | null = null;
  let nonce = 0;
  const waiting = new Map<string, (r: PushReply) => void>();
  const outstanding = new Set<string>();
  const lastNames = new Map<string, string>();
  const subscribedTypes = new Map<string, () => void>();
  const subscribedPromises = new Map<string, Promise<void>>();
  const subscribed = (t: string) => {
    let p = subscribedPromises.get(t);
    if (!p) {
      p = new Promise<void>((resolve) => subscribedTypes.set(t, resolve));
      subscribedPromises.set(t, p);
    }
    return p;
  };
  const send = (
    typeUrl: string,
    resources: AnyBytes[],
    version: string,
    names: string[] = [],
    removed: string[] = [],
  ): string => {
    const n = String(++nonce);
    call?.write(
      delta
        ? encodeDeltaResponse({
          system_version_info: version,
          resources: resources.map((resource, i) => ({
            name: names[i] ?? "",
            version: `${version}.${i}`,
            resource,
          })),
          type_url: typeUrl,
          removed_resources: removed,
          nonce: n,
        })
        : encodeResponse({ version_info: version, resources, type_url: typeUrl, nonce: n }),
    );
    return n;
  };
  const decode = (b: Uint8Array): Request => {
    if (!delta) {
      const r = decodeRequest(b);
      return { ...r, error: r.error_detail?.message, names: r.resource_names };
    }
    const r = decodeDeltaRequest(b);
    return {
      type_url: r.type_url,
      response_nonce: r.response_nonce,
      error: r.error_detail?.message,
      version_info: "",
      names: r.resource_names_subscribe.filter((n) => n !== "*"),
    };
  };
  const onRequest = (r: Request) => {
    void subscribed(r.type_url);
    subscribedTypes.get(r.type_url)?.();
    outstanding.delete(r.response_nonce);
    const w = waiting.get(r.response_nonce);
    if (w) {
      waiting.delete(r.response_nonce);
      w({ error: r.error, version_info: r.version_info });
    }
    const names = [...r.names].sort().join("\n");
    if (r.names.length === 0 || (!delta && lastNames.get(r.type_url) === names)) return;
    lastNames.set(r.type_url, names);
    const asked = r.names.filter((n) => defaultResource(r.type_url, n) !== null);
    if (asked.length === 0) return;
    const defaults = asked.map((n) => defaultResource(r.type_url, n)!);
    outstanding.add(send(r.type_url, defaults, `default-${nonce + 1}`, asked));
  };
  const server = new grpc.Server();
  const ads = ((c: Call) => {
    call = c;
    c.on("data", (b: Uint8Array) => {
      try {
        onRequest(decode(b));
      } catch {
        c.end();
      }
    });
    const end = () => {
      if (call === c) call = null;
    };
    c.on("end", () => {
      end();
      c.end();
    });
    c.on("error", end);
    c.on("cancelled", end);
  }) as grpc.handleBidiStreamingCall<unknown, unknown>;
  server.addService(
    {
      ads: {
        ...bytes,
        path: delta ? GRPC_METHODS.adsDelta : GRPC_METHODS.ads,
        originalName: "ads",
      },
    } as grpc.ServiceDefinition,
    { ads },
  );
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(
      "127.0.0.1:0",
      grpc.ServerCredentials.createInsecure(),
      (err, p) => err ? reject(err) : resolve(p),
    )
  );
  return {
    port,
    subscribed,
    push(typeUrl, resources, version, d, timeoutMs = 5000) {
      return new Promise((resolve) => {
        const n = send(typeUrl, resources, version, d?.names, d?.removed);
        const timer = setTimeout(() => {
          waiting.delete(n);
          resolve(null);
        }, timeoutMs);
        waiting.set(n, (r) => {
          clearTimeout(timer);
          resolve(r);
        });
      });
    },
    async settled(timeoutMs = 2000) {
      const end = Date.now() + timeoutMs;
      while (outstanding.size > 0) {
        if (Date.now() > end) return false;
        await new Promise((r) => setTimeout(r, 2));
      }
      return true;
    },
    async close() {
      (call as Call | null)?.end();
      await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
      server.forceShutdown();
    },
  };
}
