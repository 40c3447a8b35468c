/**
 * The header-to-metadata filter (`envoy.filters.http.header_to_metadata`,
 * `envoy.extensions.filters.http.header_to_metadata.v3.Config`): "rules that will be matched
 * against requests and responses. Each rule has either a cookie or a header and can be triggered
 * either when the header or cookie is present or missing. When a rule is triggered, dynamic
 * metadata will be added based on the configuration of the rule" (Envoy's documentation). The
 * metadata lands in the request's {@linkcode DynamicMetadata}, where the router reads `envoy.lb`
 * (subset load balancing) and access logs read any namespace (`%DYNAMIC_METADATA(NS:KEY)%`).
 *
 * Envoy's semantics, from its filter source: a header's value is all its fields joined by `,`;
 * `remove` drops the header once read (whether a rule then applies or not); a cookie with an
 * empty value is missing. A rule's `value`, when non-empty, replaces the header's; else the
 * `regex_value_rewrite` of `on_header_present` rewrites it. An empty value adds nothing; so does
 * a value of 8 KiB or more (`MAX_HEADER_VALUE_LEN`), a BASE64 value that does not decode (no
 * padding needed; bad characters, impossible lengths and non-zero trailing bits fail), a NUMBER
 * that `absl::SimpleAtod` would not read, and a PROTOBUF_VALUE that is not a serialized
 * `google.protobuf.Value`. With `stat_prefix` it counts Envoy's
 * `http_filter_name.<stat_prefix>.*` counters. A route's `typed_per_filter_config` (the same
 * message) replaces the filter's rules for the requests it matches.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { HEADER_TO_METADATA } from "./header_to_metadata_filter.ts";
 * const errors: { path: string; rule: string; message: string }[] = [];
 * const c = HEADER_TO_METADATA.parse({ request_rules: [{
 *   header: "x-version",
 *   on_header_present: { metadata_namespace: "envoy.lb", key: "version" },
 *   on_header_missing: { metadata_namespace: "envoy.lb", key: "default", value: "true" },
 * }] }, "f", errors);
 * assert.deepEqual(errors, []);
 * assert.equal(c?.request.length, 1);
 * ```
 * @module
 */
import type { Json, JsonObject } from "../config/bootstrap_types.ts";
import { type Errors, fail, isObject } from "../config/config_values.ts";
import { PROTOBUF } from "../config/protobuf_module.ts";
import { DynamicMetadata, type MetadataValue } from "../http/dynamic_metadata.ts";
import { cookieValue } from "../router/hash_policy.ts";
import { parseRegexRewrite, type RegexRewrite } from "../router/path_rewrite.ts";
import type { Counter, Scope } from "../stats/types.ts";
import { anyBody, type FilterContext, type HttpFilterFactory, onlyFields } from "./http_filter.ts";
import { decodeBase64WithoutPadding, parseAtod } from "./metadata_values.ts";

/** The namespace a `KeyValuePair` without `metadata_namespace` writes to (Envoy's filter name). */
export const DEFAULT_NAMESPACE = "envoy.filters.http.header_to_metadata";

/** Envoy's `MAX_HEADER_VALUE_LEN`: a value of this many bytes or more is not added. */
export const MAX_HEADER_VALUE_LEN = 8 * 1024;

const VALUE_TYPES = ["STRING", "NUMBER", "PROTOBUF_VALUE"] as const;
const ENCODINGS = ["NONE", "BASE64"] as const;

/** A compiled `KeyValuePair`. */
export interface KeyValue {
  namespace: string;
  key: string;
  /** The configured value ("" when unset). */
  value: string;
  type: typeof VALUE_TYPES[number];
  base64: boolean;
}

/** A compiled `Rule`. */
export interface MetadataRule {
  /** The header (lower-case) or cookie the rule reads. */
  source: { header: string } | { cookie: string };
  present: KeyValue | null;
  missing: KeyValue | null;
  remove: boolean;
  /** `on_header_present.regex_value_rewrite`. */
  rewrite: RegexRewrite | null;
}

/** The compiled configuration (the filter's, or a route's). */
export interface HeaderToMetadataConfig {
  request: MetadataRule[];
  response: MetadataRule[];
  /** `stat_prefix`; null: no statistics. */
  statPrefix: string | null;
}

