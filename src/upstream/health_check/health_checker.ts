/**
 * The active health checker of one cluster: one check session per host, each on its own timer
 * (Envoy's `HealthCheckerImplBase`). The first check runs at once (or after a random share of
 * `initial_jitter`); each next one after `interval`, `unhealthy_interval`,
 * `unhealthy_edge_interval` or `healthy_edge_interval` as the host's state and transition say,
 * or `no_traffic_interval` / `no_traffic_healthy_interval` while the cluster has never opened a
 * connection for traffic; plus `interval_jitter` and `interval_jitter_percent`, bounded by the
 * runtime keys `health_check.min_interval` / `health_check.max_interval`. A check that does not
 * finish within `timeout` is a network timeout and its connection is closed.
 *
 * Statistics: `cluster.<name>.health_check.{attempt,success,failure,network_failure,
 * passive_failure,verify_cluster}` counters and `healthy` / `degraded` gauges. Checks do not go
 * through the cluster's pools, so they count in no per-host request statistic.
 *
 * @example Not run: it checks the hosts of a running cluster (`target`) over the network.
 * ```ts ignore
 * import { HealthChecker } from "./health_checker.ts";
 * const hc = new HealthChecker(target, healthCheckConfig(json), clusterScope, { log });
 * hc.addHosts(target.hosts());
 * await hc.firstRound();
 * ```
 * @module
 */
import type { Host } from "../host.ts";
import type { EffectiveCluster } from "../../config/effective_cluster.ts";
import type { Counter, Gauge, Scope } from "../../stats/types.ts";
import type { HealthCheckConfig } from "./health_check_config.ts";
import type { Checker, CheckResult, CheckSession, FailureType } from "./checker.ts";
import { HttpChecker } from "./http_health_checker.ts";
import { TcpChecker } from "./tcp_health_checker.ts";
import { Http2Checker } from "./http2_health_checker.ts";
import { GrpcChecker } from "./grpc_health_checker.ts";
import { HealthTransitions, type Transition } from "./health_transition.ts";
import { HealthEventLogger } from "./event_logger.ts";

/** What the checker needs of its cluster. */
export interface HealthCheckTarget {
  readonly name: string;
  readonly effective: EffectiveCluster;
  /** True once the cluster has opened a connection for traffic. */
  hadTraffic(): boolean;
  /** Called after a host's health flags or marks changed. */
  healthChanged(host: Host): void;
}

/** Options of the checker. */
export interface HealthCheckerOptions {
  log?: (level: string, msg: string) => void;
  /** Runtime lookup (`health_check.min_interval`, `health_check.max_interval`). */
  runtime?: { get(key: string): string | undefined };
  /** Random integers (tests fix it). */
  random?: () => number;
}

/** Called when a check of `host` completed: its state after the check. */
export type CheckCompleteCallback = (host: Host, healthy: boolean) => void;

/** The `health_check.*` statistics. */
export interface HealthCheckStats {
  attempt: Counter;
  success: Counter;
  failure: Counter;
  network_failure: Counter;
  passive_failure: Counter;
  verify_cluster: Counter;
  healthy: Gauge;
  degraded: Gauge;
}

/** The parts of a host's state the checker changes, as one comparable string. */
function stateOf(h: Host): string {
  return `${h.health.failed_active_hc}${h.degraded()}${h.excluded()}`;
}

class Session {
  readonly state: HealthTransitions;
  timer: ReturnType<typeof setTimeout> | undefined;
  running = false;
  closed = false;
  firstDone: (() => void) | null = null;
  constructor(readonly host: Host, readonly check: CheckSession, c: HealthCheckConfig) {
    this.state = new HealthTransitions(c);
  }
}

/** Runs one cluster's health checks. */
export class HealthChecker {
  readonly stats: HealthCheckStats;
  readonly checker: Checker;
  readonly #sessions = new Map<Host, Session>();
  /** First checks not done yet (each promise leaves the set when it resolves). */
  readonly #firstRound = new Set<Promise<void>>();
  readonly #callbacks: CheckCompleteCallback[] = [];
  readonly #events: HealthEventLogger | null;
  readonly #random: () => number;
  #closed = false;

