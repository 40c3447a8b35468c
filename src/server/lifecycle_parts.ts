/**
 * The parts the server composes that are not in the tree yet, loaded when present: the listener
 * manager (`../listener/listener_manager.ts`: `new ListenerManager(listeners, { clusters, stats,
 * server })`). Until the module exists, the stand-in of this file takes its place: it implements
 * the admin view (listing, draining) but binds nothing. The lead replaces the dynamic
 * loading with static imports once the modules are in the tree.
 *
 * @example
 * ```ts ignore
 * import { loadParts } from "./lifecycle_parts.ts";
 * const parts = await loadParts();
 * const lm = parts.newListenerManager([], { clusters, stats, server: hooks });
 * ```
 * @module
 */
import type { Options } from "../cli/options.ts";
import type { JsonObject } from "../config/bootstrap_types.ts";
import type {
  ClusterManagerView,
  ListenerManagerView,
  ListenerView,
  TrafficDirection,
} from "./context.ts";
import type { Scope } from "../stats/types.ts";

/** A part with a lifecycle. */
export interface Startable {
  start(): Promise<void>;
  close(): Promise<void>;
}

/** What the server hands the listener manager (`server` of its constructor options). */
export interface ListenerServerHooks {
  /** Set by `/healthcheck/fail`: the health check filter fails every check while true. */
  healthCheckFailed(): boolean;
  /** Whether the server is draining (Connection: close / GOAWAY). */
  draining(): boolean;
  options: Options;
}

/** Constructors of the parts. */
export interface Parts {
  newListenerManager(
    listeners: JsonObject[],
    deps: { clusters: ClusterManagerView; stats: Scope; server: ListenerServerHooks },
  ): ListenerManagerView & Startable;
  /** Which parts are stand-ins. */
  standIns: string[];
}

function socketOf(config: JsonObject): { address: string; port: number } {
  const sa = ((config.address as JsonObject | undefined)?.socket_address ?? {}) as JsonObject;
  return {
    address: typeof sa.address === "string" ? sa.address : "",
    port: typeof sa.port_value === "number" ? sa.port_value : 0,
  };
}

/** Stand-in listener manager: shows the configured listeners; binds nothing. */
export function standInListenerManager(listeners: JsonObject[]): ListenerManagerView & Startable {
  const stopped = new Set<TrafficDirection | "ALL">();
  const views: ListenerView[] = listeners.map((l, i) => ({
    name: typeof l.name === "string" ? l.name : `listener_${i}`,
    ...socketOf(l),
    direction: (l.traffic_direction as TrafficDirection | undefined) ?? "UNSPECIFIED",
    config: l,
    stopped: false,
  }));
  return {
    listeners: () => views,
    drain: ({ inboundOnly }) => {
      for (const v of views) if (!inboundOnly || v.direction === "INBOUND") v.stopped = true;
      stopped.add(inboundOnly ? "INBOUND" : "ALL");
      return Promise.resolve();
    },
    stoppedDirections: () => stopped,
    start: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
}

async function optional(rel: string): Promise<Record<string, unknown> | null> {
  const url = new URL(rel, import.meta.url);
  try {
    await Deno.stat(url);
  } catch {
    return null;
  }
  return await import(url.href);
}

/** Loads the real parts where their modules exist, stand-ins elsewhere. */
export async function loadParts(): Promise<Parts> {
  const standIns: string[] = [];
  const lm = await optional("../listener/listener_manager.ts");
  const ListenerManager = lm?.ListenerManager as
    | (new (
      ...a: Parameters<Parts["newListenerManager"]>
    ) => ReturnType<Parts["newListenerManager"]>)
    | undefined;
  if (!ListenerManager) standIns.push("listener manager");
  return {
    newListenerManager: ListenerManager
      ? (l, d) => new ListenerManager(l, d)
      : (l) => standInListenerManager(l),
    standIns,
  };
}
