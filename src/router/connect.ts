/**
 * CONNECT ended at the proxy (a route's CONNECT `upgrade_config` with `connect_config`): a host
 * of the route's cluster is chosen, a connection opened to it (TLS when the cluster says so),
 * the client answered `200` and from then on the bytes are copied both ways until either side
 * closes. A host that cannot be reached answers `503` (`UF`), as Envoy's TCP upstream does.
 *
 * @example Not run: it needs a cluster and a downstream connection.
 * ```ts ignore
 * import { terminateConnect } from "./connect.ts";
 * const res = await terminateConnect(cluster, ur, takeover);
 * ```
 * @module
 */
import type { Cluster } from "../upstream/cluster.ts";
import type { UpstreamRequest } from "../upstream/upstream_request.ts";
import { HeaderMap } from "../http/header_map.ts";
import type { ProxyResponse } from "../http/proxy_response.ts";
import { isTransport, openTunnel, pump, upstreamBytes } from "./upgrade.ts";

/** Opens a tunnel for the CONNECT request `ur` to a host of `cluster`. */
export async function terminateConnect(
  cluster: Cluster,
  ur: UpstreamRequest,
  takeover: () => ReadableStream<Uint8Array>,
): Promise<ProxyResponse> {
  const t = await openTunnel(cluster, ur);
  if (!isTransport(t)) return t;
  cluster.stats.responseCode(200);
  pump(takeover(), t);
  return { status: 200, headers: new HeaderMap(), body: upstreamBytes(t, new Uint8Array(0), -1) };
}
