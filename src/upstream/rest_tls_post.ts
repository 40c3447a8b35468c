/**
 * The POST of a REST xDS poll over TLS, for a control-plane cluster with a TLS transport socket:
 * each poll connects through the proxy's upstream transport (`transport.ts`: the cluster's
 * trusted CA and SNI, its client certificate for mTLS, no verification without a CA, as for any
 * upstream of that cluster), offers ALPN `http/1.1`, sends one HTTP/1.1 request with
 * `connection: close` and reads the whole answer (`http1_connection.ts`). Aborting the signal
 * closes the connection, which ends a poll in progress.
 *
 * @example Not run: it needs a REST control plane over TLS (`deno task xds-server --tls-cert`).
 * ```ts ignore
 * import { tlsPost } from "./rest_tls_post.ts";
 * const post = tlsPost("127.0.0.1", 18000, { sni: "cp.example", trustedCa: [ca] }, 1000);
 * const r = await post("/v3/discovery:clusters", "{}", new AbortController().signal);
 * console.log(r.status, r.text);
 * ```
 * @module
 */
import type { EffectiveTls } from "../config/effective_cluster.ts";
import { Http1Connection } from "./http1_connection.ts";
import { openTransport } from "./transport.ts";

/** One poll's request: POST `body` (JSON) to `path`; the answer's status and text. */
export type RestPost = (
  path: string,
  body: string,
  signal: AbortSignal,
) => Promise<{ status: number; text: string }>;

/** Read buffer of a poll's connection (bounds the response head, not the body). */
const BUFFER = 64 * 1024;

/**
 * Polls `address:port` over TLS with the cluster's settings `tls`, connecting within
 * `connectTimeoutMs`.
 *
 * @param address the control plane's address
 * @param port its port
 * @param tls the cluster's upstream TLS settings
 * @param connectTimeoutMs the cluster's `connect_timeout`
 * @returns a poster for {@linkcode restOpener}'s `post` option
 */
export function tlsPost(
  address: string,
  port: number,
  tls: EffectiveTls,
  connectTimeoutMs: number,
): RestPost {
  const authority = `${tls.sni || (address.includes(":") ? `[${address}]` : address)}:${port}`;
  return async (path, body, signal) => {
    signal.throwIfAborted();
    const transport = await openTransport({
      address,
      port,
      tls,
      timeoutMs: connectTimeoutMs,
      alpn: ["http/1.1"],
    });
    const conn = new Http1Connection(transport, BUFFER);
    const abort = () => conn.close();
    signal.addEventListener("abort", abort, { once: true });
    try {
      const bytes = new TextEncoder().encode(body);
      await conn.writeHead(
        `POST ${path} HTTP/1.1\r\nhost: ${authority}\r\ncontent-type: application/json\r\n` +
          `content-length: ${bytes.length}\r\nconnection: close\r\n\r\n`,
      );
      await conn.writeAll(bytes);
      const head = await conn.readHead("POST");
      const parts: Uint8Array[] = [];
      for (let b = await conn.readBody(); b; b = await conn.readBody()) parts.push(b);
      const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
      let off = 0;
      for (const p of parts) {
        all.set(p, off);
        off += p.length;
      }
      return { status: head.status, text: new TextDecoder().decode(all) };
    } catch (e) {
      signal.throwIfAborted();
      throw e;
    } finally {
      signal.removeEventListener("abort", abort);
      conn.close();
    }
  };
}
