/**
 * What every health checker (HTTP, TCP) gives the scheduler: a per-host session that runs one
 * check at a time and reports its result, never throwing (an unreachable or garbage-answering
 * host is a failed check).
 *
 * @module
 */
import type { EffectiveTls } from "../../config/effective_cluster.ts";

/** Envoy's `HealthCheckFailureType`. */
export type FailureType = "ACTIVE" | "PASSIVE" | "NETWORK" | "NETWORK_TIMEOUT";

/** The outcome of one check. */
export type CheckResult =
  | { ok: true; degraded: boolean }
  | {
    ok: false;
    type: FailureType;
    /** A status in `retriable_statuses`: counts towards `unhealthy_threshold`. */
    retriable: boolean;
    /** The answer carried the immediate-failure header: exclude the host from balancing. */
    excluded?: boolean;
    /** A human-readable reason, for the log. */
    reason: string;
  };

/** Where and how a session connects. */
export interface Endpoint {
  address: string;
  port: number;
  tls: EffectiveTls | null;
  bind: { address: string; port: number } | null;
  alpn: string[] | null;
  /** The cluster name: default `host` of HTTP checks. */
  clusterName: string;
  /** The host's own `hostname` (from its endpoint), preferred over the cluster name. */
  hostname: string;
}

/** One host's check session. */
export interface CheckSession {
  /**
   * What the session needs before a check (a module loaded on first use); the check's timeout
   * starts once it settled.
   */
  ready?(): Promise<unknown>;
  /** Runs one check; `signal` aborts it (timeout or shutdown). */
  run(signal: AbortSignal): Promise<CheckResult>;
  /** Closes any kept connection. */
  close(): void;
}

/** Builds sessions for hosts. */
export interface Checker {
  /** `HTTP`, `TCP` or `GRPC`, as the event log names the checker. */
  readonly type: "HTTP" | "TCP" | "GRPC";
  session(e: Endpoint): CheckSession;
}

/** A network failure result. */
export function networkFailure(reason: string): CheckResult {
  return { ok: false, type: "NETWORK", retriable: false, reason };
}
