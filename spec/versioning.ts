/**
 * Table `versioning`: the seven numbered rules of the specification's Versioning section.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { VERSIONING } from "./versioning.ts";
 * assert.ok(VERSIONING.some((r) => r.id === "versioning.version-string"));
 * ```
 * @module
 */
import type { Rule } from "./rule.ts";

/** Rows of the `versioning` table, one per numbered rule. */
export const VERSIONING = [
  {
    id: "versioning.no-path-prefix",
    level: "MUST",
    statement: "Admin paths carry no version prefix.",
    cite: { section: "Versioning", quote: "Admin paths carry no version prefix." },
    check: "black-box",
  },
  {
    id: "versioning.config-dump-v2alpha",
    level: "MAY",
    statement:
      "The configuration dump message is v2alpha, and its content, JSON form included, may change between versions.",
    cite: {
      section: "Versioning",
      quote:
        "The configuration dump message is v2alpha; its content, including the JSON form, is not guaranteed stable.",
    },
    envoy:
      "Real Envoy (v1.14 on) dumps envoy.admin.v3 messages (`type.googleapis.com/envoy.admin.v3.BootstrapConfigDump`, ...).",
    check: "internal",
  },
  {
    id: "versioning.bootstrap-version",
    level: "MUST",
    statement:
      "The bootstrap is parsed as v2 unless --bootstrap-version selects another API version; without it the previous API version is tried and upgraded, then the latest on failure.",
    cite: {
      section: "Versioning",
      quote:
        "without it the proxy tries the previous API version, upgrades it, and on failure tries the latest",
    },
    envoy: "Real Envoy from v1.17 loads v3 bootstraps by default and v1.18 dropped v2.",
    check: "command",
  },
  {
    id: "versioning.option-variants",
    level: "MUST",
    statement:
      "Two variants of the command-line options exist, told apart by the option table's markers and the two default log formats.",
    cite: {
      section: "Versioning",
      quote:
        "Two variants of the command-line options exist; see the markers in the option table and the two default log formats.",
    },
    check: "command",
  },
  {
    id: "versioning.hot-restart-version",
    level: "MUST",
    statement:
      "The hot restart compatibility version, from --hot-restart-version and GET /hot_restart_version, tells whether a new binary can hot restart over the running one.",
    cite: {
      section: "Versioning",
      quote:
        "The hot restart compatibility version (`--hot-restart-version`, GET /hot_restart_version) tells whether a new binary can hot restart over the running one.",
    },
    envoy:
      "Real Envoy prints `<HOT_RESTART_VERSION>.<shared memory size>` such as `11.104`, or `disabled` when hot restart is disabled.",
    check: "black-box",
  },
  {
    id: "versioning.version-string",
    level: "MUST",
    statement:
      "The server info `version` and --version carry source revision, release number, tree status, build mode and TLS library.",
    cite: {
      section: "Versioning",
      quote:
        "The `version` string of the server info and `--version` carry source revision, release number, tree status, build mode and TLS library.",
    },
    check: "black-box",
  },
  {
    id: "versioning.negotiation-not-shown",
    level: "MAY",
    statement:
      "No version negotiation or deprecation policy of the admin interface itself is specified.",
    cite: {
      section: "Versioning",
      quote:
        "Any version negotiation or deprecation policy for the administration interface itself: not shown.",
    },
    check: "internal",
  },
] as const satisfies readonly Rule[];
