/**
 * `deno task xds-server --dir DIR [--port N] [--host H] [--rest-port N] [--tls-cert F --tls-key F]`:
 * a control plane that serves the resources in the YAML/JSON files of a directory over gRPC: ADS
 * (`StreamAggregatedResources`, `DeltaAggregatedResources`) and the per-type services of CDS,
 * EDS, LDS and RDS, state of the world and incremental; and with `--rest-port` over REST too
 * (`POST /v3/discovery:clusters`, `:endpoints`, `:listeners`, `:routes` with a JSON
 * `DiscoveryRequest`; `304` when the requester already has the current version). With a
 * certificate and key, both are served over TLS (gRPC with ALPN `h2`). Load reports (LRS,
 * `StreamLoadStats`) are accepted too: each stream is asked for every cluster (or the `lrs`
 * option's clusters) every `lrs.intervalMs` (default 1 s); the reports are kept in `loadReports`. A file holds one resource (an object
 * with `@type`), a list of them, or an object with `resources:` (a `DiscoveryResponse` as the
 * file-based subscriptions read). Resources are checked and packed with the Envoy descriptor set
 * (`src/config/proto_registry.ts`): a file that does not encode is reported and the previous
 * snapshot stays. A resource may carry `"@unknown_fields": {"<number>": <unsigned>}`: varint
 * fields its type does not have, appended to its encoding (to check a client's
 * `--reject-unknown-dynamic-fields` handling over gRPC; REST answers in JSON, without them). When the directory changes, the snapshot version goes up and every stream gets
 * the new state (SotW: the subscribed resources of each type whose content changed; delta: the
 * changed and removed ones). ACKs and NACKs are logged (`error_detail` included).
 *
 * @example Not run: it listens on a port and watches a directory.
 * ```ts ignore
 * import { startXdsServer } from "./xds_server.ts";
 * const cp = await startXdsServer({ dir: "xds", port: 0 });
 * console.log(cp.port);
 * await cp.close();
 * ```
 * @module
 */
// @ts-types="@types/js-yaml"
import yaml from "js-yaml";
import * as grpc from "@grpc/grpc-js";
import { Buffer } from "node:buffer";
import { join } from "node:path";
import type { JsonObject } from "../src/config/bootstrap_types.ts";
import { type AnyBytes, jsonToAny, typeName } from "../src/config/proto_registry.ts";
import { resourceName } from "../src/config/xds_mux.ts";
import { LRS_METHOD } from "../src/upstream/load_reporter.ts";
import {
  decodeLoadStatsRequest,
  encodeLoadStatsResponse,
} from "../src/config/load_stats_messages.ts";
import {
  decodeDeltaRequest,
  decodeRequest,
  encodeDeltaResponse,
  encodeResponse,
  GRPC_METHODS,
  requestFromJson,
  responseToJson,
  REST_PATHS,
} from "../src/config/xds_wire.ts";

/** One resource of the snapshot. */
interface Entry {
  any: AnyBytes;
  /** A digest of the encoded bytes (the delta version). */
  version: string;
}

/** The resources by type URL, then by name. */
type Snapshot = Map<string, Map<string, Entry>>;

/** What a stream's peer sent back: an ACK or a NACK. */
export interface Reply {
  node: string;
  type_url: string;
  version_info: string;
  nonce: string;
  /** The NACK's `error_detail.message`; absent for an ACK. */
  error?: string;
}

/** A running control plane. */
export interface XdsServer {
  port: number;
  /** The REST port, when `restPort` was given. */
  restPort?: number;
  /** The current snapshot version. */
  version(): number;
  /** Re-reads the directory now; resolves when streams have been sent the change. */
  reload(): Promise<void>;
  /** Every ACK and NACK received, oldest first. */
  replies: Reply[];
  /** Every load report received (`LoadStatsRequest` as proto3 JSON), oldest first. */
  loadReports: JsonObject[];
  close(): Promise<void>;
}

/** Settings of {@linkcode startXdsServer}. */
export interface XdsServerOptions {
  dir: string;
  port?: number;
  host?: string;
  /** Also serve REST on this port (0: any free one). */
  restPort?: number;
  /** Serve over TLS with this certificate chain and key (PEM text). */
  tls?: { cert: string; key: string };
  /** What load reporting streams are asked for (default: every cluster each second). */
  lrs?: { clusters?: string[]; intervalMs?: number };
  /** Watch the directory (default true). */
  watch?: boolean;
  log?: (msg: string) => void;
}

const FULL_TYPE = (t: string) =>
  t.startsWith("type.googleapis.com/") ? t : `type.googleapis.com/${t}`;

