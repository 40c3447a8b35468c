/**
 * The internal (upgraded, v3-shaped, proto3 JSON) form of a bootstrap after loading. Loading
 * (`src/config/bootstrap.ts`) accepts v2 and v3 spellings and produces this shape; nested
 * configuration the loader does not model stays as plain JSON objects.
 *
 * @module
 */

/** A JSON object as loaded from YAML or JSON. */
export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
/** A JSON object. */
export type JsonObject = { [k: string]: Json };

/** `core.SocketAddress`. */
export interface SocketAddress {
  address: string;
  port_value?: number;
  named_port?: string;
  protocol?: "TCP" | "UDP";
}

/** `core.Address`. */
export interface Address {
  socket_address?: SocketAddress;
  pipe?: { path: string; mode?: number };
}

/** The bootstrap's `admin` block. */
export interface AdminConfig {
  access_log_path?: string;
  /** v3 access loggers of admin requests. */
  access_log?: JsonObject[];
  profile_path?: string;
  address?: Address;
}

/** The bootstrap's `node` block. */
export interface NodeConfig {
  id?: string;
  cluster?: string;
  locality?: { region?: string; zone?: string; sub_zone?: string };
  metadata?: JsonObject;
  user_agent_name?: string;
  [k: string]: Json | undefined;
}

/** A runtime layer of `layered_runtime`. */
export interface RuntimeLayer {
  name: string;
  static_layer?: JsonObject;
  disk_layer?: { symlink_root?: string; subdirectory?: string; append_service_cluster?: boolean };
  admin_layer?: JsonObject;
  rtds_layer?: JsonObject;
}

/** The loaded bootstrap. Clusters and listeners are validated elsewhere and kept as JSON. */
export interface Bootstrap {
  node?: NodeConfig;
  static_resources?: { listeners?: JsonObject[]; clusters?: JsonObject[]; secrets?: JsonObject[] };
  dynamic_resources?: JsonObject;
  cluster_manager?: JsonObject;
  stats_sinks?: JsonObject[];
  stats_config?: JsonObject;
  /** Duration string, default `5s`. */
  stats_flush_interval?: string;
  stats_flush_on_admin?: boolean;
  layered_runtime?: { layers?: RuntimeLayer[] };
  admin?: AdminConfig;
  [k: string]: Json | undefined | unknown;
}
