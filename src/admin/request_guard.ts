/**
 * Admin hardening beyond Envoy: refuses requests a web browser was made to send. The admin
 * interface has no credential (the specification's Authentication section); it relies on being
 * reachable only from a secure network. A web page that an operator opens can still reach it
 * through the operator's browser, in two ways this guard closes:
 *
 * - **Cross-site request forgery** (`admin.general.cross-site-refused`): a page on another site
 *   posts to `http://127.0.0.1:9901/quitquitquit`. Browsers mark such a request with an `Origin`
 *   header naming the page's site and with `Sec-Fetch-Site: cross-site`. A request to a mutating
 *   path whose `Origin` does not name the admin's own address (the host the request was sent to),
 *   or that carries `Sec-Fetch-Site: cross-site`, answers 403 and changes nothing.
 * - **DNS rebinding** (`admin.general.foreign-host-refused`): a page on `evil.example` whose name
 *   is re-pointed at 127.0.0.1 reads `/config_dump` as same-origin. Its requests carry
 *   `Host: evil.example`. A request whose `Host` names neither the bound address, a loopback name
 *   (`localhost`, `*.localhost`, `127.0.0.0/8`, `::1`), an IP literal (when the listener is bound
 *   to a wildcard address) nor this machine's host name answers 403.
 *
 * Requests without these headers (curl, scripts, the conformance suite: an HTTP/1.1 client sends
 * `Host` with the address it connected to) are unaffected. Each refusal is counted in
 * `http.admin.downstream_rq_cross_site_refused` or `http.admin.downstream_rq_host_refused`.
 * Real Envoy does neither check.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { adminRequestGuard } from "./request_guard.ts";
 * import { testContext } from "./testing_context.ts";
 * const guard = adminRequestGuard(testContext(), () => "127.0.0.1:9901");
 * const req = new Request("http://127.0.0.1:9901/quitquitquit", {
 *   method: "POST",
 *   headers: { origin: "https://evil.example" },
 * });
 * assert.equal(guard(req, true)?.status, 403);
 * assert.equal(guard(new Request("http://127.0.0.1:9901/ready"), false), null);
 * ```
 * @module
 */
import type { ServerContext } from "../server/context.ts";

/** Decides whether an admin request is refused: the 403 answer, or null to go on. */
export type AdminGuard = (req: Request, mutating: boolean) => Response | null;

/** Status of a refused request. */
export const GUARD_STATUS = 403;

function hostName(hostHeader: string): string {
  const h = hostHeader.trim().toLowerCase();
  if (h.startsWith("[")) {
    const end = h.indexOf("]");
    return end < 0 ? h : h.slice(1, end);
  }
  const colon = h.indexOf(":");
  const name = colon < 0 ? h : h.slice(0, colon);
  return name.endsWith(".") ? name.slice(0, -1) : name;
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

function isIpLiteral(name: string): boolean {
  return IPV4.test(name) || name.includes(":");
}

function isLoopbackName(name: string): boolean {
  return name === "localhost" || name.endsWith(".localhost") || name === "::1" ||
    (IPV4.test(name) && name.startsWith("127."));
}

function machineName(): string {
  try {
    return Deno.hostname().toLowerCase();
  } catch {
    return "";
  }
}

/**
 * Whether `host` (a `Host` header value) names the admin listener bound at `bound` (`ip:port`,
 * `[ipv6]:port`, or a pipe path).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hostAllowed } from "./request_guard.ts";
 * assert.equal(hostAllowed("localhost:9901", "127.0.0.1:9901"), true);
 * assert.equal(hostAllowed("evil.example", "127.0.0.1:9901"), false);
 * assert.equal(hostAllowed("10.1.2.3:9901", "0.0.0.0:9901"), true);
 * ```
 */
export function hostAllowed(host: string, bound: string | undefined, machine = machineName()) {
  const name = hostName(host);
  if (isLoopbackName(name)) return true;
  if (machine !== "" && name === machine) return true;
  if (bound === undefined || bound.startsWith("/")) return false;
  const boundName = hostName(bound);
  if (name === boundName) return true;
  return isIpLiteral(name) && (boundName === "0.0.0.0" || boundName === "::");
}

function crossSite(req: Request): string | null {
  if (req.headers.get("sec-fetch-site")?.trim().toLowerCase() === "cross-site") {
    return "Sec-Fetch-Site: cross-site";
  }
  const origin = req.headers.get("origin");
  if (origin === null) return null;
  const host = req.headers.get("host") ?? new URL(req.url).host;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return `Origin ${origin}`;
  }
  return originHost.toLowerCase() === host.trim().toLowerCase() ? null : `Origin ${origin}`;
}

/**
 * The guard of an admin listener; `bound()` is its address once bound. Refusals are counted in
 * the server's stats.
 */
export function adminRequestGuard(
  server: ServerContext,
  bound: () => string | undefined,
): AdminGuard {
  const scope = server.stats.scope("http").scope("admin");
  const refuse = (counter: string, body: string) => {
    scope.counter(counter).inc();
    return new Response(body, {
      status: GUARD_STATUS,
      headers: { "content-type": "text/plain; charset=UTF-8" },
    });
  };
  return (req, mutating) => {
    const host = req.headers.get("host");
    if (host !== null && !hostAllowed(host, bound())) {
      return refuse(
        "downstream_rq_host_refused",
        `Host ${JSON.stringify(host)} does not name this admin listener\n`,
      );
    }
    if (mutating) {
      const why = crossSite(req);
      if (why !== null) {
        return refuse(
          "downstream_rq_cross_site_refused",
          `cross-site request refused (${why}); admin mutations are not accepted from web pages\n`,
        );
      }
    }
    return null;
  };
}
