/**
 * The unknown-field and value-kind check of the described part of a bootstrap (proto3 JSON as
 * loaded from YAML, JSON, `.pb` or `.pb_text`). It walks the message descriptions of
 * `bootstrap_schema.ts` for one API version, returns a copy with lowerCamelCase keys turned
 * into proto names and enum names upper-cased, and reports every problem with its path.
 *
 * Unknown fields are errors unless `allowUnknown`; then they are dropped from the copy and
 * reported through `onUnknown` (once per path). Clusters are left to the cluster validator,
 * except that v2-only Cluster fields are unknown when loading as v3. Listener fields are
 * checked by name at the top level only; their contents belong to the proxy core.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkBootstrap } from "./bootstrap_check.ts";
 * const r = checkBootstrap({ admin: { profile_path: "/tmp/p", bogus: 1 } }, { version: 2, allowUnknown: false });
 * assert.equal(r.errors[0].path, "admin.bogus");
 * ```
 * @module
 */
import type { Json, JsonObject } from "./bootstrap_types.ts";
import type { ConfigError } from "./errors.ts";
import {
  BOOTSTRAP,
  CLUSTER,
  type FieldDesc,
  fieldOf,
  inVersion,
  LISTENER,
  type MessageDesc,
  MESSAGES,
  type ScalarKind,
} from "./bootstrap_schema.ts";
import { parseDuration as parseDurationValue } from "./values.ts";

/** The rule an unknown static field breaks (rejected unless this option is given). */
export const UNKNOWN_FIELD_RULE = "errors.unknown-static-fields";

/** Cluster fields of the v2 API that the v3 API no longer has. */
export const V2_ONLY_CLUSTER_FIELDS: readonly string[] = [
  "hosts",
  "tls_context",
  "extension_protocol_options",
];

/** Settings of {@linkcode checkBootstrap}. */
export interface CheckSettings {
  version: 2 | 3;
  allowUnknown: boolean;
  onUnknown?: (path: string) => void;
}

/** Result of {@linkcode checkBootstrap}. */
export interface CheckResult {
  value: JsonObject;
  errors: ConfigError[];
}

/**
 * Parses a proto3 JSON duration (`"0.25s"`) into milliseconds; `null` when malformed (the
 * `values.ts` parser without its message).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseDuration } from "./bootstrap_check.ts";
 * assert.equal(parseDuration("0.25s"), 250);
 * assert.equal(parseDuration("5 seconds"), null);
 * ```
 */
export function parseDuration(v: string): number | null {
  const p = parseDurationValue(v);
  return p.ok ? p.value : null;
}

const typeName = (v: Json) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

class Checker {
  errors: ConfigError[] = [];
  constructor(readonly s: CheckSettings) {}

  err(path: string, message: string, rule = ""): void {
    this.errors.push({ path, rule, message });
  }

  unknown(path: string): void {
    if (this.s.allowUnknown) this.s.onUnknown?.(path);
    else this.err(path, "unknown field", UNKNOWN_FIELD_RULE);
  }

  scalar(kind: ScalarKind, v: Json, path: string): Json {
    const bad = () => {
      this.err(
        path,
        `expected ${kind === "bool" ? "true or false" : `a ${kind}`}, got ${JSON.stringify(v)}`,
      );
      return v;
    };
    switch (kind) {
      case "string":
      case "bytes":
        return typeof v === "string" ? v : bad();
      case "bool":
        return typeof v === "boolean" ? v : bad();
      case "double":
        return typeof v === "number" ||
            (typeof v === "string" && /^(-?Infinity|NaN|-?\d+(\.\d+)?([eE][-+]?\d+)?)$/.test(v))
          ? Number(v)
          : bad();
      default: {
        const t = typeof v === "number" ? String(v) : typeof v === "string" ? v.trim() : "";
        if (!/^-?\d+$/.test(t)) return bad();
        const b = BigInt(t);
        const max = kind === "uint32"
          ? 0xffffffffn
          : kind === "int32"
          ? 0x7fffffffn
          : kind === "uint64"
          ? (1n << 64n) - 1n
          : (1n << 63n) - 1n;
        const min = kind.startsWith("u") ? 0n : kind === "int32" ? -0x80000000n : -(1n << 63n);
        if (b < min || b > max) {
          this.err(path, `${t} is out of range for a ${kind}`);
          return v;
        }
        return kind.endsWith("64") ? (typeof v === "number" ? v : t) : Number(b);
      }
    }
  }