const CONFIG_FIELDS = ["request_rules", "response_rules", "stat_prefix"];
const RULE_FIELDS = ["header", "cookie", "on_header_present", "on_header_missing", "remove"];
const PAIR_FIELDS = ["metadata_namespace", "key", "value", "regex_value_rewrite", "type", "encode"];
/** `HTTP_HEADER_NAME` with `strict: false`: no NUL, CR or LF. */
const HEADER_NAME = /^[^\0\r\n]+$/;
const PSEUDO_REQUEST = new Set([":path", ":method", ":authority", ":scheme"]);

function str(v: Json | undefined, at: string, errors: Errors): string {
  if (v === undefined || v === null) return "";
  if (typeof v !== "string") return fail(errors, at, "must be a string"), "";
  return v;
}

function enumValue<T extends string>(
  v: Json | undefined,
  names: readonly T[],
  at: string,
  errors: Errors,
): T {
  if (v === undefined || v === null) return names[0];
  if (typeof v === "number" && Number.isInteger(v) && v >= 0 && v < names.length) return names[v];
  if (typeof v === "string" && (names as readonly string[]).includes(v)) return v as T;
  fail(errors, at, `unknown value ${JSON.stringify(v)} (one of ${names.join(", ")})`);
  return names[0];
}

function parsePair(
  v: Json,
  at: string,
  errors: Errors,
  present: boolean,
): { kv: KeyValue; rewrite: RegexRewrite | null } | null {
  if (!isObject(v)) return fail(errors, at, "must be an object"), null;
  if (!onlyFields(v, PAIR_FIELDS, at, errors)) return null;
  const n = errors.length;
  const key = str(v.key, `${at}.key`, errors);
  if (key === "" && errors.length === n) fail(errors, `${at}.key`, "key is required (min_len 1)");
  const value = str(v.value, `${at}.value`, errors);
  const kv: KeyValue = {
    namespace: str(v.metadata_namespace, `${at}.metadata_namespace`, errors) || DEFAULT_NAMESPACE,
    key,
    value,
    type: enumValue(v.type, VALUE_TYPES, `${at}.type`, errors),
    base64: enumValue(v.encode, ENCODINGS, `${at}.encode`, errors) === "BASE64",
  };
  let rewrite: RegexRewrite | null = null;
  if (v.regex_value_rewrite !== undefined && v.regex_value_rewrite !== null) {
    const rat = `${at}.regex_value_rewrite`;
    if (!present) {
      fail(
        errors,
        rat,
        "regex_value_rewrite is not supported by this build (on_header_missing: Envoy only " +
          "rewrites the value of a present header and ignores it here)",
      );
    } else if (value !== "") {
      fail(errors, rat, "Cannot specify both value and regex_value_rewrite");
    } else rewrite = parseRegexRewrite(v.regex_value_rewrite, rat, errors);
  }
  if (!present && value === "" && errors.length === n) {
    fail(errors, `${at}.value`, "Cannot specify on_header_missing rule with an empty value");
  }
  return errors.length > n ? null : { kv, rewrite };
}

function parseRule(v: Json, at: string, errors: Errors, response: boolean): MetadataRule | null {
  if (!isObject(v)) return fail(errors, at, "must be an object"), null;
  if (!onlyFields(v, RULE_FIELDS, at, errors)) return null;
  const n = errors.length;
  const header = str(v.header, `${at}.header`, errors).toLowerCase();
  const cookie = str(v.cookie, `${at}.cookie`, errors);
  if (errors.length > n) return null;
  if (header !== "" && cookie !== "") {
    return fail(errors, at, "Cannot specify both header and cookie in the same rule"), null;
  }
  if (header === "" && cookie === "") {
    return fail(errors, at, "One of Cookie or Header option needs to be specified"), null;
  }
  const name = header || cookie;
  if (!HEADER_NAME.test(name)) {
    const f = header ? "header" : "cookie";
    return fail(errors, `${at}.${f}`, `invalid ${f} name ${JSON.stringify(name)}`), null;
  }
  const remove = v.remove ?? false;
  if (typeof remove !== "boolean") return fail(errors, `${at}.remove`, "must be a boolean"), null;
  if (cookie !== "" && remove) {
    return fail(errors, `${at}.remove`, "Cannot specify remove for cookie"), null;
  }
  if (header.startsWith(":")) {
    const ok = response ? header === ":status" : PSEUDO_REQUEST.has(header);
    if (!ok || remove) {
      const why = !ok ? "no such pseudo-header" : "pseudo-headers are not removed";
      return fail(errors, `${at}.${remove && ok ? "remove" : "header"}`, why), null;
    }
  }
  const has = (x: Json | undefined) => x !== undefined && x !== null;
  if (!has(v.on_header_present) && !has(v.on_header_missing)) {
    const what = header ? `header '${header}'` : `cookie '${cookie}'`;
    fail(
      errors,
      at,
      `header to metadata filter: rule for ${what} has neither \`on_header_present\` nor ` +
        "`on_header_missing` set",
    );
    return null;
  }
  const present = has(v.on_header_present)
    ? parsePair(v.on_header_present!, `${at}.on_header_present`, errors, true)
    : null;
  const missing = has(v.on_header_missing)
    ? parsePair(v.on_header_missing!, `${at}.on_header_missing`, errors, false)
    : null;
  if (errors.length > n) return null;
  return {
    source: header ? { header } : { cookie },
    present: present?.kv ?? null,
    missing: missing?.kv ?? null,
    remove,
    rewrite: present?.rewrite ?? null,
  };
}

