/**
 * TCP health checks: connect (over the cluster's transport and source address); with no `send`
 * payload a completed connection passes. Otherwise the `send` bytes are written and the answer is
 * read until every `receive` block has been found in order (Envoy's "fuzzy" match: blocks need
 * not be contiguous). A closed connection before that is a network failure.
 *
 * @example Not run: it needs an upstream server to connect to (`endpoint`).
 * ```ts ignore
 * import { TcpChecker } from "./tcp_health_checker.ts";
 * const s = new TcpChecker(config, true).session(endpoint);
 * console.log(await s.run(AbortSignal.timeout(1000)));
 * ```
 * @module
 */
import type { Transport } from "../transport.ts";
import { type ConnectionCheck, TransportCheckSession } from "./transport_session.ts";
import type { TcpCheckerConfig } from "./health_check_config.ts";
import { type Checker, type CheckSession, type Endpoint, networkFailure } from "./checker.ts";

function indexOf(hay: Uint8Array, needle: Uint8Array, from: number): number {
  outer: for (let i = from; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** True when every block of `blocks` occurs in `data`, in order, without overlapping. */
export function fuzzyMatch(data: Uint8Array, blocks: readonly Uint8Array[]): boolean {
  let at = 0;
  for (const b of blocks) {
    const i = indexOf(data, b, at);
    if (i < 0) return false;
    at = i + b.length;
  }
  return true;
}

class TcpSession extends TransportCheckSession<Transport> {
  constructor(readonly c: TcpCheckerConfig, e: Endpoint, reuse: boolean) {
    super(e, reuse);
  }

  protected wrap(t: Transport): Transport {
    return t;
  }

  protected async check(t: Transport): Promise<ConnectionCheck> {
    if (this.c.send) await t.write(this.c.send);
    if (this.c.receive.length > 0) {
      let data = new Uint8Array(0);
      const buf = new Uint8Array(16 * 1024);
      while (!fuzzyMatch(data, this.c.receive)) {
        const n = await t.read(buf);
        if (n === null) {
          return {
            result: networkFailure("connection closed before the expected payload"),
            keep: false,
          };
        }
        const next = new Uint8Array(data.length + n);
        next.set(data);
        next.set(buf.subarray(0, n), data.length);
        data = next;
      }
    }
    // A connect-only check closes its connection every time.
    return {
      result: { ok: true, degraded: false },
      keep: !!this.c.send || this.c.receive.length > 0,
    };
  }
}

/** The TCP checker. */
export class TcpChecker implements Checker {
  readonly type = "TCP" as const;
  /** Checks with `c`; `reuse` keeps the connection between checks. */
  constructor(readonly c: TcpCheckerConfig, readonly reuse: boolean) {}

  session(e: Endpoint): CheckSession {
    return new TcpSession(this.c, e, this.reuse);
  }
}
