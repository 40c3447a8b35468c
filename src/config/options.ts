/**
 * The parsed command line: one typed object. Every key is an option's long name without its
 * leading dashes, with `-` turned into `_` (`--drain-time-s` -> `drain_time_s`), so the key of
 * every row of `spec/cli/options.ts` is derived, not restated. `/server_info` renders
 * `command_line_options` from these values through the rows' `field` column.
 *
 * @module
 */

/** The parsed command line. */
export interface Options {
  /** Which option set was parsed: the newer (default) or the older `v2` one. */
  variant: "new" | "v2";
  config_path: string;
  config_yaml: string;
  /** `null` when unset: load as the previous API version and upgrade, then as the latest. */
  bootstrap_version: number | null;
  mode: "serve" | "validate" | "init_only";
  admin_address_path: string;
  local_address_ip_version: "v4" | "v6";
  base_id: number;
  use_dynamic_base_id: boolean;
  base_id_path: string;
  concurrency: number;
  log_level: string;
  component_log_level: string;
  cpuset_threads: boolean;
  log_path: string;
  log_format: string;
  log_format_escaped: boolean;
  restart_epoch: number;
  enable_fine_grain_logging: boolean;
  socket_path: string;
  socket_mode: number;
  hot_restart_version: boolean;
  service_cluster: string;
  service_node: string;
  service_zone: string;
  file_flush_interval_msec: number;
  drain_time_s: number;
  drain_strategy: "gradual" | "immediate";
  parent_shutdown_time_s: number;
  disable_hot_restart: boolean;
  enable_mutex_tracing: boolean;
  allow_unknown_fields: boolean;
  allow_unknown_static_fields: boolean;
  reject_unknown_dynamic_fields: boolean;
  ignore_unknown_dynamic_fields: boolean;
  disable_extensions: string[];
  version: boolean;
  enable_core_dump: boolean;
}
