/**
 * Load reporting (LRS, `cluster_manager.load_stats_config`): a stream to
 * `envoy.service.load_stats.v3.LoadReportingService/StreamLoadStats` that opens with the node,
 * then follows what the server answers: the clusters to report on (`clusters`, or every cluster
 * with `send_all_clusters`) and how often (`load_reporting_interval`). Each report carries, per
 * cluster and per locality (region, zone, sub-zone, priority), the upstream requests since the
 * previous report as Envoy counts them: `total_issued_requests`, `total_successful_requests`,
 * `total_error_requests`, and `total_requests_in_progress` now; with the cluster's
 * `load_report_interval` (the time since its previous report). Endpoint granularity
 * (`report_endpoint_granularity`) is not reported. A broken stream is opened again with back-off
 * (1 s doubling to 30 s); counts keep accumulating meanwhile. With workers, the counts of every
 * worker are gathered before each report (`refresh`).
 *
 * @example Not run: it needs a stream to a load reporting server.
 * ```ts ignore
 * import { LoadReporter } from "./load_reporter.ts";
 * const r = new LoadReporter(openStream, { node: { id: "n" }, clusters: () => cm.list() });
 * r.start();
 * r.close();
 * ```
 * @module
 */
import { PROTOBUF } from "../config/protobuf_module.ts";
import type { JsonObject } from "../config/bootstrap_types.ts";
import type { OpenStream, XdsStream } from "../config/xds_mux.ts";
import { formatDuration, parseDuration } from "../config/values.ts";
import type { Host } from "./host.ts";

/** The gRPC method of load reporting. */
export const LRS_METHOD = "/envoy.service.load_stats.v3.LoadReportingService/StreamLoadStats";

/** What a report needs of a cluster. */
export interface ReportedCluster {
  name: string;
  /** `eds_cluster_config.service_name`, when set. */
  serviceName?: string;
  hosts(): readonly Host[];
}

/** Settings of a {@linkcode LoadReporter}. */
export interface LoadReporterDeps {
  /** `config.core.v3.Node` (proto3 JSON), on every request unless `nodeFirstOnly`. */
  node: JsonObject;
  /** `set_node_on_first_message_only`: the node on a stream's first request only. */
  nodeFirstOnly?: boolean;
  /** The clusters now. */
  clusters: () => Iterable<ReportedCluster>;
  /**
   * Brings the hosts' counts up to date before they are read (with workers: the main thread
   * gathers what every worker counted since the last gathering).
   */
  refresh?: () => Promise<void>;
  log?: (level: string, msg: string) => void;
}

/** Counts of a host at the previous report. */
interface Seen {
  total: number;
  success: number;
  error: number;
}

/** The client side of load reporting; see the module documentation. */
export class LoadReporter {
  #stream: XdsStream | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #retry: ReturnType<typeof setTimeout> | undefined;
  #backoff = 1000;
  #closed = false;
  #intervalMs = 0;
  #all = false;
  #names: string[] = [];
  /** Per cluster: the host counts at its previous report and when that was. */
  readonly #last = new Map<string, { at: number; hosts: Map<string, Seen> }>();
  /** Settles once the counts at the stream's start are marked. */
  #marked: Promise<void> = Promise.resolve();

  /** Nothing connects until {@linkcode LoadReporter.start}. */
  constructor(readonly open: OpenStream, readonly deps: LoadReporterDeps) {}

  /** Opens the stream. */
  start() {
    if (this.#stream || this.#closed) return;
    if (!PROTOBUF.loaded) {
      // The start-up loads the runtime for a configuration with load reporting; a reporter
      // built some other way loads it here and starts once it is there.
      PROTOBUF.load().then(
        () => this.start(),
        (e) => this.#log("error", `cannot load the protobuf runtime: ${(e as Error).message}`),
      );
      return;
    }
    const stream = this.open(LRS_METHOD, {
      onMessage: (b) => {
        if (this.#stream !== stream) return;
        this.#backoff = 1000;
        try {
          this.#onResponse(PROTOBUF.get().decodeLoadStatsResponse(b));
        } catch (e) {
          this.#log("warning", `malformed LoadStatsResponse: ${(e as Error).message}`);
          stream.cancel();
          this.#broken(stream, "malformed response");
        }
      },
      onClose: (why) => this.#broken(stream, why),
    });
    this.#stream = stream;
    this.#marked = this.#refreshed().then(() => {
      for (const c of this.deps.clusters()) this.#mark(c);
    });
    stream.write(
      PROTOBUF.get().encodeLoadStatsRequest({ node: this.deps.node, cluster_stats: [] }),
    );
  }