function parseRules(v: Json | undefined, at: string, errors: Errors, response: boolean) {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) return fail(errors, at, "must be a list"), [];
  const out: MetadataRule[] = [];
  v.forEach((r, i) => {
    const rule = parseRule(r, `${at}[${i}]`, errors, response);
    if (rule !== null) out.push(rule);
  });
  return out;
}

function parseConfig(
  v: Json,
  at: string,
  errors: Errors,
  perRoute: boolean,
): HeaderToMetadataConfig | null {
  const c = anyBody(v);
  if (c === null) return fail(errors, at, "must be an object"), null;
  if (!onlyFields(c, CONFIG_FIELDS, at, errors)) return null;
  const n = errors.length;
  const request = parseRules(c.request_rules, `${at}.request_rules`, errors, false);
  const response = parseRules(c.response_rules, `${at}.response_rules`, errors, true);
  const prefix = str(c.stat_prefix, `${at}.stat_prefix`, errors);
  if (errors.length > n) return null;
  if (perRoute && request.length === 0 && response.length === 0) {
    fail(
      errors,
      at,
      "header_to_metadata_filter: Per filter configs must at least specify either request or " +
        "response rules",
    );
    return null;
  }
  return { request, response, statPrefix: prefix || null };
}

/** Envoy's counters of the filter (`ALL_HEADER_TO_METADATA_FILTER_STATS`). */
interface MetadataStats {
  rulesProcessed: Counter;
  metadataAdded: Counter;
  headerNotFound: Counter;
  base64DecodeFailed: Counter;
  headerValueTooLong: Counter;
  regexSubstitutionFailed: Counter;
}

function statsOf(root: Scope, prefix: string, response: boolean): MetadataStats {
  const s = root.scope("http_filter_name").scope(prefix);
  const dir = response ? "response" : "request";
  return {
    rulesProcessed: s.counter(`${dir}_rules_processed`),
    metadataAdded: s.counter(`${dir}_metadata_added`),
    headerNotFound: s.counter(`${dir}_header_not_found`),
    base64DecodeFailed: s.counter("base64_decode_failed"),
    headerValueTooLong: s.counter("header_value_too_long"),
    regexSubstitutionFailed: s.counter("regex_substitution_failed"),
  };
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The length in bytes of `s`: a header's value has one character per byte (as the codecs keep
 * it); a configured value is UTF-8.
 */
function byteLength(s: string, configured: boolean): number {
  return !configured || s.length * 3 < MAX_HEADER_VALUE_LEN ? s.length : encoder.encode(s).length;
}

/** The bytes of a header value (the codecs keep one character per byte). */
function headerBytes(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 0xff;
  return out;
}

/**
 * The metadata value of `value` as `kv` types it, or undefined (nothing is added). A
 * PROTOBUF_VALUE needs the protobuf runtime loaded.
 */
function typed(
  value: string,
  kv: KeyValue,
  stats: MetadataStats | null,
): MetadataValue | undefined {
  if (byteLength(value, kv.value !== "") >= MAX_HEADER_VALUE_LEN) {
    stats?.headerValueTooLong.inc();
    return undefined;
  }
  let bytes: Uint8Array | null = null;
  if (kv.base64) {
    bytes = decodeBase64WithoutPadding(value);
    if (bytes === null || bytes.length === 0) {
      stats?.base64DecodeFailed.inc();
      return undefined;
    }
    if (kv.type !== "PROTOBUF_VALUE") value = decoder.decode(bytes);
  }
  switch (kv.type) {
    case "STRING":
      return value;
    case "NUMBER":
      return parseAtod(value) ?? undefined;
    case "PROTOBUF_VALUE": {
      // Loaded before the rules run (see the filter).
      const pb = PROTOBUF.get();
      const t = pb.messageType("google.protobuf.Value");
      try {
        return pb.toJson(t, pb.fromBinary(t, bytes ?? headerBytes(value))) as MetadataValue;
      } catch {
        return undefined;
      }
    }
  }
}

