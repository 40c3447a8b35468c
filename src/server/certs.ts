/**
 * The TLS certificates a server loaded, as `/certs` shows them (`envoy.admin.v3.Certificates`):
 * one entry per TLS context of a cluster (`tls_context`, or a TLS `transport_socket`) or of a
 * listener filter chain, with `ca_cert` (from `validation_context.trusted_ca`) and `cert_chain`
 * (from `tls_certificates[].certificate_chain`) details: `path` (`<inline>` for inline data),
 * `serial_number`, `subject_alt_names`, `days_until_expiration`, `valid_from` and
 * `expiration_time`. Certificates are parsed with `node:crypto`'s `X509Certificate`; a source
 * that cannot be read or parsed is left out of its list.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { collectCertificates } from "./certs.ts";
 * import { testContext } from "../admin/testing_context.ts";
 * const certs = collectCertificates(testContext(), Date.now());
 * assert.deepEqual(certs, []); // no TLS context is configured
 * ```
 * @module
 */
import { X509Certificate } from "node:crypto";
import type { Json, JsonObject } from "../config/bootstrap_types.ts";
import type { ServerContext } from "./context.ts";
import { uint64 } from "../config/proto_json.ts";

/** One `CertificateDetails`. */
export interface CertificateDetails {
  path: string;
  serial_number: string;
  subject_alt_names: Record<string, string>[];
  days_until_expiration: string;
  valid_from: string;
  expiration_time: string;
}

/** One `Certificate` (a TLS context). */
export interface CertificateEntry {
  ca_cert: CertificateDetails[];
  cert_chain: CertificateDetails[];
}

const DAY_MS = 86_400_000;

function obj(v: Json | undefined): JsonObject | undefined {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? v : undefined;
}

function rfc3339(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, "Z");
}

function sans(text: string | undefined): Record<string, string>[] {
  if (!text) return [];
  return text.split(/,\s*/).flatMap((part): Record<string, string>[] => {
    const i = part.indexOf(":");
    if (i < 0) return [];
    const kind = part.slice(0, i), value = part.slice(i + 1);
    if (kind === "DNS") return [{ dns: value }];
    if (kind === "URI") return [{ uri: value }];
    if (kind === "IP Address") return [{ ip_address: value }];
    return [];
  });
}

/** Reads a `DataSource` (`filename`, `inline_string`, `inline_bytes`) -> [path, PEM]. */
function dataSource(ds: JsonObject | undefined): [string, string] | null {
  if (!ds) return null;
  try {
    if (typeof ds.filename === "string") return [ds.filename, Deno.readTextFileSync(ds.filename)];
    if (typeof ds.inline_string === "string") return ["<inline>", ds.inline_string];
    if (typeof ds.inline_bytes === "string") return ["<inline>", atob(ds.inline_bytes)];
  } catch {
    return null;
  }
  return null;
}

/** Details of the first certificate of a PEM source, or null. */
export function certificateDetails(
  ds: JsonObject | undefined,
  now: number,
): CertificateDetails | null {
  const src = dataSource(ds);
  if (!src) return null;
  const pem = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.exec(src[1]);
  if (!pem) return null;
  try {
    const x = new X509Certificate(pem[0]);
    const from = new Date(x.validFrom), to = new Date(x.validTo);
    return {
      path: src[0],
      serial_number: x.serialNumber.toLowerCase(),
      subject_alt_names: sans(x.subjectAltName),
      days_until_expiration: uint64(daysUntil(to.getTime(), now)),
      valid_from: rfc3339(from),
      expiration_time: rfc3339(to),
    };
  } catch {
    return null;
  }
}

/** The `common_tls_context` of a TLS context given as `tls_context` or `transport_socket`. */
function commonTlsContexts(holder: JsonObject): JsonObject[] {
  const out: JsonObject[] = [];
  const tls = obj(holder.tls_context) ??
    obj(
      obj(obj(holder.transport_socket)?.typed_config) ?? obj(obj(holder.transport_socket)?.config),
    );
  const common = obj(tls?.common_tls_context);
  if (common) out.push(common);
  return out;
}

function entryOf(common: JsonObject, now: number): CertificateEntry {
  const chains = Array.isArray(common.tls_certificates) ? common.tls_certificates : [];
  const cert_chain = chains.flatMap((c) => {
    const d = certificateDetails(obj(obj(c)?.certificate_chain), now);
    return d ? [d] : [];
  });
  const validation = obj(common.validation_context);
  const ca = certificateDetails(obj(validation?.trusted_ca), now);
  return { ca_cert: ca ? [ca] : [], cert_chain };
}

/** Every TLS context of the server's clusters and listeners. */
export function collectCertificates(server: ServerContext, now: number): CertificateEntry[] {
  const contexts: JsonObject[] = [];
  for (const c of server.clusters.clusters()) contexts.push(...commonTlsContexts(c.config));
  for (const l of server.listeners.listeners()) {
    const chains = Array.isArray(l.config.filter_chains) ? [...l.config.filter_chains] : [];
    if (l.config.default_filter_chain) chains.push(l.config.default_filter_chain);
    for (const fc of chains) {
      const o = obj(fc);
      if (o) contexts.push(...commonTlsContexts(o));
    }
  }
  return contexts.map((c) => entryOf(c, now));
}

/**
 * Whole days from `now` until `expiresAt` (both in ms since the epoch), 0 once expired.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { daysUntil } from "./certs.ts";
 * assert.equal(daysUntil(Date.UTC(2030, 0, 3), Date.UTC(2030, 0, 1, 12)), 1);
 * ```
 */
export function daysUntil(expiresAt: number, now: number): number {
  return Math.max(0, Math.floor((expiresAt - now) / DAY_MS));
}

/**
 * When the first of the certificates expires (ms since the epoch), for
 * `server.days_until_first_cert_expiring`; `undefined` when there is none.
 */
export function firstCertExpiry(certs: readonly CertificateEntry[]): number | undefined {
  let first: number | undefined;
  for (const e of certs) {
    for (const d of [...e.ca_cert, ...e.cert_chain]) {
      const t = Date.parse(d.expiration_time);
      if (first === undefined || t < first) first = t;
    }
  }
  return first;
}
