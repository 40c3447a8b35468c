/**
 * The admin listener: serves the admin router where the bootstrap's `admin.address` says
 * (`socket_address` with `address` and `port_value`, port 0 picking a free port; or a `pipe`
 * path), and writes `<ip>:<port>` (no newline) to `--admin-address-path` when given. A bootstrap
 * without an `admin` address has no admin listener. Binding errors name the address.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { startAdminListener } from "./admin_listener.ts";
 * const admin = await startAdminListener(
 *   { address: { socket_address: { address: "127.0.0.1", port_value: 0 } } },
 *   () => Promise.resolve(new Response("LIVE\n")),
 *   "",
 * );
 * const res = await fetch(`http://${admin!.address}/ready`);
 * assert.equal(await res.text(), "LIVE\n");
 * await admin!.close();
 * ```
 * @module
 */
import type { AdminConfig } from "../config/bootstrap_types.ts";
import type { AdminRoute } from "./router.ts";
import { hostPort } from "../upstream/host.ts";

/** A running admin listener. */
export interface AdminListener {
  /** `ip:port` (IPv6 in brackets), or the pipe path. */
  address: string;
  port: number;
  /** Stops accepting, finishes in-flight answers, then resolves. */
  close(): Promise<void>;
}

/** Starts the admin listener, or returns null when the bootstrap configures none. */
export async function startAdminListener(
  admin: AdminConfig | undefined,
  route: AdminRoute,
  addressPath: string,
): Promise<AdminListener | null> {
  const sa = admin?.address?.socket_address;
  const pipe = admin?.address?.pipe;
  if (!sa && !pipe) return null;
  let server: Deno.HttpServer;
  let address: string, port = 0;
  const onError = (e: unknown) => {
    const msg = e instanceof Error ? e.message : String(e);
    return new Response(`admin error: ${msg}\n`, { status: 500 });
  };
  if (sa) {
    const hostname = sa.address || "127.0.0.1";
    const wanted = sa.port_value ?? 0;
    if (!Number.isInteger(wanted) || wanted < 0 || wanted > 65535) {
      throw new Error(`admin.address.socket_address.port_value: invalid port ${wanted}`);
    }
    try {
      server = Deno.serve({ hostname, port: wanted, onListen() {}, onError }, route);
    } catch (e) {
      throw new Error(
        `admin.address.socket_address: cannot listen on ${hostPort(hostname, wanted)}: ${
          e instanceof Error ? e.message : e
        }`,
      );
    }
    const addr = server.addr as Deno.NetAddr;
    port = addr.port;
    address = hostPort(addr.hostname, addr.port);
  } else {
    const path = pipe!.path;
    try {
      server = Deno.serve({ path, onListen() {}, onError }, route);
    } catch (e) {
      throw new Error(
        `admin.address.pipe: cannot listen on ${path}: ${e instanceof Error ? e.message : e}`,
      );
    }
    address = path;
  }
  if (addressPath) {
    try {
      await Deno.writeTextFile(addressPath, address);
    } catch (e) {
      await server.shutdown();
      throw new Error(
        `--admin-address-path: cannot write ${addressPath}: ${e instanceof Error ? e.message : e}`,
      );
    }
  }
  return { address, port, close: () => server.shutdown() };
}
