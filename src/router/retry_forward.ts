/**
 * Sends a request to a cluster with the route's retries, as Envoy's router does: the request
 * body is buffered (up to the buffer limit) so every attempt can send it again; each attempt
 * has the per-try timeout (when it is shorter than what is left of the route timeout); an
 * answer or a reset the {@linkcode RetryState} asks to retry is discarded and the request sent
 * again after a back-off, with its timeout headers (`x-proxy-expected-rq-timeout-ms`,
 * `grpc-timeout`) recomputed from the time left; the `previous_hosts` predicate steers host selection away from hosts
 * already tried; the attempt number goes upstream (and back) when the virtual host asks for it.
 * An attempt the router abandons before its answer (its per-try idle timeout, a downstream
 * reset) is reset upstream (`UpstreamAttempt` of `upstream_request.ts`): its HTTP/1.1 connection is closed,
 * its HTTP/2 stream reset.
 *
 * @example Not run: it needs a cluster with hosts.
 * ```ts ignore
 * import { forwardWithRetries } from "./retry_forward.ts";
 * const { res, flags } = await forwardWithRetries(cluster, upstreamRequest, downstreamRequest, opts);
 * ```
 * @module
 */
import { type Buffered, bufferUpTo, bytesStream } from "./buffered_body.ts";
import type { Cluster } from "../upstream/cluster.ts";
import type { Host } from "../upstream/host.ts";
import type { UpstreamRequest } from "../upstream/upstream_request.ts";
import type { ProxyResponse } from "../http/proxy_response.ts";
import type { MatchInput } from "../http/downstream_request.ts";
import type { MemoryAccount } from "../http/memory_account.ts";
import type { StreamReset } from "../http/stream_reset.ts";
import { localReply, UPSTREAM_TIMEOUT } from "../http/local_reply.ts";
import { NO_RETRY_POLICY, type RetryPolicy } from "./retry_policy.ts";
import { shadowHost } from "./mirror_policy.ts";
import { idleAttempt } from "./per_try_idle.ts";
import { CONSUMED_HEADERS, proxyHeader, type ResetKind, RetryState } from "./retry_state.ts";
import { hasPrefixed } from "../http/internal_headers.ts";
import { abandoned } from "../upstream/forward_http1.ts";
import { type TimeoutData, timeoutHeaders, withTimeoutHeaders } from "./route_timeout.ts";

/** Envoy's default buffer limit (`per_connection_buffer_limit_bytes`, 1 MiB). */
export const DEFAULT_BUFFER_LIMIT = 1024 * 1024;

/** The request header (and response header) that carries the attempt number. */
export const ATTEMPT_COUNT_HEADER = "x-proxy-attempt-count";

/** How one request is retried. */
export interface RetryOptions {
  /** The route's (or its virtual host's) policy; null: only request headers can ask. */
  policy: RetryPolicy | null;
  /** `include_request_attempt_count`. */
  attemptCountInRequest: boolean;
  /** `include_attempt_count_in_response`. */
  attemptCountInResponse: boolean;
  /** The request body buffer limit in bytes. */
  bufferLimit: number;
  /** Clusters that get a shadow copy of the request (already drawn by their fraction). */
  shadows?: readonly { cluster: Cluster; hostSuffix: boolean }[];
  /** Aborts when the downstream stream is reset: the attempt in flight is reset upstream. */
  gone?: StreamReset;
  /** The stream's buffer account, charged by the request body kept for retries and shadows. */
  account?: MemoryAccount;
  /**
   * The request's timeouts (`route_timeout.ts`), already consumed from its headers: each retry
   * sends its own timeout headers, from the time left. Absent: the policy's per-try timeout, or
   * the request's header.
   */
  timeouts?: TimeoutData;
  /** Retries send `x-proxy-expected-rq-timeout-ms` (the router does not suppress it). */
  expectedTimeoutHeader?: boolean;
}

/** What the attempts produced. */
export interface RetryResult {
  res: ProxyResponse;
  /** Access log response flags to add (`URX` when the retry limit was reached). */
  flags: string[];
  attempts: number;
}

/** Why an attempt ended without an answer from the upstream, from its local reply's flag. */
function resetOf(flag: string | undefined): ResetKind | "timeout" | "none" | null {
  switch (flag) {
    case undefined:
      return null;
    case "UF":
      return "connect";
    case "UC":
    case "UR":
    case "UPE":
    case "UMSDR":
      return "reset";
    case "UO":
      return "overflow";
    case "UT":
      return "timeout";
    default:
      return "none";
  }
}

