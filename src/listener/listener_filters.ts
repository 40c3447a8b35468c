/**
 * A listener's `listener_filters`: `tls_inspector`, `http_inspector` and `original_dst`
 * (`envoy.` / `proxy.` names, `envoy.filters.listener.` spellings), and
 * `listener_filters_timeout` (default 15 s) with `continue_on_listener_filters_timeout`. Any
 * other listener filter is an error.
 *
 * `original_dst` restores the connection's local address to the destination the client
 * addressed before netfilter redirected it (`SO_ORIGINAL_DST`), as Envoy's filter does: filter
 * chain matching, `ORIGINAL_DST` clusters and `%DOWNSTREAM_LOCAL_ADDRESS%` then see it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseListenerFilters } from "./listener_filters.ts";
 * const errors: { path: string; rule: string; message: string }[] = [];
 * const f = parseListenerFilters({ listener_filters: [{ name: "envoy.filters.listener.tls_inspector" }] }, "l", errors);
 * assert.deepEqual([f.tls, f.http, f.originalDst, errors.length], [true, false, false, 0]);
 * ```
 * @module
 */
import type { JsonObject } from "../config/bootstrap_types.ts";
import {
  durationMs,
  type Errors,
  fail,
  filterKind,
  isObject,
  typeName,
  unwrap,
} from "../config/config_values.ts";
import { libc } from "../platform/libc.ts";

/** Why a listener cannot learn original destinations here (said at the setting's path). */
export const ORIGINAL_DST_UNREADABLE =
  "the original destination (SO_ORIGINAL_DST) is read through the C library: it needs Linux " +
  "and the ffi permission (deno run -A)";

/** Whether this process can read a connection's original destination. */
export function originalDestinationReadable(): boolean {
  return libc() !== null;
}

/**
 * Refuses what a listener filter entry sets beyond its name and filter: this build's listener
 * filters have no settings (TLS fingerprints, read buffer sizes, `filter_disabled` matchers and
 * discovered configurations are not built), so none may be accepted and dropped.
 */
function refuseSettings(f: JsonObject, at: string, errors: Errors): void {
  for (const k of Object.keys(f)) {
    if (k !== "name" && k !== "typed_config") {
      fail(errors, `${at}.${k}`, `${k} is not supported by this build`);
    }
  }
  const tc = f.typed_config;
  if (!isObject(tc)) return;
  for (const k of Object.keys(tc)) {
    if (k === "@type") continue;
    fail(errors, `${at}.typed_config.${k}`, `${k} is not supported by this build`);
  }
}

/** The inspectors a listener runs before choosing a filter chain. */
export interface ListenerFilters {
  tls: boolean;
  http: boolean;
  /** `original_dst`: the local address is the connection's original destination. */
  originalDst: boolean;
  timeoutMs: number;
  continueOnTimeout: boolean;
}

/** Parses the listener filters of listener `l` (at `path`). */
export function parseListenerFilters(l: JsonObject, path: string, errors: Errors): ListenerFilters {
  const out: ListenerFilters = {
    tls: false,
    http: false,
    originalDst: false,
    timeoutMs: 15_000,
    continueOnTimeout: false,
  };
  const lf = l.listener_filters;
  if (Array.isArray(lf)) {
    lf.forEach((f, i) => {
      const at = `${path}.listener_filters[${i}]`;
      if (!isObject(f) || typeof f.name !== "string") {
        return fail(errors, `${at}.name`, "listener filter needs a name");
      }
      const kind = filterKind(f.name);
      const t = typeName(f);
      refuseSettings(f, at, errors);
      if (kind === "tls_inspector" || t === "TlsInspector") out.tls = true;
      else if (kind === "http_inspector" || t === "HttpInspector") out.http = true;
      else if (kind === "original_dst" || t === "OriginalDst") {
        if (!originalDestinationReadable()) fail(errors, `${at}.name`, ORIGINAL_DST_UNREADABLE);
        out.originalDst = true;
      } else {
        fail(
          errors,
          `${at}.name`,
          `listener filter ${f.name} is not supported (tls_inspector, http_inspector, original_dst)`,
        );
      }
    });
  }
  if (l.listener_filters_timeout !== undefined) {
    const ms = durationMs(l.listener_filters_timeout, `${path}.listener_filters_timeout`, errors);
    if (ms !== null) out.timeoutMs = ms;
  }
  out.continueOnTimeout = unwrap(l.continue_on_listener_filters_timeout) === true;
  return out;
}
