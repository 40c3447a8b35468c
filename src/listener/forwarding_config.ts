/**
 * Reads the connection manager's forwarding and trust settings: `use_remote_address`,
 * `xff_num_trusted_hops`, `skip_xff_append` and `internal_address_config` (`cidr_ranges`;
 * `unix_sockets` has nothing to act on, as no listener accepts Unix socket connections).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseForwarding } from "./forwarding_config.ts";
 * const errors: { path: string; rule: string; message: string }[] = [];
 * const f = parseForwarding({
 *   use_remote_address: true,
 *   xff_num_trusted_hops: 1,
 *   internal_address_config: { cidr_ranges: [{ address_prefix: "10.0.0.0", prefix_len: 8 }] },
 * }, "hcm", errors);
 * assert.equal(f.xffNumTrustedHops, 1);
 * assert.equal(f.internalRanges?.length, 1);
 * assert.equal(errors.length, 0);
 * ```
 * @module
 */
import type { JsonObject } from "../config/bootstrap_types.ts";
import { type Errors, fail, isObject, unwrap } from "../config/config_values.ts";
import { type Cidr, parseCidr } from "../http/cidr.ts";
import type { ForwardingConfig } from "../http/internal_headers.ts";

function bool(v: unknown, path: string, errors: Errors): boolean {
  const x = unwrap(v as JsonObject[string]);
  if (x === undefined || x === null) return false;
  if (typeof x !== "boolean") {
    fail(errors, path, `must be a boolean, got ${JSON.stringify(x)}`);
    return false;
  }
  return x;
}

/** Parses the settings from the connection manager's configuration `c` (found at `path`). */
export function parseForwarding(c: JsonObject, path: string, errors: Errors): ForwardingConfig {
  const hopsRaw = unwrap(c.xff_num_trusted_hops);
  let hops = 0;
  if (hopsRaw !== undefined && hopsRaw !== null) {
    const n = typeof hopsRaw === "string" && /^\d+$/.test(hopsRaw) ? Number(hopsRaw) : hopsRaw;
    if (typeof n !== "number" || !Number.isInteger(n) || n < 0 || n > 4294967295) {
      fail(errors, `${path}.xff_num_trusted_hops`, `must be an unsigned integer`);
    } else hops = n;
  }
  let ranges: Cidr[] | null = null;
  const iac = c.internal_address_config;
  const at = `${path}.internal_address_config`;
  if (iac !== undefined && iac !== null) {
    if (!isObject(iac)) fail(errors, at, "internal_address_config must be an object");
    else {
      bool(iac.unix_sockets, `${at}.unix_sockets`, errors);
      const list = iac.cidr_ranges ?? [];
      if (!Array.isArray(list)) fail(errors, `${at}.cidr_ranges`, "cidr_ranges must be a list");
      else {
        ranges = [];
        list.forEach((r, i) => {
          const p = `${at}.cidr_ranges[${i}]`;
          const len = isObject(r) ? unwrap(r.prefix_len) ?? 0 : 0;
          const cidr = isObject(r) && typeof r.address_prefix === "string" &&
              typeof len === "number"
            ? parseCidr(r.address_prefix, len)
            : null;
          if (cidr === null) {
            fail(errors, p, `invalid CIDR range ${JSON.stringify(r)} (address_prefix, prefix_len)`);
          } else ranges!.push(cidr);
        });
      }
    }
  }
  return {
    useRemoteAddress: bool(c.use_remote_address, `${path}.use_remote_address`, errors),
    xffNumTrustedHops: hops,
    skipXffAppend: bool(c.skip_xff_append, `${path}.skip_xff_append`, errors),
    internalRanges: ranges,
  };
}
