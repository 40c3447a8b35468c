/**
 * The effective form of a validated cluster: every value after defaults, in the units the proxy
 * core uses. `defaults.ts` builds it from the spec tables; the proxy core reads only this.
 *
 * @module
 */
import type { DiscoveryType } from "../../spec/rule.ts";
import type { JsonObject } from "./bootstrap_types.ts";

/** Circuit-breaker thresholds of one priority. */
export interface Thresholds {
  priority: "DEFAULT" | "HIGH";
  max_connections: number;
  max_pending_requests: number;
  max_requests: number;
  max_retries: number;
}

/** One endpoint of a cluster, from `load_assignment` (or the deprecated `hosts`). */
export interface EffectiveHost {
  address: string;
  port: number;
  hostname: string;
  weight: number;
  priority: number;
  region: string;
  zone: string;
  sub_zone: string;
  /** `proxy.lb` / `envoy.lb` endpoint metadata, for subsets. */
  metadata: JsonObject;
  /** EDS health status from the configuration, when given. */
  health_status?: string;
}

/** Upstream TLS settings from `tls_context` or a v3 `transport_socket`. */
export interface EffectiveTls {
  sni?: string;
  /** PEM CA certificates; verification happens only when present. */
  trustedCa?: string[];
  certChain?: string;
  privateKey?: string;
  alpn?: string[];
}

/** A cluster with every default applied. */
export interface EffectiveCluster {
  name: string;
  /** `alt_stat_name` or `name`, `:` turned into `_`. */
  statName: string;
  type: DiscoveryType;
  /** `cluster_type.name` for custom clusters. */
  customType?: string;
  lbPolicy: string;
  connectTimeoutMs: number;
  perConnectionBufferLimitBytes: number;
  /** 0 = no limit. */
  maxRequestsPerConnection: number;
  hosts: EffectiveHost[];
  /** DEFAULT then HIGH. */
  thresholds: [Thresholds, Thresholds];
  http2: boolean;
  protocolSelection: "USE_CONFIGURED_PROTOCOL" | "USE_DOWNSTREAM_PROTOCOL";
  tls: EffectiveTls | null;
  upstreamBind: { address: string; port: number } | null;
  tcpKeepalive: { probes?: number; time?: number; interval?: number } | null;
  dnsRefreshRateMs: number;
  respectDnsTtl: boolean;
  dnsLookupFamily: "AUTO" | "V4_ONLY" | "V6_ONLY";
  cleanupIntervalMs: number;
  healthyPanicThreshold: number;
  updateMergeWindowMs: number;
  /** `common_lb_config.ignore_new_hosts_until_first_hc`. */
  ignoreNewHostsUntilFirstHc: boolean;
  ringHash: { minimumRingSize: number; maximumRingSize: number; hashFunction: string };
  leastRequest: { choiceCount: number };
  useHttpHeader: boolean;
  healthChecks: JsonObject[];
  outlierDetection: JsonObject | null;
  closeConnectionsOnHostHealthFailure: boolean;
  drainConnectionsOnHostRemoval: boolean;
  /** The cluster as configured. */
  config: JsonObject;
}