function digest(b: Uint8Array): string {
  let h = 0x811c9dc5;
  for (const x of b) h = Math.imul(h ^ x, 16777619) >>> 0;
  return h.toString(16).padStart(8, "0") + b.length.toString(16);
}

/** Reads the directory into a snapshot; throws naming the file and resource that fail. */
export function readSnapshot(dir: string): Snapshot {
  const snap: Snapshot = new Map();
  const files = [...Deno.readDirSync(dir)]
    .filter((e) => e.isFile && /\.(ya?ml|json)$/i.test(e.name))
    .map((e) => e.name)
    .sort();
  for (const f of files) {
    const text = Deno.readTextFileSync(join(dir, f));
    let v: unknown;
    try {
      v = /\.json$/i.test(f) ? JSON.parse(text) : yaml.load(text);
    } catch (e) {
      throw new Error(`${f}: cannot parse: ${(e as Error).message.split("\n")[0]}`);
    }
    if (v === null || v === undefined) continue;
    const list = Array.isArray(v)
      ? v
      : (typeof v === "object" && Array.isArray((v as JsonObject).resources))
      ? (v as { resources: unknown[] }).resources
      : [v];
    list.forEach((r, i) => {
      const at = `${f}: resources[${i}]`;
      if (!r || typeof r !== "object" || typeof (r as JsonObject)["@type"] !== "string") {
        throw new Error(`${at}: a resource must be an object with "@type"`);
      }
      const { "@unknown_fields": unknown, ...fields } = r as JsonObject;
      const json = { ...fields, "@type": FULL_TYPE(String(fields["@type"])) };
      let any: AnyBytes;
      try {
        any = jsonToAny(json);
        if (unknown !== undefined) any = { ...any, value: withUnknownFields(any.value, unknown) };
      } catch (e) {
        throw new Error(`${at}: ${(e as Error).message}`);
      }
      const name = resourceName(r as JsonObject);
      if (!name) throw new Error(`${at}: the resource has no name`);
      const byName = snap.get(any.type_url) ?? new Map<string, Entry>();
      snap.set(any.type_url, byName);
      byName.set(name, { any, version: digest(any.value) });
    });
  }
  return snap;
}

/** Appends a base-128 varint. */
function varint(out: number[], n: number): void {
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
}

/**
 * Appends to an encoded message the fields of `spec` (`"@unknown_fields": {"999": 1}`: field
 * number to an unsigned integer value, sent as varints) that its type does not have, so clients'
 * handling of unknown dynamic fields can be checked. Throws naming a bad entry.
 */
function withUnknownFields(value: Uint8Array, spec: unknown): Uint8Array {
  if (!spec || typeof spec !== "object" || Array.isArray(spec)) {
    throw new Error(`"@unknown_fields" must map field numbers to unsigned integers`);
  }
  const out = [...value];
  for (const [k, v] of Object.entries(spec)) {
    const no = Number(k);
    if (!Number.isInteger(no) || no < 1 || no > 0x1fffffff) {
      throw new Error(`"@unknown_fields".${k}: not a field number (1 to 536870911)`);
    }
    if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0) {
      throw new Error(`"@unknown_fields".${k}: the value must be an unsigned integer`);
    }
    varint(out, no * 8); // wire type 0: varint
    varint(out, v);
  }
  return new Uint8Array(out);
}

type Call = grpc.ServerDuplexStream<Uint8Array, Uint8Array>;

/** A stream's state per type URL. */
interface Watch {
  wildcard: boolean;
  names: Set<string>;
  /** SotW: the version and names last sent; delta: what the peer has, by name. */
  sentVersion: number;
  sent: Map<string, string>;
}

/** One client stream. */
class Stream {
  readonly watches = new Map<string, Watch>();
  node = "";
  #nonce = 0;

  constructor(readonly call: Call, readonly delta: boolean, readonly server: Control) {}

