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
import { openTransport, type Transport } from "../transport.ts";
import type { TcpCheckerConfig } from "./health_check_config.ts";
import {
  type Checker,
  type CheckResult,
  type CheckSession,
  type Endpoint,
  networkFailure,
} from "./checker.ts";

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

class TcpSession implements CheckSession {
  #t: Transport | null = null;
  constructor(readonly c: TcpCheckerConfig, readonly e: Endpoint, readonly reuse: boolean) {}

  async run(signal: AbortSignal): Promise<CheckResult> {
    const onAbort = () => this.close();
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      if (!this.#t) {
        const fresh = await openTransport({
          address: this.e.address,
          port: this.e.port,
          tls: this.e.tls,
          timeoutMs: 0,
          bind: this.e.bind,
          ...(this.e.alpn ? { alpn: this.e.alpn } : {}),
        });
        if (signal.aborted) {
          fresh.close();
          return networkFailure("aborted");
        }
        this.#t = fresh;
      }
      const t = this.#t;
      if (this.c.send) await t.write(this.c.send);
      if (this.c.receive.length > 0) {
        let data = new Uint8Array(0);
        const buf = new Uint8Array(16 * 1024);
        while (!fuzzyMatch(data, this.c.receive)) {
          const n = await t.read(buf);
          if (n === null) {
            this.close();
            return networkFailure("connection closed before the expected payload");
          }
          const next = new Uint8Array(data.length + n);
          next.set(data);
          next.set(buf.subarray(0, n), data.length);
          data = next;
        }
      }
      if (!this.reuse || (!this.c.send && this.c.receive.length === 0)) this.close();
      return { ok: true, degraded: false };
    } catch (e) {
      // A timed-out check may fail after the next one opened a new connection: keep that one.
      if (!signal.aborted) this.close();
      return networkFailure(e instanceof Error ? e.message : String(e));
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
  }

  close(): void {
    const t = this.#t;
    this.#t = null;
    try {
      t?.close();
    } catch { /* already closed */ }
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
