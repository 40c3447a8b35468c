/**
 * The `DownstreamTlsContext` of a filter chain (`transport_socket` named `envoy.transport_sockets.tls`
 * / `proxy.transport_sockets.tls`, or the v2 `tls_context`): the certificate and key the listener
 * presents, the CA client certificates must chain to, `require_client_certificate`, SAN matchers,
 * `alpn_protocols`, `require_sni` and the TLS version range of `tls_params`.
 *
 * What the runtime cannot do is refused by the support table (`spec/support.ts`), not here:
 * Deno's TLS is rustls, reached through `node:tls`; it ignores the `ciphers` option (measured: a
 * TLS 1.2 server limited to `ECDHE-RSA-AES128-GCM-SHA256` negotiated `ECDHE-RSA-AES256-GCM-SHA384`),
 * so `cipher_suites` and `ecdh_curves` are refused. Only one certificate per context is accepted
 * (Envoy picks among RSA and ECDSA ones by the client's signature algorithms; rustls through
 * `node:tls` takes one key).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseDownstreamTls } from "./downstream_tls.ts";
 * const errors: { path: string; rule: string; message: string }[] = [];
 * const t = parseDownstreamTls({ common_tls_context: { tls_certificates: [{
 *   certificate_chain: { inline_string: "CERT" }, private_key: { inline_string: "KEY" } }],
 *   alpn_protocols: ["h2", "http/1.1"] } }, "tc", errors);
 * assert.deepEqual([errors.length, t?.alpn], [0, ["h2", "http/1.1"]]);
 * ```
 * @module
 */
import { compileRe2, type Re2Matcher } from "../config/safe_regex.ts";
import type { Json, JsonObject } from "../config/bootstrap_types.ts";
import { type Errors, fail, isObject, unwrap } from "../config/config_values.ts";
import { SecretStore } from "../config/secrets.ts";

/** A source a PEM came from, for `/certs`. */
export interface PemSource {
  pem: string;
  /** The file name, or `<inline>`. */
  path: string;
}

/** One SAN matcher of `match_typed_subject_alt_names` / `match_subject_alt_names`. */
export interface SanMatcher {
  /** `DNS`, `URI`, `EMAIL`, `IP Address`, or `*` (any type, for `match_subject_alt_names`). */
  type: string;
  kind: "exact" | "prefix" | "suffix" | "contains" | "safe_regex";
  value: string;
  ignoreCase: boolean;
  regex?: Re2Matcher;
}

/** A parsed downstream TLS context. */
export interface DownstreamTls {
  cert: PemSource;
  key: PemSource;
  /** `validation_context.trusted_ca`: client certificates must chain to it. */
  ca: PemSource | null;
  requireClientCert: boolean;
  requireSni: boolean;
  sanMatchers: SanMatcher[];
  alpn: string[];
  minVersion: "TLSv1.2" | "TLSv1.3";
  maxVersion: "TLSv1.2" | "TLSv1.3";
  /** SDS files the certificate or validation context came from (watched for changes). */
  sdsFiles: string[];
  /** The secrets read from those files, by name (for the `sds.<name>.` statistics). */
  sdsSecrets: { name: string; file: string }[];
}

/** Transport socket names that select TLS (both spellings and the short one). */
export const TLS_SOCKET = /^(envoy\.|proxy\.)?(transport_sockets\.)?tls$/;
/** Transport socket names that select plain TCP. */
export const RAW_SOCKET = /^(envoy\.|proxy\.)?(transport_sockets\.)?raw_buffer$/;

/** Reads a `DataSource` (filename, inline_string, inline_bytes). */
export function readDataSource(
  v: Json | undefined,
  path: string,
  errors: Errors,
): PemSource | null {
  if (!isObject(v)) {
    fail(errors, path, "must be a data source (filename, inline_string or inline_bytes)");
    return null;
  }
  if (typeof v.inline_string === "string") return { pem: v.inline_string, path: "<inline>" };
  if (typeof v.inline_bytes === "string") {
    try {
      const bytes = Uint8Array.from(atob(v.inline_bytes), (c) => c.charCodeAt(0));
      return { pem: new TextDecoder().decode(bytes), path: "<inline>" };
    } catch {
      fail(errors, `${path}.inline_bytes`, "inline_bytes is not valid base64");
      return null;
    }
  }
  if (typeof v.filename === "string") {
    try {
      return { pem: Deno.readTextFileSync(v.filename), path: v.filename };
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      fail(errors, `${path}.filename`, `cannot read ${v.filename}: ${why}`);
      return null;
    }
  }
  fail(errors, path, "must set filename, inline_string or inline_bytes");
  return null;
}

const VERSIONS: Record<string, "TLSv1.2" | "TLSv1.3" | "old" | null> = {
  TLS_AUTO: null,
  TLSv1_0: "old",
  TLSv1_1: "old",
  TLSv1_2: "TLSv1.2",
  TLSv1_3: "TLSv1.3",
};

