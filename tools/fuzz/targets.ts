/**
 * The fuzz targets by name, for `deno task fuzz`.
 *
 * @module
 */
import type { FuzzTarget } from "./target.ts";
import { ADMIN_TARGET } from "./admin_target.ts";
import { HTTP1_TARGET } from "./http1_target.ts";
import { BOOTSTRAP_TARGET } from "./bootstrap_target.ts";
import { XDS_TARGET } from "./xds_target.ts";

/** Names of the fuzz targets. */
export type TargetName = "admin" | "http1" | "bootstrap" | "xds";

/** Every fuzz target. */
export const TARGETS: Readonly<Record<TargetName, FuzzTarget>> = {
  admin: ADMIN_TARGET,
  http1: HTTP1_TARGET,
  bootstrap: BOOTSTRAP_TARGET,
  xds: XDS_TARGET,
};
