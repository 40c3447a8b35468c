/**
 * Test fixture: a cluster `o` of one loopback member whose upstream protocol is set by typed
 * HTTP protocol options, for the tests of `upstream_http_options.ts` and of the upstream
 * protocol through a proxy.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { protocolCluster } from "./protocol_test_cluster.ts";
 * const c = protocolCluster(8080, { explicit_http_config: { http2_protocol_options: {} } });
 * assert.equal(c.name, "o");
 * ```
 * @module
 */
import type { JsonObject } from "./bootstrap_types.ts";
import { HTTP_PROTOCOL_OPTIONS, HTTP_PROTOCOL_OPTIONS_TYPE } from "./upstream_http_options.ts";

/** Cluster `o`: one member on 127.0.0.1:`port`, these typed HTTP protocol options, `extra` on top. */
export function protocolCluster(
  port: number,
  options: JsonObject,
  extra: JsonObject = {},
): JsonObject {
  return {
    name: "o",
    connect_timeout: "1s",
    typed_extension_protocol_options: {
      [HTTP_PROTOCOL_OPTIONS]: { "@type": HTTP_PROTOCOL_OPTIONS_TYPE, ...options },
    },
    load_assignment: {
      cluster_name: "o",
      endpoints: [{
        lb_endpoints: [{
          endpoint: { address: { socket_address: { address: "127.0.0.1", port_value: port } } },
        }],
      }],
    },
    ...extra,
  };
}
