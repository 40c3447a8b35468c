/**
 * The connection side of a check over a plain or TLS transport, shared by the HTTP/1.1 and TCP
 * checkers: the transport is opened on the first check (with the cluster's TLS, ALPN and bind
 * address), kept between checks with `reuse`, and closed after any failure or abort. A timed-out
 * check that fails after the next one opened a new connection leaves that connection alone.
 *
 * @example Not run: it needs an endpoint to connect to.
 * ```ts ignore
 * class Probe extends TransportCheckSession<Transport> {
 *   protected wrap(t: Transport) { return t; }
 *   protected async check(t: Transport) {
 *     return { result: { ok: true, degraded: false }, keep: true };
 *   }
 * }
 * ```
 * @module
 */
import { openTransport, type Transport } from "../transport.ts";
import { type CheckResult, type CheckSession, type Endpoint, networkFailure } from "./checker.ts";

/** What one check on an open connection gives: its result, and whether to keep the connection. */
export interface ConnectionCheck {
  result: CheckResult;
  keep: boolean;
}

/** A check session over a connection `C` built on the endpoint's transport. */
export abstract class TransportCheckSession<C extends { close(): void }> implements CheckSession {
  #conn: C | null = null;
  constructor(readonly e: Endpoint, readonly reuse: boolean) {}

  /** The connection a check talks over, built on a freshly opened transport. */
  protected abstract wrap(t: Transport): C;
  /** Runs one check over `conn`; throwing is a network failure. */
  protected abstract check(conn: C): Promise<ConnectionCheck>;

  async run(signal: AbortSignal): Promise<CheckResult> {
    const onAbort = () => this.close();
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      if (!this.#conn) {
        const t = await openTransport({
          address: this.e.address,
          port: this.e.port,
          tls: this.e.tls,
          timeoutMs: 0,
          bind: this.e.bind,
          ...(this.e.alpn ? { alpn: this.e.alpn } : {}),
        });
        if (signal.aborted) {
          t.close();
          return networkFailure("aborted");
        }
        this.#conn = this.wrap(t);
      }
      const { result, keep } = await this.check(this.#conn);
      if (!keep || !this.reuse) this.close();
      return result;
    } catch (e) {
      if (!signal.aborted) this.close();
      return networkFailure(e instanceof Error ? e.message : String(e));
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
  }

  close(): void {
    const c = this.#conn;
    this.#conn = null;
    try {
      c?.close();
    } catch { /* already closed */ }
  }
}
