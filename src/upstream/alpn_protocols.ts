/**
 * The upstream protocol of each host of an `auto_config` cluster: learned from one TLS handshake
 * that offers `h2` and `http/1.1` by ALPN, then kept for the host. A host whose server chooses
 * `h2` is sent requests over HTTP/2, any other over HTTP/1.1 (as Envoy's `AutoHttpConfig` with
 * ALPN: the highest protocol the upstream supports). A handshake that fails is not kept: the
 * request goes on over HTTP/1.1, whose own connection attempt fails and is answered as any
 * connection failure, and the next request asks again.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { AlpnProtocols } from "./alpn_protocols.ts";
 * const p = new AlpnProtocols(() => Promise.resolve("h2"));
 * const host = { key: "127.0.0.1:443" };
 * assert.equal(await p.speaksH2(host), true);
 * ```
 * @module
 */

/** Asks a host which protocol its TLS handshake chooses (null: none). */
export type AlpnProbe = (host: { key: string }) => Promise<string | null>;

/** The ALPN offer of the probe: HTTP/2 first, as Envoy offers it for `auto_config`. */
export const AUTO_ALPN = ["h2", "http/1.1"];

/** Per host, whether it speaks HTTP/2. */
export class AlpnProtocols {
  #known = new Map<string, Promise<boolean>>();

  /** Uses `probe` once per host (again after a failed probe). */
  constructor(readonly probe: AlpnProbe) {}

  /** Whether `host` chose `h2`; asks it the first time. */
  speaksH2(host: { key: string }): Promise<boolean> {
    let p = this.#known.get(host.key);
    if (p === undefined) {
      p = this.probe(host).then((proto) => proto === "h2", () => {
        this.#known.delete(host.key);
        return false;
      });
      this.#known.set(host.key, p);
    }
    return p;
  }

  /** Forgets `host` (it left the cluster). */
  forget(host: { key: string }): void {
    this.#known.delete(host.key);
  }
}
