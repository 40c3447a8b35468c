/**
 * HTTP/2 health checks (`codec_client_type: HTTP2`): the same request and judgement as the
 * HTTP/1.1 checker (see `http_health_checker.ts`), sent as one stream of a `node:http2` client
 * session (prior knowledge in clear text, ALPN `h2` over TLS), from the cluster's source address.
 * With `reuse_connection` the session stays open between checks.
 *
 * @example Not run: it needs an upstream HTTP/2 server to check (`endpoint`).
 * ```ts ignore
 * import { Http2Checker } from "./http2_health_checker.ts";
 * const s = new Http2Checker(config, true, verifyCounter).session(endpoint);
 * console.log(await s.run(AbortSignal.timeout(1000)));
 * ```
 * @module
 */
import type http2 from "node:http2";
import { HTTP2 } from "../http2_module.ts";
import { bindOptions } from "../transport.ts";
import type { HttpCheckerConfig } from "./health_check_config.ts";
import {
  type Checker,
  type CheckResult,
  type CheckSession,
  type Endpoint,
  networkFailure,
} from "./checker.ts";
import { checkRequestHead, judgeResponse } from "./http_health_checker.ts";
import type { Counter } from "../../stats/types.ts";
import { hostPort } from "../host.ts";

/** The request headers of one check, from the HTTP/1.1 head (same rules, one place). */
function requestHeaders(c: HttpCheckerConfig, e: Endpoint): http2.OutgoingHttpHeaders {
  const lines = checkRequestHead(c, e).split("\r\n").slice(1).filter((l) => l !== "");
  const out: http2.OutgoingHttpHeaders = { ":method": "GET", ":path": c.path };
  for (const l of lines) {
    const i = l.indexOf(": ");
    const name = l.slice(0, i);
    const value = l.slice(i + 2);
    if (name === "host") out[":authority"] = value;
    else {
      const prev = out[name];
      out[name] = prev === undefined
        ? value
        : [...(Array.isArray(prev) ? prev : [String(prev)]), value];
    }
  }
  return out;
}

/**
 * An HTTP/2 session to a checked endpoint: TLS when the cluster uses it (its CA, SNI and ALPN,
 * `h2` by default), from the cluster's bind address; session errors end the check, not the
 * process. The HTTP/2 and gRPC checkers share it.
 */
export function connectCheckSession(e: Endpoint): http2.ClientHttp2Session {
  const tls = e.tls;
  const url = `${tls ? "https" : "http"}://${hostPort(e.address, e.port)}`;
  const s = HTTP2.get().connect(url, {
    ...(tls
      ? {
        ca: tls.trustedCa?.length ? tls.trustedCa : undefined,
        rejectUnauthorized: !!tls.trustedCa?.length,
        servername: tls.sni || undefined,
        ALPNProtocols: e.alpn ?? ["h2"],
      }
      : {}),
    ...bindOptions(e.bind),
  } as http2.SecureClientSessionOptions);
  s.on("error", () => {});
  return s;
}

/** Ends one check: its result, and whether the session may be kept for the next one. */
export type FinishCheck = (r: CheckResult, keep: boolean) => void;

/**
 * The session side of an HTTP/2 check, shared by the HTTP/2 and gRPC checkers: one session per
 * endpoint, kept between checks with `reuse` and dropped after any failure; an abort, a session
 * error or close, or a stream error ends the check as a network failure.
 */
export abstract class H2CheckSession implements CheckSession {
  #s: http2.ClientHttp2Session | null = null;
  constructor(readonly e: Endpoint, readonly reuse: boolean) {}

  /** Opens the check's stream on `session` (it may throw) and ends the check through `finish`. */
  protected abstract exchange(
    session: http2.ClientHttp2Session,
    finish: FinishCheck,
  ): http2.ClientHttp2Stream;

  /** `node:http2`, loaded on first use. */
  ready(): Promise<unknown> {
    return HTTP2.load();
  }

  async run(signal: AbortSignal): Promise<CheckResult> {
    if (!HTTP2.loaded) await HTTP2.load();
    return await new Promise<CheckResult>((resolve) => {
      const session = this.#s ??= connectCheckSession(this.e);
      let settled = false;
      const finish: FinishCheck = (r, keep) => {
        if (settled) return;
        settled = true;
        signal.removeEventListener("abort", onAbort);
        if (!keep || !this.reuse) this.#drop(session);
        resolve(r);
      };
      const onAbort = () => finish(networkFailure("aborted"), false);
      signal.addEventListener("abort", onAbort, { once: true });
      session.once("error", (e: Error) => finish(networkFailure(e.message), false));
      session.once("close", () => finish(networkFailure("session closed"), false));
      let stream: http2.ClientHttp2Stream;
      try {
        stream = this.exchange(session, finish);
      } catch (e) {
        finish(networkFailure(e instanceof Error ? e.message : String(e)), false);
        return;
      }
      stream.on("error", (e: Error) => finish(networkFailure(e.message), false));
    });
  }

  #drop(s: http2.ClientHttp2Session) {
    if (this.#s === s) this.#s = null;
    try {
      s.destroy();
    } catch { /* already closed */ }
  }

  close(): void {
    if (this.#s) this.#drop(this.#s);
  }
}

class Http2Session extends H2CheckSession {
  constructor(
    readonly c: HttpCheckerConfig,
    e: Endpoint,
    reuse: boolean,
    readonly verify: Counter,
  ) {
    super(e, reuse);
  }

  protected exchange(
    session: http2.ClientHttp2Session,
    finish: FinishCheck,
  ): http2.ClientHttp2Stream {
    const stream = session.request(requestHeaders(this.c, this.e), { endStream: true });
    stream.on("response", (h) => {
      const status = Number(h[":status"]);
      const list: [string, string][] = [];
      for (const [k, v] of Object.entries(h)) {
        if (k.startsWith(":") || v === undefined) continue;
        for (const x of Array.isArray(v) ? v : [v]) list.push([k, String(x)]);
      }
      stream.resume();
      stream.on("end", () => finish(judgeResponse(this.c, status, list, this.verify), true));
    });
    return stream;
  }
}

/** The HTTP/2 checker. */
export class Http2Checker implements Checker {
  readonly type = "HTTP" as const;
  /** Checks with `c`; `verifyCluster` counts service-name verifications. */
  constructor(
    readonly c: HttpCheckerConfig,
    readonly reuse: boolean,
    readonly verifyCluster: Counter,
  ) {}

  session(e: Endpoint): CheckSession {
    return new Http2Session(this.c, e, this.reuse, this.verifyCluster);
  }
}
