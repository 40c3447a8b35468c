/**
 * Test support: a {@linkcode ServerContext} built from real parts (stats store, layered runtime,
 * logger writing to memory) and small in-memory cluster and listener views, plus
 * {@linkcode call}, which sends one request through the admin router without a socket.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { call, testContext } from "./testing_context.ts";
 * const ctx = testContext();
 * const res = await call(ctx, "GET", "/ready");
 * assert.equal(await res.text(), "LIVE\n");
 * ```
 * @module
 */
import type { Feature } from "../../spec/rule.ts";
import { parseArgs } from "../config/args.ts";
import type { Options } from "../config/options.ts";
import type { Bootstrap, JsonObject } from "../config/bootstrap_types.ts";
import { effectiveCluster } from "../config/effective_cluster.ts";
import type { ServerContext, ServerState } from "../server/context.ts";
import type { ClusterView, HostView } from "../upstream/types.ts";
import type { ListenerView, TrafficDirection } from "../listener/types.ts";
import { createLogging } from "../server/logger.ts";
import { LayeredRuntime } from "../server/runtime.ts";
import { Store } from "../stats/store.ts";
import { newHostStats } from "../upstream/host_stats.ts";
import { ADMIN_HANDLERS } from "./handlers.ts";
import { createAdminRouter } from "./router.ts";
import type { Handler } from "./types.ts";

/** A host for tests. */
export function testHost(address: string, port: number, extra: Partial<HostView> = {}): HostView {
  return {
    address,
    port,
    hostname: "",
    stats: newHostStats(),
    health: { failed_active_hc: false, failed_eds_health: false, failed_outlier_check: false },
    weight: 1,
    region: "",
    zone: "",
    sub_zone: "",
    canary: false,
    priority: 0,
    successRate: () => -1,
    ...extra,
  };
}

/** A cluster for tests: stat name and (default) thresholds as the configuration defaults give. */
export function testCluster(name: string, hosts: HostView[], config: JsonObject = {}): ClusterView {
  const { statName, thresholds } = effectiveCluster({ name });
  return {
    name,
    statName,
    addedViaApi: false,
    config: { name, ...config },
    thresholds,
    hosts: () => hosts,
  };
}

/** A listener for tests. */
export function testListener(
  name: string,
  port: number,
  direction: TrafficDirection = "UNSPECIFIED",
  config: JsonObject = {},
): ListenerView {
  return {
    name,
    address: "127.0.0.1",
    port,
    direction,
    config: { name, ...config },
    stopped: false,
  };
}

/** What {@linkcode testContext} accepts. */
export interface TestContextInit {
  argv?: string[];
  bootstrap?: Bootstrap;
  clusters?: ClusterView[];
  listeners?: ListenerView[];
  features?: Feature[];
  state?: ServerState;
}

/**
 * A test context; `logLines` collects what was logged, `shutdowns` counts shutdown calls,
 * `accessLogReopens` counts access-log reopenings.
 */
export type TestContext = ServerContext & {
  logLines: string[];
  shutdowns: number;
  accessLogReopens: number;
  phase: ServerState;
};

/** Builds a context for handler tests. */
export function testContext(init: TestContextInit = {}): TestContext {
  const options: Options = parseArgs(init.argv ?? ["--config-yaml", "{}"]);
  const bootstrap: Bootstrap = init.bootstrap ?? {
    layered_runtime: {
      layers: [{ name: "static", static_layer: { a: { b: 1 } } }, {
        name: "admin",
        admin_layer: {},
      }],
    },
  };
  const logLines: string[] = [];
  const logging = createLogging(options, {
    sink: { write: (l) => void logLines.push(l), reopen: () => Promise.resolve(), close() {} },
  });
  const stats = new Store();
  const listeners = init.listeners ?? [];
  const stopped = new Set<TrafficDirection | "ALL">();
  const ctx: TestContext = {
    options,
    bootstrap,
    stats,
    phase: init.state ?? "LIVE",
    state() {
      return this.phase === "LIVE" && this.healthCheckFailed ? "DRAINING" : this.phase;
    },
    healthCheckFailed: false,
    features: new Set(init.features ?? ["cpu_profiler", "heap_profiler"]),
    startedAt: Date.now(),
    firstEpochStartedAt: Date.now(),
    clusters: { versionInfo: () => null, clusters: () => init.clusters ?? [] },
    listeners: {
      listeners: () => listeners,
      drain({ inboundOnly }) {
        for (const l of listeners) if (!inboundOnly || l.direction === "INBOUND") l.stopped = true;
        stopped.add(inboundOnly ? "INBOUND" : "ALL");
        return Promise.resolve();
      },
      stoppedDirections: () => stopped,
      reopenAccessLogs: () => void ctx.accessLogReopens++,
    },
    runtime: LayeredRuntime.fromBootstrap(bootstrap),
    logging,
    version: "0000000000000000000000000000000000000000/0.1.0-dev/Clean/RELEASE/rustls",
    hotRestartVersion: "1.64",
    logLines,
    shutdowns: 0,
    accessLogReopens: 0,
    async reopenLogs() {
      this.listeners.reopenAccessLogs();
      await this.logging.reopen();
    },
    onShutdown() {},
    shutdown() {
      this.shutdowns++;
      return Promise.resolve();
    },
  };
  return ctx;
}

/** Sends one request through the router (no socket). */
export function call(
  ctx: ServerContext,
  method: string,
  pathAndQuery: string,
  init: { body?: string; headers?: Record<string, string>; handlers?: Record<string, Handler> } =
    {},
): Promise<Response> {
  const route = createAdminRouter(ctx, { handlers: init.handlers ?? ADMIN_HANDLERS });
  return route(
    new Request(`http://127.0.0.1${pathAndQuery}`, {
      method,
      body: init.body,
      headers: init.headers,
    }),
  );
}
