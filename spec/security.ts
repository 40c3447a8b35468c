/**
 * Table `security`: the five numbered rules of the specification's Authentication section.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SECURITY } from "./security.ts";
 * assert.ok(SECURITY.some((r) => r.id === "security.no-credentials"));
 * ```
 * @module
 */
import type { Rule } from "./rule.ts";

/** Rows of the `security` table, one per numbered rule. */
export const SECURITY = [
  {
    id: "security.no-credentials",
    level: "MUST",
    statement:
      "The admin interface asks for no per-request credential; it is protected by binding to a restricted address, the loopback address by preference, behind a firewall.",
    cite: {
      section: "Authentication",
      quote: "The administration interface defines no per-request credential.",
    },
    check: "black-box",
  },
  {
    id: "security.secure-network-hosts",
    level: "MUST",
    statement: "Hosts with access to the admin interface are attached only to the secure network.",
    cite: {
      section: "Authentication",
      quote: "Hosts with access to the interface are attached only to that secure network.",
    },
    check: "internal",
  },
  {
    id: "security.future-options",
    level: "MAY",
    statement:
      "Additional security options of the admin interface are only announced for the future.",
    cite: {
      section: "Authentication",
      quote: "Additional security options are announced for the future only.",
    },
    check: "internal",
  },
  {
    id: "security.credentials-not-shown",
    level: "MAY",
    statement: "Credential-based authentication (keys, tokens, users) is not specified.",
    cite: {
      section: "Authentication",
      quote: "Credential-based authentication (keys, tokens, users): not shown.",
    },
    check: "internal",
  },
  {
    id: "security.upstream-tls",
    level: "MUST",
    statement:
      "A cluster's tls_context turns on TLS to its upstreams; without it no TLS is used, and the server certificate is verified only when trusted_ca is configured.",
    cite: {
      section: "Authentication",
      quote:
        "Upstream TLS: the cluster field tls_context configures TLS to upstreams; without it no TLS; server certificate verification requires trusted_ca.",
    },
    check: "internal",
  },
] as const satisfies readonly Rule[];