  field(f: FieldDesc, v: Json, path: string): Json {
    const k = f.kind;
    if ("scalar" in k) {
      const neg = f.max !== undefined && k.scalar.startsWith("uint") && typeof v === "number" &&
        Number.isInteger(v) && v < 0;
      if (neg) {
        // Out of the field's own range, told the same way as a value above it.
        this.err(path, `value must be inside range [0, ${f.max}], got ${v}`);
        return v;
      }
      const out = this.scalar(k.scalar, v, path);
      if (f.max !== undefined && typeof out === "number" && out > f.max) {
        this.err(
          path,
          k.scalar.startsWith("uint")
            ? `value must be inside range [0, ${f.max}], got ${out}`
            : `value must be less than or equal to ${f.max}, got ${out}`,
        );
      }
      if (f.minLen !== undefined && typeof out === "string" && out.length < f.minLen) {
        this.err(path, `value length must be at least ${f.minLen} characters`);
      }
      return out;
    }
    if ("message" in k && f.durationMs && typeof v === "string") {
      const ms = parseDuration(v);
      const { min, below } = f.durationMs;
      if (
        ms !== null && ((min !== undefined && ms < min) || (below !== undefined && ms >= below))
      ) {
        this.err(path, `duration ${v} is out of range (at least ${min ?? 0}ms, below ${below}ms)`);
      }
    }
    if ("enum" in k) {
      if (typeof v === "number" && Number.isInteger(v) && k.enum[v] !== undefined) return k.enum[v];
      const name = typeof v === "string" ? v.toUpperCase() : "";
      if (!k.enum.includes(name)) {
        this.err(path, `unknown value ${JSON.stringify(v)} (expected one of ${k.enum.join(", ")})`);
        return v;
      }
      return name;
    }
    return this.message(k.message, v, path);
  }

  message(type: string, v: Json, path: string): Json {
    const desc = MESSAGES[type];
    if (desc?.wellKnown === "duration") {
      if (typeof v !== "string" || parseDuration(v) === null) {
        this.err(
          path,
          `invalid duration ${
            JSON.stringify(v)
          } (expected seconds with an "s" suffix, e.g. "0.25s")`,
        );
      }
      return v;
    }
    if (desc?.wellKnown === "wrapper") {
      return this.scalar((desc.fields[0].kind as { scalar: ScalarKind }).scalar, v, path);
    }
    if (desc?.wellKnown === "value") return v;
    if (desc?.wellKnown === "list") {
      if (!Array.isArray(v)) this.err(path, `expected a list, got ${typeName(v)}`);
      return v;
    }
    if (v === null || typeof v !== "object" || Array.isArray(v)) {
      this.err(path, `expected an object, got ${typeName(v)}`);
      return v;
    }
    if (desc?.wellKnown === "struct") return v;
    if (type === CLUSTER) return this.cluster(v, path);
    if (!desc) return v; // kept as JSON; checked by its owner
    return this.object(desc, v, path, type === LISTENER);
  }

  cluster(v: JsonObject, path: string): JsonObject {
    if (this.s.version === 2) return v;
    const out: JsonObject = {};
    for (const [key, val] of Object.entries(v)) {
      if (V2_ONLY_CLUSTER_FIELDS.includes(key)) this.unknown(`${path}.${key}`);
      else out[key] = val;
    }
    return out;
  }

  object(desc: MessageDesc, v: JsonObject, path: string, topLevelOnly: boolean): JsonObject {
    const out: JsonObject = {};
    for (const [key, val] of Object.entries(v)) {
      const fpath = path ? `${path}.${key}` : key;
      const f = fieldOf(desc, key);
      if (!f || !inVersion(f, this.s.version)) {
        this.unknown(fpath);
        continue;
      }
      if (val === null) continue; // proto3 JSON: null is the default
      if (topLevelOnly && "message" in f.kind && !MESSAGES[f.kind.message]) {
        out[f.name] = val;
        continue;
      }
      if (f.repeated) {
        if (!Array.isArray(val)) {
          this.err(fpath, `expected a list, got ${typeName(val)}`);
          continue;
        }
        out[f.name] = val.map((item, i) => this.field(f, item, `${fpath}[${i}]`));
      } else if (f.map) {
        if (typeof val !== "object" || Array.isArray(val)) {
          this.err(fpath, `expected an object, got ${typeName(val)}`);
          continue;
        }
        const o: JsonObject = {};
        for (const [mk, mv] of Object.entries(val)) {
          o[mk] = this.field({ ...f, map: false }, mv, `${fpath}.${mk}`);
        }
        out[f.name] = o;
      } else out[f.name] = this.field(f, val, fpath);
    }
    return out;
  }
}

/**
 * Checks a loaded bootstrap against the descriptions of one API version.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkBootstrap } from "./bootstrap_check.ts";
 * const r = checkBootstrap({ admin: { bogus: 1 } }, { version: 2, allowUnknown: false });
 * assert.deepEqual(r.errors, [
 *   { path: "admin.bogus", rule: "errors.unknown-static-fields", message: "unknown field" },
 * ]);
 * ```
 */
export function checkBootstrap(v: Json, settings: CheckSettings): CheckResult {
  const c = new Checker(settings);
  if (v === null || typeof v !== "object" || Array.isArray(v)) {
    c.err("(root)", `the bootstrap must be an object, got ${typeName(v)}`);
    return { value: {}, errors: c.errors };
  }
  const value = c.object(MESSAGES[BOOTSTRAP], v, "", false);
  return { value, errors: c.errors };
}