  nonce(): string {
    return String(++this.#nonce);
  }

  /** Sends `typeUrl` if it changed for this stream since it was last sent. */
  push(typeUrl: string, force = false) {
    const w = this.watches.get(typeUrl);
    if (!w) return;
    const all = this.server.snapshot.get(typeUrl) ?? new Map<string, Entry>();
    const wanted = [...all].filter(([n]) => w.wildcard || w.names.has(n));
    if (this.delta) {
      const changed = wanted.filter(([n, e]) => w.sent.get(n) !== e.version);
      const removed = [...w.sent.keys()].filter((n) => !wanted.some(([m]) => m === n));
      if (!force && changed.length === 0 && removed.length === 0) return;
      for (const [n, e] of changed) w.sent.set(n, e.version);
      for (const n of removed) w.sent.delete(n);
      this.call.write(encodeDeltaResponse({
        system_version_info: String(this.server.version),
        resources: changed.map(([n, e]) => ({ name: n, version: e.version, resource: e.any })),
        type_url: typeUrl,
        removed_resources: removed,
        nonce: this.nonce(),
      }));
      return;
    }
    const key = wanted.map(([n, e]) => `${n}:${e.version}`).join(",");
    if (!force && w.sent.get("") === key) return;
    w.sent.set("", key);
    w.sentVersion = this.server.version;
    this.call.write(encodeResponse({
      version_info: String(this.server.version),
      resources: wanted.map(([, e]) => e.any),
      type_url: typeUrl,
      nonce: this.nonce(),
    }));
  }
}

/** The state shared by every stream. */
class Control {
  snapshot: Snapshot = new Map();
  version = 0;
  readonly streams = new Set<Stream>();
  readonly replies: Reply[] = [];
  constructor(readonly log: (msg: string) => void) {}

  set(s: Snapshot) {
    const key = (x: Snapshot) =>
      JSON.stringify(
        [...x].sort().map(([t, m]) => [t, [...m].sort().map(([n, e]) => [n, e.version])]),
      );
    if (this.version > 0 && key(s) === key(this.snapshot)) return;
    this.snapshot = s;
    this.version++;
    this.log(
      `snapshot version ${this.version}: ${
        [...s].map(([t, m]) => `${m.size} ${typeName(t)}`).join(", ") || "empty"
      }`,
    );
    for (const st of this.streams) for (const t of st.watches.keys()) st.push(t);
  }

  /** Records and logs an ACK or NACK. */
  reply(node: string, type: string, version: string, nonce: string, error?: string) {
    this.replies.push({ node, type_url: type, version_info: version, nonce, error });
    this.log(
      error !== undefined
        ? `NACK from ${node} for ${typeName(type)}: ${error}`
        : `ACK from ${node} for ${typeName(type)}${version ? ` version ${version}` : ""}`,
    );
  }

