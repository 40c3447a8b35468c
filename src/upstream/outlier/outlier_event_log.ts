/**
 * The outlier detection event log (`cluster_manager.outlier_detection.event_log_path`): one JSON
 * object per line per ejection and return, as Envoy writes its `OutlierDetectionEvent` messages
 * (fields in proto order, primitive fields always printed): `type`, `timestamp`,
 * `secs_since_last_action` (absent before the first opposite action), `cluster_name`,
 * `upstream_url`, `action` (`EJECT` or `UNEJECT`), `num_ejections`, `enforced`, and for an
 * ejection its event: `eject_consecutive_event`, `eject_success_rate_event` (host rate, cluster
 * average and threshold) or `eject_failure_percentage_event` (host rate). A return carries the
 * proto's default type (`CONSECUTIVE_5XX`) and `enforced: false`, as Envoy's does.
 *
 * With data-plane workers the detectors run on the main thread only, so the log is the whole
 * process's.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { OutlierEventLog } from "./outlier_event_log.ts";
 * const log = new OutlierEventLog("/dev/null", () => new Date(0));
 * const line = log.line({
 *   type: "consecutive_5xx", action: "EJECT", cluster: "web", upstream: "127.0.0.1:80",
 *   numEjections: 1, enforced: true, secsSinceLastAction: null,
 * });
 * assert.equal(JSON.parse(line).type, "CONSECUTIVE_5XX");
 * ```
 * @module
 */
import type { EjectionType } from "./outlier_detector.ts";

/** Envoy's `OutlierEjectionType` names. */
const TYPE_NAMES: Readonly<Record<EjectionType, string>> = {
  consecutive_5xx: "CONSECUTIVE_5XX",
  consecutive_gateway_failure: "CONSECUTIVE_GATEWAY_FAILURE",
  success_rate: "SUCCESS_RATE",
  consecutive_local_origin_failure: "CONSECUTIVE_LOCAL_ORIGIN_FAILURE",
  local_origin_success_rate: "SUCCESS_RATE_LOCAL_ORIGIN",
  failure_percentage: "FAILURE_PERCENTAGE",
  failure_percentage_local_origin: "FAILURE_PERCENTAGE_LOCAL_ORIGIN",
};

/** Success-rate figures of an ejection by success rate or failure percentage. */
export interface EjectionRates {
  host: number;
  average: number;
  threshold: number;
}

/** One event. */
export interface OutlierEvent {
  type: EjectionType;
  action: "EJECT" | "UNEJECT";
  cluster: string;
  /** `address:port` (`[v6]:port`). */
  upstream: string;
  numEjections: number;
  enforced: boolean;
  /** Whole seconds since the host's last opposite action, or null when there was none. */
  secsSinceLastAction: number | null;
  rates?: EjectionRates;
}

/** A proto `uint32` from a figure (Envoy converts the double, dropping the fraction). */
const u32 = (n: number) => Math.max(0, Math.trunc(n));

/** Appends events to a file; write errors stop the log, never the detector. */
export class OutlierEventLog {
  #file: Deno.FsFile | null = null;
  #broken = false;
  readonly #enc = new TextEncoder();

  /** Logs to `path`; `now` is the wall clock of the timestamps. */
  constructor(readonly path: string, readonly now: () => Date = () => new Date()) {}

  /** The line of one event. */
  line(e: OutlierEvent): string {
    const out: Record<string, unknown> = {
      type: e.action === "EJECT" ? TYPE_NAMES[e.type] : TYPE_NAMES.consecutive_5xx,
      timestamp: this.now().toISOString(),
    };
    if (e.secsSinceLastAction !== null) out.secs_since_last_action = String(e.secsSinceLastAction);
    out.cluster_name = e.cluster;
    out.upstream_url = e.upstream;
    out.action = e.action;
    out.num_ejections = e.numEjections;
    out.enforced = e.action === "EJECT" && e.enforced;
    if (e.action === "EJECT") {
      if (e.type === "success_rate" || e.type === "local_origin_success_rate") {
        out.eject_success_rate_event = {
          host_success_rate: u32(e.rates?.host ?? 0),
          cluster_average_success_rate: u32(e.rates?.average ?? 0),
          cluster_success_rate_ejection_threshold: u32(e.rates?.threshold ?? 0),
        };
      } else if (e.type === "failure_percentage" || e.type === "failure_percentage_local_origin") {
        out.eject_failure_percentage_event = { host_success_rate: u32(e.rates?.host ?? 0) };
      } else out.eject_consecutive_event = {};
    }
    return JSON.stringify(out) + "\n";
  }

  /** Writes one event. */
  write(e: OutlierEvent): void {
    if (this.#broken) return;
    try {
      this.#file ??= Deno.openSync(this.path, { append: true, create: true });
      this.#file.writeSync(this.#enc.encode(this.line(e)));
    } catch {
      this.#broken = true;
    }
  }

  /** Closes the file. */
  close(): void {
    try {
      this.#file?.close();
    } catch {
      // already closed
    }
    this.#file = null;
  }
}