/** Sends a shadow request and discards its answer. */
function shadow(cluster: Cluster, r: UpstreamRequest): void {
  cluster.forward(r).then((res) => {
    if (res.body instanceof ReadableStream) res.body.cancel().catch(() => {});
  }).catch(() => {});
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** The per-try timeout: the request header's, else the policy's; ignored when not shorter. */
function perTryMs(policy: RetryPolicy, h: Headers, globalMs: number): number {
  let t = policy.perTryTimeoutMs;
  const v = proxyHeader(h, "upstream-rq-per-try-timeout-ms");
  if (v !== null && /^\d+$/.test(v.trim())) t = Number(v.trim());
  return globalMs > 0 && t >= globalMs ? 0 : t;
}

/**
 * Forwards `ur` (whose route timeout is the global timeout) to `cluster`, retrying as `o` and
 * the downstream request `m` says. Never rejects.
 */
export function forwardWithRetries(
  cluster: Cluster,
  ur: UpstreamRequest,
  m: MatchInput,
  o: RetryOptions,
): Promise<RetryResult> {
  // The downstream stream was reset before it reached the router: nothing goes upstream.
  if (o.gone?.aborted) return Promise.resolve({ res: abandoned(), flags: [], attempts: 0 });
  const p = o.policy;
  // Nothing can ask for a retry, a per-try timeout, a shadow or an attempt count: one attempt,
  // without the bookkeeping (no control header means none to consume either).
  if (
    (p === null || (p.retryOn === 0 && p.perTryTimeoutMs === 0 && p.perTryIdleTimeoutMs === 0)) &&
    (o.timeouts === undefined || o.timeouts.perTryMs === 0) &&
    (o.shadows === undefined || o.shadows.length === 0) && !o.attemptCountInRequest &&
    !hasPrefixed(m.headers)
  ) {
    // A route's header mutations may have added one the upstream must not see.
    if (ur.headers.some(([k]) => CONSUMED_HEADERS.has(k))) {
      ur.headers = ur.headers.filter(([k]) => !CONSUMED_HEADERS.has(k));
    }
    // A downstream reset still resets the one attempt upstream.
    o.gone?.onReset(() => ur.attempt?.abort());
    return cluster.forward(ur).then((res) => {
      if (o.attemptCountInResponse) res.headers.set(ATTEMPT_COUNT_HEADER, "1");
      return { res, flags: [], attempts: 1 };
    });
  }
  return forwardAttempts(cluster, ur, m, o);
}

async function forwardAttempts(
  cluster: Cluster,
  ur: UpstreamRequest,
  m: MatchInput,
  o: RetryOptions,
): Promise<RetryResult> {
  const policy = o.policy ?? NO_RETRY_POLICY;
  const counter = (n: string) => cluster.stats.s.counter(n);
  const state = RetryState.create(policy, m, cluster.breakers[ur.priority].retries, counter);
  const headers = ur.headers.filter(([k]) => !CONSUMED_HEADERS.has(k));
  const globalMs = ur.timeoutMs;
  const perTry = o.timeouts?.perTryMs ?? perTryMs(policy, m.headers, globalMs);
  const flags: string[] = [];
  let body: Buffered | null = null;
  const shadows = o.shadows ?? [];
  if (ur.body !== null && (state !== null || shadows.length > 0)) {
    body = await bufferUpTo(ur.body, o.bufferLimit, o.account);
    if ("stream" in body) counter("retry_or_shadow_abandoned").inc();
  }
  if (body === null || "bytes" in body) {
    for (const s of shadows) {
      shadow(s.cluster, {
        ...ur,
        authority: s.hostSuffix ? shadowHost(ur.authority) : ur.authority,
        headers,
        body: body === null ? null : bytesStream(body.bytes),
        contentLength: body === null ? ur.contentLength : body.bytes.length,
        upstream: null,
        lb: undefined,
      });
    }
  }
  const idleMs = policy.perTryIdleTimeoutMs;
  const gone = o.gone;
  let current: UpstreamRequest = ur;
  if (gone !== undefined) {
    gone.onReset(() => current.attempt?.abort());
  }
  if (state === null && perTry === 0 && idleMs === 0 && !o.attemptCountInRequest) {
    ur.headers = headers;
    if (body !== null && "bytes" in body) {
      ur.body = bytesStream(body.bytes);
      ur.contentLength = body.bytes.length;
    } else if (body !== null) ur.body = body.stream;
    return done(await cluster.forward(ur), 1);
  }
  const retries = body === null || "bytes" in body ? state : null;
  const tried: Host[] = [];
  const t0 = performance.now();
  for (let attempt = 1;; attempt++) {
    let timeoutMs = globalMs;
    let perTryBinding = false;
    if (globalMs > 0) {
      timeoutMs = Math.max(1, Math.ceil(globalMs - (performance.now() - t0)));
    }
    if (perTry > 0 && (globalMs === 0 || perTry < timeoutMs)) {
      timeoutMs = perTry;
      perTryBinding = true;
    }
    let sent = headers;
    if (attempt > 1 && o.timeouts !== undefined) {
      const elapsed = Math.floor(performance.now() - t0);
      sent = withTimeoutHeaders(
        sent,
        timeoutHeaders(elapsed, o.timeouts, o.expectedTimeoutHeader ?? false),
      );
    }
    const req: UpstreamRequest = {
      ...ur,
      headers: o.attemptCountInRequest
        ? [...sent.filter(([k]) => k !== ATTEMPT_COUNT_HEADER), [
          ATTEMPT_COUNT_HEADER,
          String(attempt),
        ]]
        : sent,
      body: body === null ? ur.body : "bytes" in body ? bytesStream(body.bytes) : body.stream,
      contentLength: body !== null && "bytes" in body ? body.bytes.length : ur.contentLength,
      timeoutMs,
      perTryTimeout: perTryBinding,
      upstream: null,
    };
    if (retries !== null && policy.previousHosts) {
      req.lb = {
        ...ur.lb,
        shouldSelectAnotherHost: (host) => tried.includes(host as Host),
        hostSelectionRetryCount: () => policy.hostSelectionMaxAttempts,
      };
    }
    let idleFired = false;
    current = req;
    const res = idleMs === 0 ? await cluster.forward(req) : await idleAttempt(
      (b) => {
        req.body = b;
        return cluster.forward(req);
      },
      req.body,
      idleMs,
      (beforeHead) => {
        counter("upstream_rq_per_try_idle_timeout").inc();
        if (!beforeHead) return;
        idleFired = true;
        // As Envoy's router: the attempt is reset upstream and counted as a timeout of its host.
        req.attempt?.abort();
        const host = req.upstream as Host | null | undefined;
        if (host) {
          host.stats.rq_timeout.inc();
          cluster.hostFailed(host, "timeout");
        }
      },
      ur.timeoutStatus,
    );
    ur.upstream = req.upstream;
    if (req.upstream) tried.push(req.upstream as Host);
    if (retries === null || gone?.aborted) {
      if (idleFired) cluster.stats.responseCode(ur.timeoutStatus ?? 504);
      return done(res, attempt);
    }
    const kind = resetOf(res.flag);
    let would: boolean;
    if (kind === null) would = retries.wouldRetryFromHeaders(res.status, res.headers);
    else if (kind === "timeout") {
      would = (perTryBinding || idleFired) && retries.wouldRetryFromReset("reset", true);
    } else if (kind === "none") would = false;
    else would = retries.wouldRetryFromReset(kind, kind !== "connect");
    const st = retries.shouldRetry(would);
    if (st !== "yes") {
      if (st === "limit") flags.push("URX");
      if (idleFired) cluster.stats.responseCode(ur.timeoutStatus ?? 504);
      return done(res, attempt);
    }
    if (res.body instanceof ReadableStream) res.body.cancel().catch(() => {});
    const wait = retries.nextBackOffMs();
    if (globalMs > 0) {
      const left = globalMs - (performance.now() - t0);
      if (left <= wait) {
        if (left > 0) await sleep(left);
        retries.finish();
        cluster.stats.rq_timeout.inc();
        return done(localReply(ur.timeoutStatus ?? 504, UPSTREAM_TIMEOUT), attempt);
      }
    }
    if (wait > 0) await sleep(wait);
  }

  function done(res: ProxyResponse, attempts: number): RetryResult {
    if (o.attemptCountInResponse) res.headers.set(ATTEMPT_COUNT_HEADER, String(attempts));
    return { res, flags, attempts };
  }
}
