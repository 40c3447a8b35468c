/**
 * What the rest of the server (the admin interface above all) may see of the listeners: one view
 * per listener and the listener manager's controls. `listener_manager.ts` implements them.
 *
 * @module
 */
import type { JsonObject } from "../config/bootstrap_types.ts";
import type { ReuseportPin } from "../platform/reuseport_steering.ts";

/** `traffic_direction` of a listener. */
export type TrafficDirection = "UNSPECIFIED" | "INBOUND" | "OUTBOUND";

/** What the admin interface sees of one listener. */
export interface ListenerView {
  name: string;
  /** The bound address; with port 0 in the configuration, the port the OS chose. */
  address: string;
  port: number;
  direction: TrafficDirection;
  config: JsonObject;
  stopped: boolean;
  /** For a listener from LDS: the version and time of the update that brought it. */
  apiUpdate?: { version_info: string; last_updated: string };
}

/** The listener manager, as the admin interface sees it. */
export interface ListenerManagerView {
  listeners(): readonly ListenerView[];
  /** LDS listeners removed or replaced that still drain their connections. */
  drainingListeners?(): readonly ListenerView[];
  /** LDS listeners added or changed that wait for their first route configuration (RDS). */
  warmingListeners?(): readonly ListenerView[];
  /** The `version_info` of the last LDS update; null (or absent) without LDS. */
  versionInfo?(): string | null;
  /** Route configurations from RDS, by name. */
  routeConfigs?: ReadonlyMap<
    string,
    { version_info: string; route_config: JsonObject; last_updated: string }
  >;
  /** Stops listeners (all, or only INBOUND ones); with `graceful`, after the drain period. */
  drain(opts: DrainOptions): Promise<void>;
  /** Directions whose listeners were stopped: no listener of these may be added or changed. */
  stoppedDirections(): ReadonlySet<TrafficDirection | "ALL">;
  /** Reopens every access log file (`/reopen_logs`, SIGUSR1). */
  reopenAccessLogs(): void;
}

/** What `drain` stops and how. */
export interface DrainOptions {
  inboundOnly: boolean;
  graceful: boolean;
  /**
   * A hot restart's parent: the reuseport groups to pin to the child's sockets just before this
   * process's listening sockets close (`src/platform/reuseport_steering.ts`).
   */
  pins?: readonly ReuseportPin[];
}
