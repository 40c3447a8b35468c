/**
 * Upstream HTTP/2 with prior knowledge (plain text or TLS) through `node:http2` client sessions:
 * one session per host and priority, opened lazily, counted as a connection, replaced after
 * `max_requests_per_connection` streams. Streams are limited by the cluster's `max_requests`.
 *
 * @example Not run: it needs an upstream server to connect to (`pool`, HTTP/2).
 * ```ts ignore
 * const r = await pool.request([[":method", "GET"], [":path", "/"]], null);
 * ```
 * @module
 */
import { bindOptions, clientCert } from "./transport.ts";
import http2 from "node:http2";
import type { EffectiveCluster } from "../config/effective_cluster.ts";
import type { CircuitBreaker } from "./circuit_breaker.ts";
import type { ClusterStats } from "./cluster_stats.ts";
import type { Host } from "./host.ts";
import { ConnectError } from "./transport.ts";

/** One open session and its stream count. */
interface Session {
  s: http2.ClientHttp2Session;
  streams: number;
  openedAt: number;
  ready: Promise<void>;
  dead: boolean;
}

/** An HTTP/2 response head and body. */
export interface H2Response {
  status: number;
  headers: [string, string][];
  body: ReadableStream<Uint8Array> | null;
  stream: http2.ClientHttp2Stream;
}

/** HTTP/2 sessions of one host. */
export class Http2Pool {
  #cur: Session | null = null;
  #all = new Set<Session>();
  #closed = false;

  /** Creates the pool of `host`. */
  constructor(
    readonly cluster: EffectiveCluster,
    readonly host: Host,
    readonly stats: ClusterStats,
    readonly cb: CircuitBreaker,
  ) {}

