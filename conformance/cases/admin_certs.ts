/**
 * The `/certs` listing against the `tls-certs` fixture: the cluster `conformance_tls` of
 * `fixtures/conformance/bootstrap.yaml` loads the CA and the server certificate of
 * `fixtures/tls/` inline, and GET /certs must list both, each with where it came from (`<inline>`
 * for inline data), its serial number, its subject alternate names and its days until expiration.
 * The specification does not show the field names, so the case finds each certificate by its
 * serial number anywhere in the JSON and checks the other facts inside the same object, whatever
 * their names.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { allRules } from "../../spec/mod.ts";
 * import { certsCases } from "./admin_certs.ts";
 * const cases = certsCases({ rules: allRules(), variant: "new" });
 * assert.deepEqual(cases.map((c) => c.id), ["certs:fixture-listing"]);
 * ```
 * @module
 */
import { X509Certificate } from "node:crypto";
import type { Case } from "../types.ts";
import { existing, expect, getJson, preview } from "./util.ts";
import type { BuildInput } from "./util.ts";

const DAY_MS = 86_400_000;

/** The certificates the fixture loads (files under `fixtures/tls/`). */
export const FIXTURE_CERTS: readonly string[] = ["ca.pem", "server.pem"];

/** What the listing must show of one certificate. */
export interface ExpectedCert {
  file: string;
  /** Lowercase hexadecimal, without leading zeros or colons. */
  serial: string;
  /** DNS names and IP addresses of its subjectAltName extension. */
  sans: string[];
  validTo: number;
}

/** A serial number in one spelling: lowercase hex, no colons, no leading zeros. */
export function normalSerial(s: string): string {
  return s.toLowerCase().replace(/[^0-9a-f]/g, "").replace(/^0+(?=.)/, "");
}

/**
 * Reads a fixture certificate.
 *
 * @param file a file name under `fixtures/tls/`
 * @returns what the listing must show of it
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { expectedCert } from "./admin_certs.ts";
 * const ca = await expectedCert("ca.pem"); // reads fixtures/tls/ca.pem
 * assert.match(ca.serial, /^[0-9a-f]+$/);
 * ```
 */
export async function expectedCert(file: string): Promise<ExpectedCert> {
  const pem = await Deno.readTextFile(new URL(`../../fixtures/tls/${file}`, import.meta.url));
  const x = new X509Certificate(pem);
  const sans = (x.subjectAltName ?? "").split(/,\s*/).flatMap((part) => {
    const m = /^(DNS|IP Address):(.+)$/.exec(part.trim());
    return m ? [m[2]] : [];
  });
  return { file, serial: normalSerial(x.serialNumber), sans, validTo: Date.parse(x.validTo) };
}

/** Every object inside `v` (itself included). */
function objects(v: unknown, out: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (Array.isArray(v)) { for (const x of v) objects(x, out); }
  else if (typeof v === "object" && v !== null) {
    out.push(v as Record<string, unknown>);
    for (const x of Object.values(v)) objects(x, out);
  }
  return out;
}

/** Every string and number inside `v`, as strings. */
function scalars(v: unknown, out: string[] = []): string[] {
  if (typeof v === "string" || typeof v === "number") out.push(String(v));
  else if (Array.isArray(v)) { for (const x of v) scalars(x, out); }
  else if (typeof v === "object" && v !== null) {
    for (const x of Object.values(v)) {
      scalars(x, out);
    }
  }
  return out;
}

/** IPv6 addresses in one spelling (`0:0:0:0:0:0:0:1` → `::1`). */
function normalAddress(a: string): string {
  if (!a.includes(":")) return a;
  try {
    return new URL(`http://[${a}]/`).hostname.replace(/^\[|\]$/g, "");
  } catch {
    return a;
  }
}

/**
 * Why `listing` does not show `cert` as the rule asks, or null when it does.
 *
 * @param listing the parsed GET /certs answer
 * @param cert the expected certificate
 * @param now the current time, for the days until expiration
 * @returns a reason, or null
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { expectedCert, listingProblem } from "./admin_certs.ts";
 * const ca = await expectedCert("ca.pem");
 * const problem = listingProblem({ certificates: [] }, ca, Date.now());
 * assert.equal(problem, `no entry has the serial number ${ca.serial} of ca.pem`);
 * ```
 */
export function listingProblem(listing: unknown, cert: ExpectedCert, now: number): string | null {
  const holders = objects(listing).filter((o) =>
    Object.values(o).some((v) =>
      (typeof v === "string" || typeof v === "number") && normalSerial(String(v)) === cert.serial
    )
  );
  if (holders.length === 0) return `no entry has the serial number ${cert.serial} of ${cert.file}`;
  const days = (cert.validTo - now) / DAY_MS;
  const problems: string[] = [];
  for (const o of holders) {
    const values = scalars(o);
    const why: string[] = [];
    if (!values.some((v) => /inline/i.test(v) || v.endsWith(cert.file))) {
      why.push("no source (a file name, or <inline> for inline data)");
    }
    if (!values.some((v) => /^\d+$/.test(v) && Math.abs(Number(v) - days) <= 1.5)) {
      why.push(`no days until expiration (about ${Math.floor(days)})`);
    }
    const have = new Set(values.map(normalAddress));
    const missing = cert.sans.filter((s) => !have.has(normalAddress(s)));
    if (missing.length > 0) why.push(`subject alternate names ${missing.join(", ")} missing`);
    if (why.length === 0) return null;
    problems.push(`${why.join("; ")} in ${preview(JSON.stringify(o))}`);
  }
  return `${cert.file} (serial ${cert.serial}) is listed without what the rule asks: ${
    problems.join(" | ")
  }`;
}

/**
 * Builds the `/certs` case.
 *
 * @param input every rule and the variant
 * @returns the case, unless its rule is gone
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { allRules } from "../../spec/mod.ts";
 * import { certsCases } from "./admin_certs.ts";
 * assert.equal(certsCases({ rules: allRules(), variant: "new" }).length, 1);
 * ```
 */
export function certsCases(input: BuildInput): Case[] {
  const rules = existing(input.rules, "admin.resources.certs.listing");
  if (rules.length === 0) return [];
  return [{
    id: "certs:fixture-listing",
    title: "GET /certs lists the fixture's certificates with source, serial, SANs and days left",
    rules,
    target: "http",
    phase: "read",
    run: async (ctx) => {
      const listing = await getJson(ctx, "/certs");
      for (const file of FIXTURE_CERTS) {
        const problem = listingProblem(listing, await expectedCert(file), Date.now());
        expect(problem === null, `GET /certs: ${problem}`);
      }
    },
  }];
}
