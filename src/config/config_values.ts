/**
 * Small readers of proto3 JSON values in listener configuration (durations, wrapped values,
 * typed-config unwrapping), each reporting a {@linkcode ConfigError} with its path.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { durationMs } from "./config_values.ts";
 * assert.equal(durationMs("1.5s", "x", []), 1500);
 * ```
 * @module
 */
import type { Json, JsonObject } from "./bootstrap_types.ts";
import type { ConfigError } from "./errors.ts";
import { isJsonObject } from "./values.ts";

/** Collects errors while parsing. */
export type Errors = ConfigError[];

/** True for a plain JSON object (the configuration part's {@linkcode isJsonObject}). */
export const isObject: (v: unknown) => v is JsonObject = isJsonObject;

/** Adds an error. */
export function fail(errors: Errors, path: string, message: string): void {
  errors.push({ path, rule: "", message });
}

/** A proto3 JSON Duration (`"1.5s"`, or `{seconds, nanos}`) in milliseconds, or `null` if bad. */
export function durationMs(v: Json | undefined, path: string, errors: Errors): number | null {
  if (typeof v === "string") {
    const m = /^(\d+)(?:\.(\d{1,9}))?s$/.exec(v);
    if (m) return Number(m[1]) * 1000 + (m[2] ? Number(`0.${m[2]}`) * 1000 : 0);
  } else if (isObject(v)) {
    const s = Number(v.seconds ?? 0);
    const n = Number(v.nanos ?? 0);
    if (Number.isFinite(s) && Number.isFinite(n) && s >= 0 && n >= 0) return s * 1000 + n / 1e6;
  }
  fail(errors, path, `invalid duration ${JSON.stringify(v)} (expected a string like "1.5s")`);
  return null;
}

/** A UInt32Value / BoolValue: the plain value or `{value: x}`. */
export function unwrap(v: Json | undefined): Json | undefined {
  return isObject(v) && "value" in v ? v.value : v;
}

/** The body of a filter's configuration: v3 `typed_config` (without `@type`) or v2 `config`. */
export function filterConfig(f: JsonObject, path: string, errors: Errors): JsonObject {
  const tc = f.typed_config;
  if (tc !== undefined) {
    if (!isObject(tc)) {
      fail(errors, `${path}.typed_config`, "must be an object");
      return {};
    }
    const { "@type": _t, ...rest } = tc;
    return rest;
  }
  const c = f.config;
  if (c === undefined) return {};
  if (!isObject(c)) {
    fail(errors, `${path}.config`, "must be an object");
    return {};
  }
  return c;
}

/** A filter name without its `envoy.`/`proxy.` prefix and `filters.<kind>.` part. */
export function filterKind(name: string): string {
  return name.replace(/^(envoy|proxy)\./, "").replace(/^filters\.(network|http|listener)\./, "");
}

/** The short name of a v3 `@type` URL's message. */
export function typeName(f: JsonObject): string | null {
  const t = typedConfigMessage(f);
  return t === null ? null : t.slice(t.lastIndexOf(".") + 1);
}

/** The fully qualified message of a filter's `typed_config` `@type` URL, if it has one. */
export function typedConfigMessage(f: JsonObject): string | null {
  const tc = f.typed_config;
  if (!isObject(tc) || typeof tc["@type"] !== "string") return null;
  const t = tc["@type"];
  return t.slice(t.lastIndexOf("/") + 1);
}