  #log(level: string, msg: string) {
    this.deps.log?.(level, `lrs: ${msg}`);
  }

  #broken(stream: XdsStream, why: string) {
    if (this.#stream !== stream) return;
    this.#stream = null;
    clearTimeout(this.#timer);
    if (this.#closed) return;
    this.#log("warning", `stream closed: ${why}; retrying in ${this.#backoff} ms`);
    this.#retry = setTimeout(() => this.start(), this.#backoff);
    this.#backoff = Math.min(this.#backoff * 2, 30000);
  }

  #onResponse(r: JsonObject) {
    const d = parseDuration(r.load_reporting_interval ?? "0s");
    this.#intervalMs = d.ok ? d.value : 0;
    this.#all = r.send_all_clusters === true;
    this.#names = Array.isArray(r.clusters) ? r.clusters.map(String) : [];
    clearTimeout(this.#timer);
    if (this.#intervalMs > 0) this.#schedule();
  }

  #schedule() {
    const stream = this.#stream;
    this.#timer = setTimeout(async () => {
      await this.#marked;
      await this.#refreshed();
      // The stream may have broken (and a new one started) while the counts were gathered.
      if (this.#stream !== stream || stream === null) return;
      this.#report();
      this.#schedule();
    }, this.#intervalMs);
  }

  /** {@linkcode LoadReporterDeps.refresh}, its failure logged (the counts read are then older). */
  async #refreshed(): Promise<void> {
    try {
      await this.deps.refresh?.();
    } catch (e) {
      this.#log("warning", `could not gather the request counts: ${(e as Error).message}`);
    }
  }

  /** Remembers `c`'s counts now (the start of its next report's interval). */
  #mark(c: ReportedCluster) {
    const hosts = new Map<string, Seen>();
    for (const h of c.hosts()) {
      hosts.set(h.key, {
        total: h.stats.rq_total.value(),
        success: h.stats.rq_success.value(),
        error: h.stats.rq_error.value(),
      });
    }
    this.#last.set(c.name, { at: performance.now(), hosts });
  }

  /** The `ClusterStats` of `c` since its previous report. */
  #clusterStats(c: ReportedCluster): JsonObject {
    const prev = this.#last.get(c.name);
    const now = performance.now();
    const byLocality = new Map<string, JsonObject & { locality: JsonObject }>();
    for (const h of c.hosts()) {
      const p = prev?.hosts.get(h.key) ?? { total: 0, success: 0, error: 0 };
      const key = `${h.region}\u0000${h.zone}\u0000${h.sub_zone}\u0000${h.priority}`;
      let s = byLocality.get(key);
      if (!s) {
        s = {
          locality: { region: h.region, zone: h.zone, sub_zone: h.sub_zone },
          total_successful_requests: 0,
          total_requests_in_progress: 0,
          total_error_requests: 0,
          total_issued_requests: 0,
          priority: h.priority,
        };
        byLocality.set(key, s);
      }
      const add = (f: string, n: number) => (s![f] = (s![f] as number) + Math.max(0, n));
      add("total_successful_requests", h.stats.rq_success.value() - p.success);
      add("total_error_requests", h.stats.rq_error.value() - p.error);
      add("total_issued_requests", h.stats.rq_total.value() - p.total);
      add("total_requests_in_progress", h.stats.rq_active.value());
    }
    const out: JsonObject = {
      cluster_name: c.name,
      upstream_locality_stats: [...byLocality.values()].map((s) => ({
        ...s,
        total_successful_requests: String(s.total_successful_requests),
        total_requests_in_progress: String(s.total_requests_in_progress),
        total_error_requests: String(s.total_error_requests),
        total_issued_requests: String(s.total_issued_requests),
      })),
      total_dropped_requests: "0",
      load_report_interval: formatDuration(Math.round(now - (prev?.at ?? now))),
    };
    if (c.serviceName) out.cluster_service_name = c.serviceName;
    this.#mark(c);
    return out;
  }

  /** Sends one report of the clusters the server asked for. */
  #report() {
    const stream = this.#stream;
    if (!stream) return;
    const wanted = new Set(this.#names);
    const stats: JsonObject[] = [];
    for (const c of this.deps.clusters()) {
      if (this.#all || wanted.has(c.name)) stats.push(this.#clusterStats(c));
    }
    const node = this.deps.nodeFirstOnly ? undefined : this.deps.node;
    stream.write(
      PROTOBUF.get().encodeLoadStatsRequest({ ...(node ? { node } : {}), cluster_stats: stats }),
    );
  }

  /** Ends the stream and stops reporting. */
  close() {
    this.#closed = true;
    clearTimeout(this.#timer);
    clearTimeout(this.#retry);
    const s = this.#stream;
    this.#stream = null;
    s?.cancel();
  }
}
