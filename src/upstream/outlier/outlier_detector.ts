/**
 * Outlier detection of one cluster (Envoy's `Outlier::DetectorImpl`). The data path reports each
 * answer's status code ({@linkcode OutlierDetector.putHttpResponseCode}) and each local-origin
 * event ({@linkcode OutlierDetector.putResult}: connect failure, timeout, connect success).
 *
 * - `consecutive_5xx` 5xx answers in a row, or `consecutive_gateway_failure` 502/503/504 in a
 *   row, or (with `split_external_local_origin_errors`) `consecutive_local_origin_failure`
 *   local-origin failures in a row eject the host at once. Without the split, a connect failure
 *   counts as a 503 and a timeout as a 504.
 * - Every `interval`: ejected hosts whose time is up return (`base_ejection_time` × back-off,
 *   capped by `max_ejection_time`, plus jitter); success-rate ejection (mean - stdev ×
 *   `success_rate_stdev_factor`/1000 over hosts with `success_rate_request_volume` requests, when
 *   at least `success_rate_minimum_hosts` qualify) and failure-percentage ejection
 *   (`failure_percentage_threshold`) run; hosts not ejected for an interval lower their back-off.
 * - An ejection happens only while the ejected share is below `max_ejection_percent` (so at least
 *   one host can be ejected), and only with the `enforcing_*` probability of its kind.
 *
 * Statistics under `cluster.<name>.outlier_detection.` as Envoy names them.
 *
 * @example Not run: it needs the hosts of a running cluster (`cluster`, `host`).
 * ```ts ignore
 * import { OutlierDetector } from "./outlier_detector.ts";
 * const d = new OutlierDetector(config, clusterScope, { hosts: () => cluster.hosts(), changed });
 * d.putHttpResponseCode(host, 503);
 * ```
 * @module
 */
import type { Host } from "../host.ts";
import type { Counter, Gauge, Scope } from "../../stats/types.ts";
import { HostMonitor } from "./host_monitor.ts";
import type { OutlierConfig, OutlierSetting } from "./outlier_config.ts";
import type { EjectionRates, OutlierEventLog } from "./outlier_event_log.ts";

/** Envoy's `OutlierEjectionType`, as the statistics name them. */
export type EjectionType =
  | "consecutive_5xx"
  | "consecutive_gateway_failure"
  | "consecutive_local_origin_failure"
  | "success_rate"
  | "local_origin_success_rate"
  | "failure_percentage"
  | "failure_percentage_local_origin";

/** The `enforcing_*` setting of each ejection type. */
const ENFORCING: Readonly<Record<EjectionType, OutlierSetting>> = {
  consecutive_5xx: "enforcing_consecutive_5xx",
  consecutive_gateway_failure: "enforcing_consecutive_gateway_failure",
  consecutive_local_origin_failure: "enforcing_consecutive_local_origin_failure",
  success_rate: "enforcing_success_rate",
  local_origin_success_rate: "enforcing_local_origin_success_rate",
  failure_percentage: "enforcing_failure_percentage",
  failure_percentage_local_origin: "enforcing_failure_percentage_local_origin",
};

/** Local-origin events (Envoy's `Outlier::Result`). */
export type LocalResult =
  | "LOCAL_ORIGIN_CONNECT_FAILED"
  | "LOCAL_ORIGIN_TIMEOUT"
  | "LOCAL_ORIGIN_CONNECT_SUCCESS"
  | "LOCAL_ORIGIN_CONNECT_SUCCESS_FINAL";

/** What the detector needs of its cluster. */
export interface OutlierTarget {
  hosts(): readonly Host[];
  /** Called after a host was ejected or returned. */
  healthChanged(host: Host): void;
}