/** The value a rule reads from `headers` (request pseudo-headers from `req`), null when absent. */
function extract(
  rule: MetadataRule,
  headers: Headers,
  ctx: FilterContext,
  status: number | null,
): string | null {
  if ("cookie" in rule.source) return cookieValue(headers, rule.source.cookie) || null;
  const name = rule.source.header;
  if (name.startsWith(":")) {
    const r = ctx.req;
    const pseudo: Record<string, string | null> = {
      ":path": r.path,
      ":method": r.method,
      ":authority": r.authority,
      ":scheme": r.scheme,
      ":status": status === null ? null : String(status),
    };
    return pseudo[name] ?? null;
  }
  const parts: string[] = [];
  headers.forEach((v, k) => {
    if (k === name) parts.push(v);
  });
  if (parts.length === 0) return null;
  if (rule.remove) headers.delete(name);
  return parts.join(",");
}

/** Applies `rules` to `headers`, writing what they add into the request's dynamic metadata. */
function apply(
  rules: readonly MetadataRule[],
  headers: Headers,
  ctx: FilterContext,
  status: number | null,
  stats: MetadataStats | null,
): void {
  for (const rule of rules) {
    const found = extract(rule, headers, ctx, status);
    stats?.rulesProcessed.inc();
    const kv = found !== null ? rule.present : rule.missing;
    if (kv === null) continue;
    if (found === null) stats?.headerNotFound.inc();
    let value = found ?? "";
    if (kv.value !== "") value = kv.value;
    else if (rule.rewrite !== null) {
      const was = value !== "";
      value = rule.rewrite.re.replaceAll(value, rule.rewrite.substitution);
      if (was && value === "") stats?.regexSubstitutionFailed.inc();
    }
    if (value === "") continue;
    const v = typed(value, kv, stats);
    if (v === undefined) continue;
    const md = ctx.req.dynamicMetadata ??= new DynamicMetadata();
    if (ctx.lg !== null) ctx.lg.dynamicMetadata = md;
    md.set(kv.namespace, { [kv.key]: v });
    stats?.metadataAdded.inc();
  }
}

function usesProtobufValues(c: HeaderToMetadataConfig): boolean {
  const rules = [...c.request, ...c.response];
  return rules.some((r) =>
    r.present?.type === "PROTOBUF_VALUE" || r.missing?.type === "PROTOBUF_VALUE"
  );
}

const NAME = "proxy.filters.http.header_to_metadata";

/** The header-to-metadata filter. */
export const HEADER_TO_METADATA: HttpFilterFactory<HeaderToMetadataConfig> = {
  kind: "header_to_metadata",
  types: [
    "envoy.extensions.filters.http.header_to_metadata.v3.Config",
    "envoy.config.filter.http.header_to_metadata.v2.Config",
  ],
  parse: (c: JsonObject, at, errors) => parseConfig(c, at, errors, false),
  parsePerRoute: (c, at, errors) => parseConfig(c, at, errors, true),
  create(base, deps) {
    /** Per configuration (the filter's, a route's): its counters, whether it needs protobuf. */
    type State = { stats: [MetadataStats, MetadataStats] | null; protobuf: boolean };
    const states = new Map<HeaderToMetadataConfig, State>();
    const stateOf = (c: HeaderToMetadataConfig): State => {
      let s = states.get(c);
      if (s === undefined) {
        s = {
          stats: c.statPrefix === null
            ? null
            : [statsOf(deps.root, c.statPrefix, false), statsOf(deps.root, c.statPrefix, true)],
          protobuf: usesProtobufValues(c),
        };
        states.set(c, s);
        if (s.protobuf && !PROTOBUF.loaded) PROTOBUF.load().catch(() => {});
      }
      return s;
    };
    stateOf(base);
    return async (ctx, next) => {
      const c = ctx.perRoute<HeaderToMetadataConfig>(NAME) ?? base;
      const s = stateOf(c);
      if (s.protobuf && !PROTOBUF.loaded) await PROTOBUF.load();
      if (c.request.length > 0) apply(c.request, ctx.req.headers, ctx, null, s.stats?.[0] ?? null);
      const res = await next();
      if (c.response.length > 0) {
        apply(c.response, res.headers, ctx, res.status, s.stats?.[1] ?? null);
      }
      return res;
    };
  },
};