function version(v: Json | undefined, path: string, errors: Errors, dflt: "TLSv1.2" | "TLSv1.3") {
  if (v === undefined) return dflt;
  const got = typeof v === "string" ? VERSIONS[v] : undefined;
  if (got === undefined) {
    fail(errors, path, `unknown value ${JSON.stringify(v)}`);
    return dflt;
  }
  if (got === "old") {
    // rustls speaks TLS 1.2 and 1.3 only.
    fail(errors, path, `${v} is not supported by this build (the runtime's TLS has 1.2 and 1.3)`);
    return dflt;
  }
  return got ?? dflt;
}

function sanMatchers(vc: JsonObject, path: string, errors: Errors): SanMatcher[] {
  const out: SanMatcher[] = [];
  const TYPES: Record<string, string> = {
    DNS: "DNS",
    URI: "URI",
    EMAIL: "email",
    IP_ADDRESS: "IP Address",
  };
  const one = (m: Json, type: string, at: string) => {
    if (!isObject(m)) return fail(errors, at, "must be a string matcher");
    const ignoreCase = m.ignore_case === true;
    for (const kind of ["exact", "prefix", "suffix", "contains"] as const) {
      if (typeof m[kind] === "string") {
        return out.push({ type, kind, value: m[kind] as string, ignoreCase });
      }
    }
    const sr = m.safe_regex;
    if (isObject(sr) && typeof sr.regex === "string") {
      // RE2 syntax on the linear-time engine, as every configuration regex.
      const regex = compileRe2(sr.regex, `${at}.safe_regex.regex`, errors);
      if (regex === null) return;
      return out.push({ type, kind: "safe_regex", value: sr.regex, ignoreCase, regex });
    }
    fail(errors, at, "string matcher needs exact, prefix, suffix, contains or safe_regex");
  };
  const typed = vc.match_typed_subject_alt_names;
  if (Array.isArray(typed)) {
    typed.forEach((m, i) => {
      const at = `${path}.match_typed_subject_alt_names[${i}]`;
      const t = isObject(m) && typeof m.san_type === "string" ? TYPES[m.san_type] : undefined;
      if (!t) {
        return fail(errors, `${at}.san_type`, "san_type must be DNS, URI, EMAIL or IP_ADDRESS");
      }
      one(isObject(m) ? m.matcher ?? null : null, t, `${at}.matcher`);
    });
  }
  const plain = vc.match_subject_alt_names;
  if (Array.isArray(plain)) {
    plain.forEach((m, i) => one(m, "*", `${path}.match_subject_alt_names[${i}]`));
  }
  return out;
}

/**
 * Parses a `DownstreamTlsContext` at `path`; `null` (with errors) when it has no usable
 * certificate.
 */
