/**
 * Bootstrap files for command-line and configuration cases: a minimal valid cluster, and a
 * writer that puts a bootstrap object in the case's temporary directory as JSON (a suffix every
 * implementation parses as JSON).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { baseCluster } from "./bootstrap_files.ts";
 * const c = baseCluster("c1");
 * assert.equal(c.name, "c1");
 * ```
 * @module
 */
import type { CaseContext } from "../types.ts";

/** A JSON object. */
export type Obj = Record<string, unknown>;

/**
 * A minimal valid STATIC cluster with one member.
 *
 * @param name the cluster name
 * @returns a proto3 JSON Cluster
 */
export function baseCluster(name = "conformance_cluster"): Obj {
  return {
    name,
    type: "STATIC",
    connect_timeout: "1s",
    load_assignment: {
      cluster_name: name,
      endpoints: [{
        lb_endpoints: [{
          endpoint: { address: { socket_address: { address: "127.0.0.1", port_value: 8080 } } },
        }],
      }],
    },
  };
}

let serial = 0;

/** One temporary directory per case for its bootstraps (each a file of its own in it). */
const dirs = new WeakMap<CaseContext, Promise<string>>();

/**
 * Writes a bootstrap as JSON in the case's temporary directory.
 *
 * @param ctx the case context
 * @param bootstrap the bootstrap object
 * @returns the file path
 */
export async function writeBootstrap(ctx: CaseContext, bootstrap: Obj): Promise<string> {
  let made = dirs.get(ctx);
  if (made === undefined) dirs.set(ctx, made = ctx.tempDir());
  const dir = await made;
  const file = `${dir}/bootstrap_${++serial}.json`;
  await Deno.writeTextFile(file, JSON.stringify(bootstrap, null, 1));
  return file;
}