  /** Checks `target`'s hosts with `c`; statistics go under `scope` (`cluster.<name>`). */
  constructor(
    readonly target: HealthCheckTarget,
    readonly c: HealthCheckConfig,
    scope: Scope,
    readonly o: HealthCheckerOptions = {},
  ) {
    const s = scope.scope("health_check");
    this.stats = {
      attempt: s.counter("attempt"),
      success: s.counter("success"),
      failure: s.counter("failure"),
      network_failure: s.counter("network_failure"),
      passive_failure: s.counter("passive_failure"),
      verify_cluster: s.counter("verify_cluster"),
      healthy: s.gauge("healthy"),
      degraded: s.gauge("degraded"),
    };
    this.checker = c.checker.kind === "tcp"
      ? new TcpChecker(c.checker, c.reuseConnection)
      : c.checker.kind === "grpc"
      ? new GrpcChecker(c.checker, c.reuseConnection)
      : c.checker.codec === "HTTP2"
      ? new Http2Checker(c.checker, c.reuseConnection, this.stats.verify_cluster)
      : new HttpChecker(c.checker, c.reuseConnection, this.stats.verify_cluster);
    this.#events = c.eventLogPath
      ? new HealthEventLogger(c.eventLogPath, this.checker.type, target.name)
      : null;
    this.#random = o.random ?? (() => Math.floor(Math.random() * 2 ** 32));
  }

  /** Calls `cb` after every completed check. */
  onCheckComplete(cb: CheckCompleteCallback): void {
    this.#callbacks.push(cb);
  }

  /**
   * Starts checking new hosts. They start as Envoy starts them: failed (`/failed_active_hc`) and
   * pending until their first check.
   */
  addHosts(hosts: readonly Host[]): void {
    if (this.#closed) return;
    for (const h of hosts) {
      if (this.#sessions.has(h)) continue;
      const e = this.target.effective;
      const s = new Session(
        h,
        this.checker.session({
          address: h.address,
          port: h.port,
          tls: e.tls,
          bind: e.upstreamBind,
          alpn: this.c.alpn,
          clusterName: this.target.name,
          hostname: h.hostname,
        }),
        this.c,
      );
      h.setFlag("failed_active_hc", true);
      h.setPending(true);
      this.#sessions.set(h, s);
      const first = new Promise<void>((r) => s.firstDone = r);
      this.#firstRound.add(first);
      void first.then(() => this.#firstRound.delete(first));
      const jitter = this.c.initialJitterMs > 0 ? this.#random() % this.c.initialJitterMs : 0;
      if (jitter > 0) this.#arm(s, jitter);
      else void this.#run(s);
    }
    this.#gauges();
  }

  /** Stops checking removed hosts. */
  removeHosts(hosts: readonly Host[]): void {
    for (const h of hosts) {
      const s = this.#sessions.get(h);
      if (!s) continue;
      this.#stop(s);
      this.#sessions.delete(h);
    }
    this.#gauges();
  }

  /** Resolves when every host added so far has had its first check. */
  firstRound(): Promise<void> {
    return Promise.all([...this.#firstRound]).then(() => {});
  }

  /** True when `host` is checked by this checker. */
  has(host: Host): boolean {
    return this.#sessions.has(host);
  }

  /**
   * A passive failure reported by the data path (an answer carrying the immediate-failure
   * header): the host fails at once.
   */
  passiveFailure(host: Host): void {
    const s = this.#sessions.get(host);
    if (!s) return;
    this.#failure(s, "PASSIVE", false);
  }

  #stop(s: Session) {
    s.closed = true;
    clearTimeout(s.timer);
    s.check.close();
    s.firstDone?.();
    s.firstDone = null;
  }

  #arm(s: Session, ms: number) {
    if (s.closed || this.#closed) return;
    clearTimeout(s.timer);
    s.timer = setTimeout(() => void this.#run(s), ms);
  }

  async #run(s: Session) {
    if (s.closed || s.running) return;
    s.running = true;
    if (s.check.ready) {
      // Loading what the check needs is not part of its time; a failed load fails the check.
      await s.check.ready().catch(() => {});
      if (s.closed || this.#closed) {
        s.running = false;
        return;
      }
    }
    this.stats.attempt.inc();
    const ac = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      ac.abort();
    }, this.c.timeoutMs);
    let r: CheckResult;
    try {
      r = await Promise.race([
        s.check.run(ac.signal),
        new Promise<CheckResult>((resolve) =>
          ac.signal.addEventListener(
            "abort",
            () =>
              resolve({ ok: false, type: "NETWORK_TIMEOUT", retriable: false, reason: "timeout" }),
          )
        ),
      ]);
    } catch (e) {
      r = { ok: false, type: "NETWORK", retriable: false, reason: String(e) };
    } finally {
      clearTimeout(timer);
    }
    if (timedOut && r.ok) {
      r = { ok: false, type: "NETWORK_TIMEOUT", retriable: false, reason: "timeout" };
    }
    s.running = false;
    if (s.closed || this.#closed) return;
    if (r.ok) this.#success(s, r.degraded);
    else {
      const before = stateOf(s.host);
      if (r.excluded) s.host.setMarks({ excluded: true });
      this.o.log?.(
        "debug",
        `health check of ${s.host.key} in cluster ${this.target.name} failed: ${r.reason}`,
      );
      this.#failure(s, r.type, r.retriable, before);
    }
  }

  #success(s: Session, degraded: boolean) {
    const h = s.host;
    const before = stateOf(h);
    const first = s.state.first;
    const change = s.state.success();
    if (change === "Changed") {
      h.setMarks({ excluded: false });
      if (h.health.failed_active_hc) h.lastHcPassTime = performance.now();
      h.setFlag("failed_active_hc", false);
      this.#events?.addHealthy(h, first);
    }
    h.setPending(false);
    if (degraded !== h.degraded()) {
      h.setMarks({ degraded });
      if (degraded) this.#events?.degraded(h);
      else this.#events?.noLongerDegraded(h);
    }
    this.stats.success.inc();
    this.#done(s, true, change, before);
  }

  #failure(s: Session, type: FailureType, retriable: boolean, before = stateOf(s.host)) {
    const h = s.host;
    const first = s.state.first;
    const change = s.state.failure(type, retriable);
    if (change === "Changed") {
      h.setFlag("failed_active_hc", true);
      this.#events?.ejectUnhealthy(h, type);
    }
    h.setPending(false);
    if (first || this.c.alwaysLogHealthCheckFailures) this.#events?.failure(h, type, first);
    this.stats.failure.inc();
    if (type === "NETWORK" || type === "NETWORK_TIMEOUT") this.stats.network_failure.inc();
    else if (type === "PASSIVE") this.stats.passive_failure.inc();
    this.#done(s, false, change, before);
  }

  #done(s: Session, healthy: boolean, change: Transition, before: string) {
    if (stateOf(s.host) !== before) {
      this.#gauges();
      this.target.healthChanged(s.host);
    }
    for (const cb of this.#callbacks) cb(s.host, healthy);
    s.firstDone?.();
    s.firstDone = null;
    this.#arm(s, this.interval(healthy, change, s.host));
  }

  #gauges() {
    let healthy = 0;
    let degraded = 0;
    for (const h of this.#sessions.keys()) {
      if (!h.health.failed_active_hc) healthy++;
      if (h.degraded()) degraded++;
    }
    this.stats.healthy.set(healthy);
    this.stats.degraded.set(degraded);
  }