export function parseDownstreamTls(
  ctx: JsonObject,
  path: string,
  errors: Errors,
  secrets: SecretStore | null = null,
): DownstreamTls | null {
  const common = isObject(ctx.common_tls_context) ? ctx.common_tls_context : {};
  const cp = `${path}.common_tls_context`;
  const certs: Json[] = Array.isArray(common.tls_certificates) ? [...common.tls_certificates] : [];
  const sdsFiles: string[] = [];
  const sdsSecrets: { name: string; file: string }[] = [];
  const sds = common.tls_certificate_sds_secret_configs;
  let tp = `${cp}.tls_certificates[0]`;
  if (Array.isArray(sds)) {
    sds.forEach((ref, i) => {
      const at = `${cp}.tls_certificate_sds_secret_configs[${i}]`;
      const s = secretsOf(secrets).resolve(ref, "tls_certificate", at, errors);
      if (!s) return;
      if (certs.length === 0) tp = at;
      certs.push(s.value);
      if (s.file) {
        sdsFiles.push(s.file);
        sdsSecrets.push({ name: s.name, file: s.file });
      }
    });
  }
  if (certs.length === 0) {
    // A secret reference that failed has its own error.
    if (!Array.isArray(sds) || sds.length === 0) {
      fail(errors, `${cp}.tls_certificates`, "a downstream TLS context needs a certificate");
    }
    return null;
  }
  if (certs.length > 1) {
    fail(
      errors,
      `${cp}.tls_certificates`,
      "only one certificate per TLS context is supported by this build (the runtime's TLS takes one key)",
    );
  }
  const c0 = isObject(certs[0]) ? certs[0] : {};
  const cert = readDataSource(c0.certificate_chain, `${tp}.certificate_chain`, errors);
  const key = readDataSource(c0.private_key, `${tp}.private_key`, errors);
  let vc = isObject(common.validation_context) ? common.validation_context : null;
  let vp = `${cp}.validation_context`;
  if (common.validation_context_sds_secret_config !== undefined) {
    vp = `${cp}.validation_context_sds_secret_config`;
    if (vc) {
      fail(errors, vp, "validation_context and validation_context_sds_secret_config are exclusive");
    }
    const s = secretsOf(secrets).resolve(
      common.validation_context_sds_secret_config,
      "validation_context",
      vp,
      errors,
    );
    vc = s?.value ?? null;
    if (s?.file) {
      sdsFiles.push(s.file);
      sdsSecrets.push({ name: s.name, file: s.file });
    }
  }
  const ca = vc && vc.trusted_ca !== undefined
    ? readDataSource(vc.trusted_ca, `${vp}.trusted_ca`, errors)
    : null;
  const matchers = vc ? sanMatchers(vc, vp, errors) : [];
  const requireClientCert = unwrap(ctx.require_client_certificate) === true;
  if (requireClientCert && !ca) {
    fail(
      errors,
      `${path}.require_client_certificate`,
      "require_client_certificate needs validation_context.trusted_ca",
    );
  }
  if (matchers.length > 0 && !ca) {
    fail(errors, vp, "subject alt name matchers need trusted_ca");
  }
  const params = isObject(common.tls_params) ? common.tls_params : {};
  const pp = `${cp}.tls_params`;
  const minVersion = version(
    params.tls_minimum_protocol_version,
    `${pp}.tls_minimum_protocol_version`,
    errors,
    "TLSv1.2",
  );
  const maxVersion = version(
    params.tls_maximum_protocol_version,
    `${pp}.tls_maximum_protocol_version`,
    errors,
    "TLSv1.3",
  );
  if (minVersion === "TLSv1.3" && maxVersion === "TLSv1.2") {
    fail(errors, pp, "tls_minimum_protocol_version is above tls_maximum_protocol_version");
  }
  const alpn = Array.isArray(common.alpn_protocols)
    ? common.alpn_protocols.filter((x): x is string => typeof x === "string")
    : [];
  if (!cert || !key) return null;
  return {
    cert,
    key,
    ca,
    requireClientCert,
    requireSni: unwrap(ctx.require_sni) === true,
    sanMatchers: matchers,
    alpn,
    minVersion,
    maxVersion,
    sdsFiles,
    sdsSecrets,
  };
}

/** With no store, references to static secrets find none. */
const EMPTY = new SecretStore(undefined);

function secretsOf(s: SecretStore | null): SecretStore {
  return s ?? EMPTY;
}

/**
 * The `DownstreamTlsContext` of a filter chain (from `transport_socket` or v2 `tls_context`) and
 * its path; `undefined` for a plain chain, `null` after an error.
 */
export function chainTls(
  fc: JsonObject,
  path: string,
  errors: Errors,
  secrets: SecretStore | null = null,
): DownstreamTls | null | undefined {
  if (isObject(fc.tls_context)) {
    return parseDownstreamTls(fc.tls_context, `${path}.tls_context`, errors, secrets);
  }
  const ts = fc.transport_socket;
  if (ts === undefined || ts === null) return undefined;
  const tp = `${path}.transport_socket`;
  if (!isObject(ts) || typeof ts.name !== "string") {
    fail(errors, `${tp}.name`, "transport socket needs a name");
    return null;
  }
  if (RAW_SOCKET.test(ts.name)) return undefined;
  if (!TLS_SOCKET.test(ts.name)) {
    fail(errors, `${tp}.name`, `transport socket ${ts.name} is not supported (tls, raw_buffer)`);
    return null;
  }
  const at = ts.typed_config !== undefined ? `${tp}.typed_config` : `${tp}.config`;
  const raw = ts.typed_config ?? ts.config ?? {};
  if (!isObject(raw)) {
    fail(errors, at, "must be a DownstreamTlsContext");
    return null;
  }
  const { "@type": _t, ...ctx } = raw;
  return parseDownstreamTls(ctx, at, errors, secrets);
}

/** True when `san` (as `node:tls` prints it, e.g. `DNS:a.example`) satisfies `m`. */
export function sanMatches(m: SanMatcher, type: string, value: string): boolean {
  if (m.type !== "*" && m.type !== type) return false;
  const v = m.ignoreCase ? value.toLowerCase() : value;
  const w = m.ignoreCase ? m.value.toLowerCase() : m.value;
  switch (m.kind) {
    case "exact":
      return v === w;
    case "prefix":
      return v.startsWith(w);
    case "suffix":
      return v.endsWith(w);
    case "contains":
      return v.includes(w);
    case "safe_regex":
      return m.regex!.test(value);
  }
}

/** Splits `node:tls`'s `subjectaltname` string into (type, value) pairs. */
export function splitSans(s: string | undefined): [string, string][] {
  if (!s) return [];
  return s.split(/,\s*/).map((p) => {
    const i = p.indexOf(":");
    return [p.slice(0, i), p.slice(i + 1)] as [string, string];
  });
}