/** Options (tests fix time and randomness). */
export interface OutlierOptions {
  now?: () => number;
  /** 0 <= x < 1. */
  random?: () => number;
  /** False: no interval timer (tests call {@linkcode OutlierDetector.runInterval}). */
  timer?: boolean;
  /** The event log (`cluster_manager.outlier_detection.event_log_path`), and the cluster's name. */
  eventLog?: { log: OutlierEventLog; cluster: string } | null;
}

/** Success-rate figures of the last interval (-1: not computed). */
export interface SuccessRateFigures {
  average: number;
  threshold: number;
}

/** The outlier detector of one cluster. */
export class OutlierDetector {
  readonly #monitors = new Map<Host, HostMonitor>();
  readonly #c: Record<string, Counter> = {};
  readonly ejectionsActive: Gauge;
  readonly #now: () => number;
  readonly #random: () => number;
  readonly #eventLog: { log: OutlierEventLog; cluster: string } | null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;
  /** External-origin success rate average and ejection threshold of the last interval. */
  external: SuccessRateFigures = { average: -1, threshold: -1 };
  /** Local-origin figures (with `split_external_local_origin_errors`). */
  local: SuccessRateFigures = { average: -1, threshold: -1 };

  /** Detects outliers among `target`'s hosts; statistics under `scope` (`cluster.<name>`). */
  constructor(
    readonly config: OutlierConfig,
    scope: Scope,
    readonly target: OutlierTarget,
    o: OutlierOptions = {},
  ) {
    const s = scope.scope("outlier_detection");
    const names = [
      "ejections_enforced_total",
      "ejections_overflow",
      "ejections_total",
      "ejections_consecutive_5xx",
      "ejections_success_rate",
    ];
    for (const t of Object.keys(ENFORCING)) {
      names.push(`ejections_enforced_${t}`, `ejections_detected_${t}`);
    }
    for (const n of names) this.#c[n] = s.counter(n);
    this.ejectionsActive = s.gauge("ejections_active");
    this.#now = o.now ?? (() => performance.now());
    this.#random = o.random ?? Math.random;
    this.#eventLog = o.eventLog ?? null;
    for (const h of target.hosts()) this.addHost(h);
    if (o.timer !== false) this.#arm();
  }

  /** A counter by its name under `outlier_detection.`. */
  counter(name: string): Counter {
    return this.#c[name];
  }

  /** Starts watching a host. */
  addHost(h: Host): void {
    if (this.#monitors.has(h)) return;
    this.#monitors.set(h, new HostMonitor());
    h.outlierRates = { external: -1, local: -1 };
    if (h.health.failed_outlier_check) h.setFlag("failed_outlier_check", false);
  }

  /** Stops watching a host (an ejected one no longer counts as active). */
  removeHost(h: Host): void {
    if (!this.#monitors.delete(h)) return;
    if (h.health.failed_outlier_check) this.ejectionsActive.dec();
  }

  /** The monitor of a host (tests, admin). */
  monitor(h: Host): HostMonitor | undefined {
    return this.#monitors.get(h);
  }

  /** Reports an answer's status code from `h`. */
  putHttpResponseCode(h: Host, code: number): void {
    const m = this.#monitors.get(h);
    if (!m) return;
    if (code >= 500 && code < 600) {
      m.external.record(false);
      if (code === 502 || code === 503 || code === 504) {
        if (++m.consecutiveGatewayFailure === this.config.get("consecutive_gateway_failure")) {
          this.#consecutive(h, m, "consecutive_gateway_failure");
        }
      } else m.consecutiveGatewayFailure = 0;
      if (++m.consecutive5xx === this.config.get("consecutive_5xx")) {
        this.#consecutive(h, m, "consecutive_5xx");
      }
    } else {
      m.external.record(true);
      m.consecutive5xx = 0;
      m.consecutiveGatewayFailure = 0;
    }
  }

  /** Reports a local-origin event for `h`. */
  putResult(h: Host, r: LocalResult): void {
    const m = this.#monitors.get(h);
    if (!m) return;
    if (!this.config.splitExternalLocalOriginErrors) {
      if (r === "LOCAL_ORIGIN_CONNECT_FAILED") this.putHttpResponseCode(h, 503);
      else if (r === "LOCAL_ORIGIN_TIMEOUT") this.putHttpResponseCode(h, 504);
      else if (r === "LOCAL_ORIGIN_CONNECT_SUCCESS_FINAL") this.putHttpResponseCode(h, 200);
      return;
    }
    if (r === "LOCAL_ORIGIN_CONNECT_FAILED" || r === "LOCAL_ORIGIN_TIMEOUT") {
      m.local.record(false);
      if (
        ++m.consecutiveLocalOriginFailure === this.config.get("consecutive_local_origin_failure")
      ) {
        this.#consecutive(h, m, "consecutive_local_origin_failure");
      }
    } else {
      m.local.record(true);
      m.consecutiveLocalOriginFailure = 0;
    }
  }

  #consecutive(h: Host, m: HostMonitor, type: EjectionType) {
    if (h.health.failed_outlier_check) return;
    this.#c[`ejections_detected_${type}`].inc();
    if (type === "consecutive_5xx") this.#c.ejections_consecutive_5xx.inc();
    this.#eject(h, type);
    if (type === "consecutive_5xx") m.consecutive5xx = 0;
    else if (type === "consecutive_gateway_failure") m.consecutiveGatewayFailure = 0;
    else m.consecutiveLocalOriginFailure = 0;
  }

  #enforced(type: EjectionType): boolean {
    const pct = this.config.get(ENFORCING[type]);
    return pct >= 100 || this.#random() * 100 < pct;
  }

