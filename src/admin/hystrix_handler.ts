/**
 * `/hystrix_event_stream` (only with a `proxy.stat_sinks.hystrix` / `envoy.stat_sinks.hystrix`
 * stats sink): a `text/event-stream` that, at every stats flush, sends per cluster one
 * `HystrixCommand` and one `HystrixThreadPool` event (`data: {...}\n\n`), then a `:\n\n`
 * keep-alive. Statistics are adapted as the specification says: thread-pool rejections are
 * `upstream_rq_pending_overflow`, the circuit breaker is always reported forced closed, the
 * short-circuited count is always 0, counts cover the time since the last flush, latency
 * percentiles are those of the last closed interval of `cluster.<name>.upstream_rq_time` (0 when
 * it is empty), and mean latency is unavailable (`"null"`).
 *
 * The server calls {@linkcode hystrixFlush} after each stats flush (once histogram intervals
 * are closed).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hystrixFlush, hystrixStreamCount } from "./hystrix_handler.ts";
 * import { testContext } from "./testing_context.ts";
 * const server = testContext();
 * hystrixFlush(server, 5000); // sends to every open stream; here there is none
 * assert.equal(hystrixStreamCount(server), 0);
 * ```
 * @module
 */
import type { ServerContext } from "../server/context.ts";
import type { Handler } from "./types.ts";

interface Stream {
  controller: ReadableStreamDefaultController<Uint8Array>;
}

const STREAMS = new WeakMap<ServerContext, Set<Stream>>();
const LAST = new WeakMap<ServerContext, Map<string, number>>();
const enc = new TextEncoder();
const QUANTILES = ["0", "25", "50", "75", "90", "95", "99", "99.5", "100"];

function streams(server: ServerContext): Set<Stream> {
  let s = STREAMS.get(server);
  if (!s) STREAMS.set(server, s = new Set());
  return s;
}

/** Number of open event streams of a server. */
export function hystrixStreamCount(server: ServerContext): number {
  return STREAMS.get(server)?.size ?? 0;
}

function delta(server: ServerContext, name: string): number {
  const last = LAST.get(server) ?? new Map<string, number>();
  LAST.set(server, last);
  const now = server.stats.counter(name).value();
  const d = Math.max(0, now - (last.get(name) ?? 0));
  last.set(name, now);
  return d;
}

/** The two events of one cluster for one flush. */
export function clusterEvents(server: ServerContext, cluster: string, windowMs: number): string {
  const p = `cluster.${cluster}.`;
  const requests = delta(server, `${p}upstream_rq_total`);
  const errors = delta(server, `${p}upstream_rq_5xx`);
  const timeouts = delta(server, `${p}upstream_rq_timeout`);
  const rejected = delta(server, `${p}upstream_rq_pending_overflow`);
  const failed = errors + timeouts + rejected;
  const times = server.stats.histogram(`${p}upstream_rq_time`, "milliseconds").interval
    .quantiles(QUANTILES.map((q) => Number(q) / 100));
  const latency = Object.fromEntries(
    QUANTILES.map((q, i) => [q, Number.isFinite(times[i]) ? Math.round(times[i]) : 0]),
  );
  const command = {
    type: "HystrixCommand",
    name: cluster,
    group: "NA",
    currentTime: Math.floor(Date.now() / 1000),
    isCircuitBreakerOpen: false,
    errorPercentage: requests > 0 ? Math.round((failed / requests) * 100) : 0,
    errorCount: failed,
    requestCount: requests,
    rollingCountCollapsedRequests: 0,
    rollingCountExceptionsThrown: 0,
    rollingCountFailure: errors,
    rollingCountFallbackFailure: 0,
    rollingCountFallbackRejection: 0,
    rollingCountFallbackSuccess: 0,
    rollingCountResponsesFromCache: 0,
    rollingCountSemaphoreRejected: 0,
    rollingCountShortCircuited: 0,
    rollingCountSuccess: Math.max(0, requests - failed),
    rollingCountThreadPoolRejected: rejected,
    rollingCountTimeout: timeouts,
    rollingCountBadRequests: 0,
    currentConcurrentExecutionCount: 0,
    latencyExecute_mean: "null",
    latencyExecute: latency,
    latencyTotal_mean: "null",
    latencyTotal: latency,
    propertyValue_circuitBreakerRequestVolumeThreshold: 0,
    propertyValue_circuitBreakerSleepWindowInMilliseconds: 0,
    propertyValue_circuitBreakerErrorThresholdPercentage: 0,
    propertyValue_circuitBreakerForceOpen: false,
    propertyValue_circuitBreakerForceClosed: true,
    propertyValue_circuitBreakerEnabled: true,
    propertyValue_executionIsolationStrategy: "SEMAPHORE",
    propertyValue_executionIsolationThreadTimeoutInMilliseconds: 0,
    propertyValue_executionIsolationThreadInterruptOnTimeout: false,
    propertyValue_executionIsolationThreadPoolKeyOverride: "null",
    propertyValue_executionIsolationSemaphoreMaxConcurrentRequests: 0,
    propertyValue_fallbackIsolationSemaphoreMaxConcurrentRequests: 0,
    propertyValue_requestCacheEnabled: false,
    propertyValue_requestLogEnabled: true,
    reportingHosts: 1,
    propertyValue_metricsRollingStatisticalWindowInMilliseconds: windowMs,
  };
  const pool = {
    currentPoolSize: 0,
    rollingMaxActiveThreads: 0,
    currentActiveCount: 0,
    currentCompletedTaskCount: requests,
    propertyValue_queueSizeRejectionThreshold: 0,
    type: "HystrixThreadPool",
    reportingHosts: 1,
    propertyValue_metricsRollingStatisticalWindowInMilliseconds: windowMs,
    name: cluster,
    currentLargestPoolSize: 0,
    currentCorePoolSize: 0,
    currentQueueSize: 0,
    currentTaskCount: requests,
    rollingCountThreadsExecuted: requests,
    currentMaximumPoolSize: 0,
  };
  return `data: ${JSON.stringify(command)}\n\ndata: ${JSON.stringify(pool)}\n\n`;
}

/** Sends one flush worth of events to every open stream of the server. */
export function hystrixFlush(server: ServerContext, windowMs: number): void {
  const open = STREAMS.get(server);
  if (!open || open.size === 0) return;
  let body = "";
  for (const c of server.clusters.clusters()) body += clusterEvents(server, c.statName, windowMs);
  body += ":\n\n";
  const bytes = enc.encode(body);
  for (const s of open) {
    try {
      s.controller.enqueue(bytes);
    } catch {
      open.delete(s);
    }
  }
}

/** Closes every open stream of a server (at shutdown). */
export function closeHystrixStreams(server: ServerContext): void {
  for (const s of STREAMS.get(server) ?? []) {
    try {
      s.controller.close();
    } catch {
      // already closed
    }
  }
  STREAMS.get(server)?.clear();
}

const eventStream: Handler = (_req, server) => {
  const set = streams(server);
  let stream: Stream;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      stream = { controller };
      set.add(stream);
      controller.enqueue(enc.encode(":\n\n"));
    },
    cancel() {
      set.delete(stream);
    },
  });
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      "access-control-allow-headers": "Accept, Cache-Control, X-Requested-With, Last-Event-ID",
      "access-control-allow-origin": "*",
    },
  });
};

/** Handlers of this family, by path. */
export const HYSTRIX_HANDLERS = {
  "/hystrix_event_stream": eventStream,
} satisfies Record<string, Handler>;
