/**
 * HTTP/1.1 health checks: `GET path` with `host` (the endpoint's hostname, else the cluster
 * name), `user-agent: proxy/HC` and the configured headers, over the cluster's transport (TLS when
 * the cluster uses it, from its `upstream_bind_config` source address). A status in
 * `expected_statuses` (default 200) passes; `x-envoy-degraded` / `x-proxy-degraded` marks the
 * host degraded; with `service_name_matcher` the `x-envoy-upstream-healthchecked-cluster` (or
 * `x-proxy-...`) header must match. A status in `retriable_statuses` is a failure that counts
 * towards `unhealthy_threshold`; any other status fails the host at once, and the
 * `x-envoy-immediate-health-check-fail` / `x-proxy-immediate-health-check-fail` header also
 * excludes it from balancing. The connection is kept between checks with `reuse_connection`.
 *
 * @example Not run: it needs an upstream HTTP server to check (`endpoint`).
 * ```ts ignore
 * import { HttpChecker } from "./http_health_checker.ts";
 * const checker = new HttpChecker(config, stats);
 * const s = checker.session(endpoint);
 * console.log(await s.run(AbortSignal.timeout(1000)));
 * ```
 * @module
 */
import { Http1Connection } from "../http1_connection.ts";
import type { Transport } from "../transport.ts";
import { type ConnectionCheck, TransportCheckSession } from "./transport_session.ts";
import type { HttpCheckerConfig, StatusRange } from "./health_check_config.ts";
import type { Checker, CheckResult, CheckSession, Endpoint } from "./checker.ts";
import type { Counter } from "../../stats/types.ts";

const BUFFER = 64 * 1024;
const encoder = new TextEncoder();

function inRanges(code: number, rs: readonly StatusRange[]): boolean {
  return rs.some((r) => code >= r.start && code < r.end);
}

/** The request head of one check. */
export function checkRequestHead(c: HttpCheckerConfig, e: Endpoint): string {
  const headers: [string, string][] = [
    ["host", c.host || e.hostname || e.clusterName],
    ["user-agent", "proxy/HC"],
  ];
  for (const h of c.headersToAdd) {
    if (!h.append) {
      for (let i = headers.length - 1; i >= 0; i--) {
        if (headers[i][0] === h.name) headers.splice(i, 1);
      }
    }
    headers.push([h.name, h.value]);
  }
  const kept = headers.filter(([n]) => n === "host" || !c.headersToRemove.includes(n));
  let out = `GET ${c.path} HTTP/1.1\r\n`;
  for (const [n, v] of kept) out += `${n}: ${v}\r\n`;
  return out + "\r\n";
}

/** Judges a response head. */
export function judgeResponse(
  c: HttpCheckerConfig,
  status: number,
  headers: readonly [string, string][],
  verifyCluster?: Counter,
): CheckResult {
  const has = (suffix: string) =>
    headers.some(([n]) => n === `x-envoy-${suffix}` || n === `x-proxy-${suffix}`);
  if (!inRanges(status, c.expected)) {
    return {
      ok: false,
      type: "ACTIVE",
      retriable: inRanges(status, c.retriable),
      excluded: has("immediate-health-check-fail"),
      reason: `status ${status}`,
    };
  }
  const degraded = has("degraded");
  if (c.serviceNameMatcher) {
    verifyCluster?.inc();
    const v = headers.find(([n]) =>
      n === "x-envoy-upstream-healthchecked-cluster" ||
      n === "x-proxy-upstream-healthchecked-cluster"
    )?.[1] ?? "";
    if (!c.serviceNameMatcher(v)) {
      return { ok: false, type: "ACTIVE", retriable: false, reason: `service name "${v}"` };
    }
  }
  return { ok: true, degraded };
}

class HttpSession extends TransportCheckSession<Http1Connection> {
  constructor(
    readonly c: HttpCheckerConfig,
    e: Endpoint,
    reuse: boolean,
    readonly verify: Counter,
  ) {
    super(e, reuse);
  }

  protected wrap(t: Transport): Http1Connection {
    return new Http1Connection(t, BUFFER);
  }

  protected async check(conn: Http1Connection): Promise<ConnectionCheck> {
    await conn.writeAll(encoder.encode(checkRequestHead(this.c, this.e)));
    const head = await conn.readHead("GET");
    while ((await conn.readBody()) !== null) { /* drain the body */ }
    return {
      result: judgeResponse(this.c, head.status, head.headers, this.verify),
      keep: !head.close,
    };
  }
}

/** The HTTP/1.1 checker. */
export class HttpChecker implements Checker {
  readonly type = "HTTP" as const;
  /** Checks with `c`; `verifyCluster` counts service-name verifications. */
  constructor(
    readonly c: HttpCheckerConfig,
    readonly reuse: boolean,
    readonly verifyCluster: Counter,
  ) {}

  session(e: Endpoint): CheckSession {
    return new HttpSession(this.c, e, this.reuse, this.verifyCluster);
  }
}