  /** The wait before the next check of a host (Envoy's interval choice, with jitter). */
  interval(healthy: boolean, change: Transition, host?: Host): number {
    const c = this.c;
    let base: number;
    if (this.target.hadTraffic()) {
      if (!healthy) {
        base = change === "ChangePending" ? c.unhealthyEdgeIntervalMs : c.unhealthyIntervalMs;
      } else base = change === "ChangePending" ? c.healthyEdgeIntervalMs : c.intervalMs;
    } else {
      base = host && !host.health.failed_active_hc
        ? c.noTrafficHealthyIntervalMs
        : c.noTrafficIntervalMs;
    }
    const pct = Math.floor((c.intervalJitterPercent * base) / 100);
    if (pct > 0) base += this.#random() % pct;
    if (c.intervalJitterMs > 0) base += this.#random() % c.intervalJitterMs;
    const num = (k: string, d: number) => {
      const v = Number(this.o.runtime?.get(k));
      return Number.isFinite(v) && v >= 0 && this.o.runtime?.get(k) !== undefined ? v : d;
    };
    const min = num("health_check.min_interval", 0);
    const max = num("health_check.max_interval", Number.MAX_SAFE_INTEGER);
    return Math.max(1, Math.max(Math.min(base, max), min));
  }

  /** Stops every check. */
  close(): void {
    this.#closed = true;
    for (const s of this.#sessions.values()) this.#stop(s);
    this.#sessions.clear();
    this.#events?.close();
  }
}
