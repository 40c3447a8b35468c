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
import { openTransport, type Transport } from "../upstream/transport.ts";
import { HeaderMap } from "../http/header_map.ts";
import { localReply, NO_HEALTHY_UPSTREAM, resetBody } from "../http/local_reply.ts";
import type { ProxyResponse } from "../http/proxy_response.ts";
import { pump, upstreamBytes } from "./upgrade.ts";

/** Opens a tunnel for the CONNECT request `ur` to a host of `cluster`. */
export async function terminateConnect(
  cluster: Cluster,
  ur: UpstreamRequest,
  takeover: () => ReadableStream<Uint8Array>,
): Promise<ProxyResponse> {
  const host = cluster.lb.choose(ur.lb ?? {});
  if (!host) {
    cluster.stats.cx_none_healthy.inc();
    return localReply(503, NO_HEALTHY_UPSTREAM);
  }
  ur.upstream = host;
  cluster.stats.rq_total.inc();
  host.stats.rq_total.inc();
  let t: Transport;
  try {
    t = await openTransport({
      address: host.address,
      port: host.port,
      tls: cluster.effective.tls,
      timeoutMs: cluster.effective.connectTimeoutMs,
      bind: cluster.effective.upstreamBind,
    });
  } catch {
    cluster.stats.cx_connect_fail.inc();
    cluster.stats.responseCode(503);
    return localReply(503, resetBody("connection failure"));
  }
  cluster.stats.responseCode(200);
  pump(takeover(), t);
  return { status: 200, headers: new HeaderMap(), body: upstreamBytes(t, new Uint8Array(0), -1) };
}