  /** Answers one REST poll (`type` from the path). */
  async rest(req: Request, type: string): Promise<Response> {
    let r;
    try {
      r = requestFromJson(await req.json());
    } catch (e) {
      this.log(`malformed REST DiscoveryRequest: ${(e as Error).message}`);
      return new Response(`malformed DiscoveryRequest: ${(e as Error).message}\n`, { status: 400 });
    }
    if (r.type_url && r.type_url !== type) {
      return new Response(`type_url ${r.type_url} on the path for ${type}\n`, { status: 400 });
    }
    const node = String(r.node?.id ?? "");
    if (r.response_nonce) {
      this.reply(node, type, r.version_info, r.response_nonce, r.error_detail?.message);
    }
    const current = String(this.version);
    if (r.version_info === current && !r.error_detail) return new Response(null, { status: 304 });
    const names = new Set(r.resource_names);
    const all = this.snapshot.get(type) ?? new Map<string, Entry>();
    const wanted = [...all].filter(([n]) => names.size === 0 || names.has("*") || names.has(n));
    return Response.json(responseToJson({
      version_info: current,
      resources: wanted.map(([, e]) => e.any),
      type_url: type,
      nonce: String(++this.#restNonce),
    }));
  }
  #restNonce = 0;

  sotw(call: Call, onlyType?: string) {
    const st = new Stream(call, false, this);
    this.streams.add(st);
    call.on("data", (b: Uint8Array) => {
      let r;
      try {
        r = decodeRequest(b);
      } catch (e) {
        this.log(`malformed DiscoveryRequest: ${(e as Error).message}`);
        call.end();
        return;
      }
      if (r.node?.id) st.node = String(r.node.id);
      const type = r.type_url || onlyType || "";
      let w = st.watches.get(type);
      const names = new Set(r.resource_names);
      const wildcard = names.size === 0 || names.has("*");
      if (r.response_nonce) {
        this.reply(st.node, type, r.version_info, r.response_nonce, r.error_detail?.message);
      }
      const same = w && w.wildcard === wildcard &&
        [...names].sort().join(",") === [...w.names].sort().join(",");
      if (!w) {
        w = { wildcard, names, sentVersion: 0, sent: new Map() };
        st.watches.set(type, w);
      } else {
        w.wildcard = wildcard;
        w.names = names;
      }
      // A new subscription, or changed names: send; an ACK or NACK of the current state: wait.
      if (!same || !r.response_nonce) st.push(type, true);
    });
    const end = () => this.streams.delete(st);
    call.on("end", () => {
      end();
      call.end();
    });
    call.on("error", end);
    call.on("cancelled", end);
  }

  delta(call: Call, onlyType?: string) {
    const st = new Stream(call, true, this);
    this.streams.add(st);
    call.on("data", (b: Uint8Array) => {
      let r;
      try {
        r = decodeDeltaRequest(b);
      } catch (e) {
        this.log(`malformed DeltaDiscoveryRequest: ${(e as Error).message}`);
        call.end();
        return;
      }
      if (r.node?.id) st.node = String(r.node.id);
      const type = r.type_url || onlyType || "";
      let w = st.watches.get(type);
      const fresh = !w;
      if (!w) {
        w = { wildcard: false, names: new Set(), sentVersion: 0, sent: new Map() };
        st.watches.set(type, w);
        for (const [n, v] of Object.entries(r.initial_resource_versions)) w.sent.set(n, v);
      }
      for (const n of r.resource_names_subscribe) {
        if (n === "*") w.wildcard = true;
        else w.names.add(n);
      }
      for (const n of r.resource_names_unsubscribe) {
        if (n === "*") w.wildcard = false;
        else {
          w.names.delete(n);
          w.sent.delete(n);
        }
      }
      if (fresh && r.resource_names_subscribe.length === 0) w.wildcard = true;
      if (r.response_nonce) {
        this.reply(st.node, type, "", r.response_nonce, r.error_detail?.message);
      }
      st.push(type, fresh);
    });
    const end = () => this.streams.delete(st);
    call.on("end", () => {
      end();
      call.end();
    });
    call.on("error", end);
    call.on("cancelled", end);
  }
}

const bytes = {
  requestStream: true,
  responseStream: true,
  requestSerialize: (b: Uint8Array) => Buffer.from(b),
  requestDeserialize: (b: Buffer) => new Uint8Array(b),
  responseSerialize: (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength),
  responseDeserialize: (b: Buffer) => new Uint8Array(b),
};

const TYPE_OF: Record<string, string> = {
  cds: "type.googleapis.com/envoy.config.cluster.v3.Cluster",
  eds: "type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment",
  lds: "type.googleapis.com/envoy.config.listener.v3.Listener",
  rds: "type.googleapis.com/envoy.config.route.v3.RouteConfiguration",
};

/** A TLS listener on `host:port` that pipes each connection to the cleartext `to` port. */
function tlsFront(tls: { cert: string; key: string }, host: string, port: number, to: number) {
  const l = Deno.listenTls({ hostname: host, port, ...tls, alpnProtocols: ["h2"] });
  const conns = new Set<Deno.Conn>();
  (async () => {
    for await (const c of l) {
      conns.add(c);
      (async () => {
        let u: Deno.Conn | null = null;
        try {
          await c.handshake();
          u = await Deno.connect({ hostname: "127.0.0.1", port: to });
          conns.add(u);
          await Promise.all([c.readable.pipeTo(u.writable), u.readable.pipeTo(c.writable)]);
        } catch { /* a peer went away */ }
        for (const x of [c, u]) {
          if (!x) continue;
          conns.delete(x);
          try {
            x.close();
          } catch { /* closed */ }
        }
      })();
    }
  })().catch(() => {});
  return {
    port: (l.addr as Deno.NetAddr).port,
    close() {
      l.close();
      for (const c of conns) {
        try {
          c.close();
        } catch { /* closed */ }
      }
    },
  };
}

/** Starts a control plane over `opts.dir`; throws when the directory's files do not encode. */
export async function startXdsServer(opts: XdsServerOptions): Promise<XdsServer> {
  const log = opts.log ?? ((m: string) => console.log(`[xds-server] ${m}`));
  const control = new Control(log);
  control.set(readSnapshot(opts.dir));
  const server = new grpc.Server({ "grpc.max_send_message_length": 256 * 1024 * 1024 });
  const defs: Record<string, grpc.MethodDefinition<unknown, unknown>> = {};
  const impl: grpc.UntypedServiceImplementation = {};
  for (const [key, path] of Object.entries(GRPC_METHODS)) {
    const delta = key.endsWith("Delta");
    const short = delta ? key.slice(0, -5) : key;
    const only = TYPE_OF[short];
    defs[key] = { ...bytes, path, originalName: key } as grpc.MethodDefinition<unknown, unknown>;
    impl[key] = ((call: Call) =>
      delta
        ? control.delta(call, only)
        : control.sotw(call, only)) as grpc.handleBidiStreamingCall<
        unknown,
        unknown
      >;
  }
  defs.lrs = { ...bytes, path: LRS_METHOD, originalName: "lrs" } as grpc.MethodDefinition<
    unknown,
    unknown
  >;
  const loadReports: JsonObject[] = [];
  impl.lrs = ((call: Call) => {
    let asked = false;
    call.on("data", (b: Uint8Array) => {
      let r: JsonObject;
      try {
        r = decodeLoadStatsRequest(b);
      } catch (e) {
        log(`malformed LoadStatsRequest: ${(e as Error).message}`);
        call.end();
        return;
      }
      if (Array.isArray(r.cluster_stats) && r.cluster_stats.length > 0) loadReports.push(r);
      if (asked) return;
      asked = true;
      const clusters = opts.lrs?.clusters;
      call.write(encodeLoadStatsResponse({
        ...(clusters ? { clusters } : { send_all_clusters: true }),
        load_reporting_interval: `${(opts.lrs?.intervalMs ?? 1000) / 1000}s`,
      }));
    });
    call.on("end", () => call.end());
  }) as grpc.handleBidiStreamingCall<unknown, unknown>;
  server.addService(defs as grpc.ServiceDefinition, impl);
  const host = opts.host ?? "127.0.0.1";
  const bracket = (h: string) => h.includes(":") ? `[${h}]` : h;
  // With TLS, gRPC listens on loopback in cleartext behind a TLS front (ALPN h2) that pipes
  // bytes to it: the runtime's node:http2 secure server does not complete handshakes.
  const grpcPort = await new Promise<number>((resolve, reject) =>
    server.bindAsync(
      opts.tls ? "127.0.0.1:0" : `${bracket(host)}:${opts.port ?? 18000}`,
      grpc.ServerCredentials.createInsecure(),
      (err, p) => err ? reject(err) : resolve(p),
    )
  );
  const front = opts.tls ? tlsFront(opts.tls, host, opts.port ?? 18000, grpcPort) : null;
  const port = front?.port ?? grpcPort;
  let rest: Deno.HttpServer<Deno.NetAddr> | null = null;
  if (opts.restPort !== undefined) {
    const byPath = new Map(Object.entries(REST_PATHS).map(([t, p]) => [p, t]));
    rest = Deno.serve({
      hostname: host,
      port: opts.restPort,
      onListen() {},
      ...(opts.tls ?? {}),
    }, (req) => {
      const type = byPath.get(new URL(req.url).pathname);
      if (!type) return new Response("not found\n", { status: 404 });
      if (req.method !== "POST") return new Response("POST only\n", { status: 405 });
      return control.rest(req, type);
    });
  }
  const reload = () => {
    try {
      control.set(readSnapshot(opts.dir));
    } catch (e) {
      log(`keeping snapshot version ${control.version}: ${(e as Error).message}`);
    }
    return Promise.resolve();
  };
  let watcher: Deno.FsWatcher | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (opts.watch !== false) {
    watcher = Deno.watchFs(opts.dir, { recursive: false });
    (async () => {
      try {
        for await (const _ of watcher!) {
          clearTimeout(timer);
          timer = setTimeout(() => void reload(), 100);
        }
      } catch { /* closed */ }
    })();
  }
  log(
    `serving ${opts.dir} on ${host}:${port}${opts.tls ? " (TLS)" : ""}` +
      (rest ? `, REST on ${host}:${rest.addr.port}` : ""),
  );
  return {
    port,
    restPort: rest?.addr.port,
    version: () => control.version,
    reload,
    replies: control.replies,
    loadReports,
    close: async () => {
      clearTimeout(timer);
      watcher?.close();
      for (const s of control.streams) s.call.end();
      front?.close();
      await rest?.shutdown();
      await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
      server.forceShutdown();
    },
  };
}

if (import.meta.main) {
  const args = Deno.args;
  const arg = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const dir = arg("--dir");
  if (!dir) {
    console.error(
      "usage: deno task xds-server --dir DIR [--port N] [--host H] [--rest-port N] " +
        "[--tls-cert FILE --tls-key FILE]",
    );
    Deno.exit(2);
  }
  try {
    const cert = arg("--tls-cert");
    const key = arg("--tls-key");
    if ((cert === undefined) !== (key === undefined)) {
      throw new Error("--tls-cert and --tls-key go together");
    }
    const rest = arg("--rest-port");
    await startXdsServer({
      dir,
      port: Number(arg("--port") ?? 18000),
      host: arg("--host"),
      restPort: rest === undefined ? undefined : Number(rest),
      tls: cert && key
        ? { cert: Deno.readTextFileSync(cert), key: Deno.readTextFileSync(key) }
        : undefined,
    });
  } catch (e) {
    console.error(`xds-server: ${(e as Error).message}`);
    Deno.exit(1);
  }
}
