/**
 * The health check event log (`event_log_path`): one JSON object per line, as Envoy writes its
 * `HealthCheckEvent` messages (primitive fields always printed): `health_checker_type`, `host`,
 * `cluster_name`, one event member and `timestamp`.
 *
 * @example Not run: it writes health events to a file.
 * ```ts ignore
 * import { HealthEventLogger } from "./event_logger.ts";
 * const log = new HealthEventLogger("/tmp/hc.log", "HTTP", "web");
 * log.ejectUnhealthy({ address: "127.0.0.1", port: 8080 }, "ACTIVE");
 * ```
 * @module
 */
import type { FailureType } from "./checker.ts";

/** A host as the event names it. */
export interface EventHost {
  address: string;
  port: number;
}

/** Writes events to a file (appending); write errors are counted, never thrown. */
export class HealthEventLogger {
  #file: Deno.FsFile | null = null;
  #broken = false;
  readonly #enc = new TextEncoder();

  /** Logs events of a `type` checker of cluster `cluster` to `path`. */
  constructor(readonly path: string, readonly type: string, readonly cluster: string) {}

  /** One event line (exported shape for tests). */
  line(host: EventHost, event: Record<string, unknown>, now = new Date()): string {
    return JSON.stringify({
      health_checker_type: this.type,
      host: {
        socket_address: {
          protocol: "TCP",
          address: host.address,
          resolver_name: "",
          ipv4_compat: false,
          port_value: host.port,
        },
      },
      cluster_name: this.cluster,
      ...event,
      timestamp: now.toISOString(),
    }) + "\n";
  }

  #write(host: EventHost, event: Record<string, unknown>) {
    if (this.#broken) return;
    try {
      this.#file ??= Deno.openSync(this.path, { append: true, create: true });
      this.#file.writeSync(this.#enc.encode(this.line(host, event)));
    } catch {
      this.#broken = true;
    }
  }

  /** The host turned unhealthy. */
  ejectUnhealthy(host: EventHost, failure: FailureType): void {
    this.#write(host, { eject_unhealthy_event: { failure_type: failure } });
  }

  /** The host turned healthy (`first`: on its first check). */
  addHealthy(host: EventHost, first: boolean): void {
    this.#write(host, { add_healthy_event: { first_check: first } });
  }

  /** A check failed (logged on the first check, or always with `always_log_health_check_failures`). */
  failure(host: EventHost, failure: FailureType, first: boolean): void {
    this.#write(host, {
      health_check_failure_event: { failure_type: failure, first_check: first },
    });
  }

  /** The host turned degraded. */
  degraded(host: EventHost): void {
    this.#write(host, { degraded_healthy_host: {} });
  }

  /** The host is no longer degraded. */
  noLongerDegraded(host: EventHost): void {
    this.#write(host, { no_longer_degraded_host: {} });
  }

  /** Closes the file. */
  close(): void {
    try {
      this.#file?.close();
    } catch { /* already closed */ }
    this.#file = null;
  }
}