  #open(): Session {
    const s = this.stats;
    const hs = this.host.stats;
    const tls = this.cluster.tls;
    const url = `${tls ? "https" : "http"}://${this.host.key}`;
    // localAddress/localPort reach the socket (checked on Deno 2.9.1); the typings omit them.
    const sess = http2.connect(url, {
      ...(tls
        ? {
          ca: tls.trustedCa?.length ? tls.trustedCa : undefined,
          rejectUnauthorized: !!tls.trustedCa?.length,
          servername: tls.sni || undefined,
          ALPNProtocols: tls.alpn?.length ? tls.alpn : ["h2"],
          ...clientCert(tls) ?? {},
        }
        : {}),
      ...bindOptions(this.cluster.upstreamBind),
      ...h2SettingsOptions(this.cluster.http2Settings),
    } as http2.SecureClientSessionOptions);
    const t0 = performance.now();
    const rec: Session = {
      s: sess,
      streams: 0,
      openedAt: t0,
      ready: Promise.resolve(),
      dead: false,
    };
    this.#all.add(rec);
    this.cb.connections.inc();
    s.cx_total.inc();
    s.cx_http2_total.inc();
    s.cx_active.inc();
    hs.cx_total.inc();
    hs.cx_active.inc();
    let connected = false;
    rec.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        s.cx_connect_timeout.inc();
        sess.destroy();
        reject(new ConnectError("timeout", "connect timeout"));
      }, this.cluster.connectTimeoutMs);
      sess.once("connect", () => {
        clearTimeout(timer);
        const cw = this.cluster.http2Settings?.initialConnectionWindowSize;
        if (cw !== undefined) sess.setLocalWindowSize(cw);
        connected = true;
        s.cx_connect_ms.record(performance.now() - t0);
        resolve();
      });
      sess.once("error", (e: Error) => {
        clearTimeout(timer);
        if (!connected) reject(new ConnectError("failure", e.message));
      });
      sess.once("close", () => {
        clearTimeout(timer);
        if (!connected) reject(new ConnectError("failure", "connection closed"));
      });
    });
    rec.ready.catch(() => {
      s.cx_connect_fail.inc();
      hs.cx_connect_fail.inc();
    });
    sess.on("error", () => {});
    sess.once("close", () => this.#gone(rec));
    return rec;
  }

  #gone(rec: Session) {
    if (!this.#all.delete(rec)) return;
    rec.dead = true;
    if (this.#cur === rec) this.#cur = null;
    const s = this.stats;
    s.cx_active.dec();
    this.host.stats.cx_active.dec();
    s.cx_destroy.inc();
    s.cx_length_ms.record(performance.now() - rec.openedAt);
    this.cb.connections.dec();
  }

  /** Opens a stream and resolves with the response head; rejects on connect failure or reset. */
  async request(
    headers: Record<string, string | string[]>,
    body: ReadableStream<Uint8Array> | null,
    onStream: (st: http2.ClientHttp2Stream) => void,
  ): Promise<H2Response> {
    if (this.#closed) throw new ConnectError("failure", "pool closed");
    let rec = this.#cur;
    if (!rec || rec.dead || rec.s.closed || rec.s.destroyed) {
      if (!this.cb.connections.canCreate() && this.#all.size > 0) {
        this.stats.cx_overflow.inc();
      }
      rec = this.#cur = this.#open();
    }
    rec.streams++;
    const max = this.cluster.maxRequestsPerConnection;
    if (max > 0 && rec.streams >= max) {
      this.#cur = null;
      this.stats.cx_max_requests.inc();
    }
    const current = rec;
    await current.ready;
    const st = current.s.request(headers, { endStream: body === null });
    onStream(st);
    if (max > 0 && current.streams >= max) st.once("close", () => current.s.close());
    if (body) pump(body, st);
    const resHeaders = await new Promise<http2.IncomingHttpHeaders>((resolve, reject) => {
      st.once("response", resolve);
      st.once("error", reject);
      st.once("close", () => reject(new Error("stream reset before headers")));
    });
    const status = Number(resHeaders[":status"]);
    const list: [string, string][] = [];
    for (const [k, v] of Object.entries(resHeaders)) {
      if (k.startsWith(":") || v === undefined) continue;
      if (Array.isArray(v)) { for (const x of v) list.push([k, x]); }
      else list.push([k, String(v)]);
    }
    return { status, headers: list, body: toWeb(st), stream: st };
  }

  /** Closes every session. */
  close(): void {
    this.#closed = true;
    for (const r of [...this.#all]) {
      r.s.destroy();
      this.#gone(r);
    }
  }
}

async function pump(body: ReadableStream<Uint8Array>, st: http2.ClientHttp2Stream) {
  const rd = body.getReader();
  try {
    for (;;) {
      const { done, value } = await rd.read();
      if (done) break;
      if (!st.write(value)) await new Promise((r) => st.once("drain", r));
    }
    st.end();
  } catch {
    st.close(http2.constants.NGHTTP2_CANCEL);
  }
}

function toWeb(st: http2.ClientHttp2Stream): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(ctrl) {
      const end = () => {
        try {
          ctrl.close();
        } catch { /* already closed */ }
      };
      // A headers-only response (END_STREAM on HEADERS) may have ended before this body was
      // made; a stream that closes after a reset without an end errors the body.
      if (st.readableEnded) return end();
      st.on("data", (d: Uint8Array) => {
        ctrl.enqueue(new Uint8Array(d.buffer, d.byteOffset, d.byteLength));
        if ((ctrl.desiredSize ?? 0) <= 0) st.pause();
      });
      st.once("end", end);
      st.once("close", () => {
        if (st.readableEnded) return end();
        if (st.rstCode === http2.constants.NGHTTP2_NO_ERROR) return;
        try {
          ctrl.error(new Error(`stream reset (code ${st.rstCode})`));
        } catch { /* already closed */ }
      });
      st.once("error", (e: Error) => {
        try {
          ctrl.error(e);
        } catch { /* already closed */ }
      });
    },
    pull() {
      st.resume();
    },
    cancel() {
      st.close(http2.constants.NGHTTP2_CANCEL);
    },
  }, { highWaterMark: 4 });
}

/**
 * The `node:http2` options for the SETTINGS of `http2_protocol_options`: the initial stream
 * window and the HPACK table size (the connection window is set once connected).
 */
export function h2SettingsOptions(
  s: EffectiveCluster["http2Settings"],
): { settings?: http2.Settings } {
  if (s === undefined) return {};
  const settings: http2.Settings = {};
  if (s.initialStreamWindowSize !== undefined) {
    settings.initialWindowSize = s.initialStreamWindowSize;
  }
  if (s.hpackTableSize !== undefined) settings.headerTableSize = s.hpackTableSize;
  return Object.keys(settings).length === 0 ? {} : { settings };
}