  /** Logs an event of `h` (`since`: the time of its last opposite action). */
  #log(
    h: Host,
    m: HostMonitor,
    e: { type: EjectionType; action: "EJECT" | "UNEJECT"; enforced: boolean },
    since: number | null,
    rates?: EjectionRates,
  ): void {
    const l = this.#eventLog;
    if (!l) return;
    l.log.write({
      ...e,
      cluster: l.cluster,
      upstream: h.key,
      numEjections: m.numEjections,
      secsSinceLastAction: since === null ? null : Math.floor((this.#now() - since) / 1000),
      rates,
    });
  }

  #eject(h: Host, type: EjectionType, rates?: EjectionRates) {
    const m = this.#monitors.get(h)!;
    const max = Math.min(100, this.config.get("max_ejection_percent"));
    const ejected = (100 * this.ejectionsActive.value()) / this.#monitors.size;
    if (!(ejected < max)) {
      this.#c.ejections_overflow.inc();
      return;
    }
    if (type === "consecutive_5xx" || type === "success_rate") this.#c.ejections_total.inc();
    if (!this.#enforced(type)) {
      this.#log(h, m, { type, action: "EJECT", enforced: false }, m.lastUnejection, rates);
      return;
    }
    this.ejectionsActive.inc();
    this.#c.ejections_enforced_total.inc();
    this.#c[`ejections_enforced_${type}`].inc();
    h.setFlag("failed_outlier_check", true);
    m.numEjections++;
    m.lastEjection = this.#now();
    const base = this.config.get("base_ejection_time");
    const maxTime = this.config.get("max_ejection_time");
    const jitter = this.config.get("max_ejection_time_jitter");
    m.jitterMs = jitter > 0 ? Math.floor(this.#random() * jitter) : 0;
    if (m.ejectTimeBackoff * base < maxTime + base) m.ejectTimeBackoff++;
    this.target.healthChanged(h);
    this.#log(h, m, { type, action: "EJECT", enforced: true }, m.lastUnejection, rates);
  }

  /** Returns an ejected host to service now (a passing active check may do this). */
  uneject(h: Host): void {
    const m = this.#monitors.get(h);
    if (!m || !h.health.failed_outlier_check) return;
    this.ejectionsActive.dec();
    h.setFlag("failed_outlier_check", false);
    m.resetConsecutive();
    m.lastUnejection = this.#now();
    this.target.healthChanged(h);
    const type = "consecutive_5xx";
    this.#log(h, m, { type, action: "UNEJECT", enforced: false }, m.lastEjection);
  }

  /** One detector interval: returns hosts whose time is up, then looks for new outliers. */
  runInterval(): void {
    const now = this.#now();
    const base = this.config.get("base_ejection_time");
    const maxTime = this.config.get("max_ejection_time");
    for (const [h, m] of this.#monitors) {
      if (h.health.failed_outlier_check && m.lastEjection !== null) {
        const time = Math.min(base * Math.max(1, m.ejectTimeBackoff), maxTime) + m.jitterMs;
        if (now - m.lastEjection >= time) this.uneject(h);
      }
      m.external.rotate();
      m.local.rotate();
      m.successRate = -1;
      m.localOriginSuccessRate = -1;
    }
    this.external = this.#successRateEjections(false);
    if (this.config.splitExternalLocalOriginErrors) this.local = this.#successRateEjections(true);
    const interval = this.config.get("interval");
    for (const [h, m] of this.#monitors) {
      if (!h.health.failed_outlier_check && m.lastUnejection !== null) {
        if (now - m.lastUnejection >= interval && m.ejectTimeBackoff > 0) m.ejectTimeBackoff--;
      }
      h.outlierRates = { external: m.successRate, local: m.localOriginSuccessRate };
    }
  }

  #successRateEjections(local: boolean): SuccessRateFigures {
    const figures = { average: -1, threshold: -1 };
    const srMin = this.config.get("success_rate_minimum_hosts");
    const srVolume = this.config.get("success_rate_request_volume");
    const fpMin = this.config.get("failure_percentage_minimum_hosts");
    const fpVolume = this.config.get("failure_percentage_request_volume");
    if (this.#monitors.size < srMin && this.#monitors.size < fpMin) return figures;
    const sr: [Host, number][] = [];
    const fp: [Host, number][] = [];
    let sum = 0;
    for (const [h, m] of this.#monitors) {
      if (h.health.failed_outlier_check) continue;
      const b = (local ? m.local : m.external).closed();
      if (!b) continue;
      if (b.volume >= srVolume) {
        sr.push([h, b.rate]);
        sum += b.rate;
        if (local) m.localOriginSuccessRate = b.rate;
        else m.successRate = b.rate;
      }
      if (b.volume >= fpVolume) fp.push([h, b.rate]);
    }
    if (sr.length > 0 && sr.length >= srMin) {
      const factor = this.config.get("success_rate_stdev_factor") / 1000;
      const mean = sum / sr.length;
      const variance = sr.reduce((a, [, r]) => a + (r - mean) ** 2, 0) / sr.length;
      figures.average = mean;
      figures.threshold = mean - factor * Math.sqrt(variance);
      const type: EjectionType = local ? "local_origin_success_rate" : "success_rate";
      for (const [h, rate] of sr) {
        if (rate < figures.threshold) {
          if (!local) this.#c.ejections_success_rate.inc();
          this.#c[`ejections_detected_${type}`].inc();
          this.#eject(h, type, { host: rate, ...figures });
        }
      }
    }
    if (fp.length > 0 && fp.length >= fpMin) {
      const threshold = this.config.get("failure_percentage_threshold");
      const type: EjectionType = local ? "failure_percentage_local_origin" : "failure_percentage";
      for (const [h, rate] of fp) {
        if (100 - rate >= threshold && !h.health.failed_outlier_check) {
          this.#c[`ejections_detected_${type}`].inc();
          this.#eject(h, type, { host: rate, average: -1, threshold: -1 });
        }
      }
    }
    return figures;
  }

  #arm() {
    if (this.#closed) return;
    this.#timer = setTimeout(() => {
      this.runInterval();
      this.#arm();
    }, Math.max(1, this.config.get("interval")));
  }

  /** Stops the interval timer. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
  }
}
