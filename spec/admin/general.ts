/**
 * Table `admin.general`: the four general rules of the administration interface (split into one
 * row per requirement), the introduction of the Endpoints section, and the behaviour every
 * endpoint shares that the specification leaves to real Envoy (home page, `/help`, unknown paths,
 * default headers, query parsing). Envoy-sourced rows are `SHOULD`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ADMIN_GENERAL } from "./general.ts";
 * const get400 = ADMIN_GENERAL.find((r) => r.id === "admin.mutation.get-returns-400");
 * assert.equal(get400?.level, "MUST");
 * ```
 * @module
 */
import type { Rule } from "../rule.ts";

/** Rows of the `admin.general` table. */
export const ADMIN_GENERAL = [
  {
    id: "admin.mutation.post-only",
    level: "MUST",
    statement: "Every admin operation that changes state is reached with HTTP POST.",
    cite: {
      section: "What the service does",
      quote: "Every operation that changes state is an HTTP POST.",
    },
    check: "black-box",
  },
  {
    id: "admin.mutation.get-returns-400",
    level: "MUST",
    statement: "GET on a mutating path answers 400 and changes nothing.",
    cite: {
      section: "What the service does",
      quote: "A GET sent to a mutating path has no effect and the response is HTTP 400.",
    },
    envoy:
      "Real Envoy (since \u2248v1.11, PR #6436) answers 405 Method Not Allowed with the body `Method GET not allowed, POST required.`; its documentation still says 400.",
    check: "black-box",
  },
  {
    id: "admin.general.secure-network-only",
    level: "MUST",
    statement:
      "The admin interface, which allows destructive operations and exposes private information, is reachable only over a secure network.",
    cite: {
      section: "What the service does",
      quote: "It must be reachable only over a secure network.",
    },
    check: "internal",
  },
  {
    id: "admin.general.hosts-on-secure-network",
    level: "MUST",
    statement:
      "Hosts that can reach the admin interface are attached only to the secure network, to avoid cross-site request forgery.",
    cite: {
      section: "What the service does",
      quote:
        "Hosts that can reach it must be attached only to that secure network, to avoid cross-site request forgery.",
    },
    check: "internal",
  },
  {
    id: "admin.general.loopback-recommended",
    level: "SHOULD",
    statement:
      "The admin listener sits behind a firewall or, best, is bound to the loopback address only.",
    cite: {
      section: "What the service does",
      quote:
        "The recommended arrangement is a firewall, or best of all a listener bound to the loopback address only.",
    },
    check: "internal",
  },
  {
    id: "admin.general.config-address",
    level: "MUST",
    statement:
      "The admin listener binds the address and port given by `admin.address.socket_address` (`address`, `port_value`) of the bootstrap.",
    cite: {
      section: "What the service does",
      quote:
        "`address.socket_address` with `address` (string, IP address) and `port_value` (integer, port)",
    },
    check: "black-box",
  },
  {
    id: "admin.general.config-profile-path",
    level: "MUST",
    statement: "The bootstrap field `admin.profile_path` names the file profiler output goes to.",
    cite: {
      section: "What the service does",
      quote: "`profile_path` (string, file path for profiler output)",
    },
    check: "internal",
  },
  {
    id: "admin.general.format-json-protobuf",
    level: "MUST",
    statement: "An endpoint called with `?format=json` answers a JSON-serialized protobuf message.",
    cite: {
      section: "What the service does",
      quote: "An endpoint called with `?format=json` returns a JSON-serialized protobuf message.",
    },
    check: "black-box",
  },
  {
    id: "admin.general.format-json-defaults-omitted",
    level: "MUST",
    statement: "In `format=json` output, fields whose value equals the default are not rendered.",
    cite: {
      section: "What the service does",
      quote: "Fields whose value equals the default are not rendered.",
    },
    envoy:
      "Real Envoy renders default values in /server_info, /memory, /certs, /contention and /runtime (always_print_primitive_fields), which take no format parameter.",
    check: "black-box",
  },
  {
    id: "admin.general.thresholds-priority",
    level: "MUST",
    statement:
      "A circuit-breaker thresholds entry of the JSON cluster output omits `priority` for DEFAULT and carries `priority: HIGH` for HIGH.",
    cite: {
      section: "What the service does",
      quote:
        "a circuit-breaker thresholds entry omits `priority` when it is the DEFAULT priority, and carries `priority` = `HIGH` when it is HIGH",
    },
    check: "black-box",
  },
  {
    id: "admin.general.thresholds-fields",
    level: "MUST",
    statement:
      "A thresholds entry has the integer fields max_connections, max_pending_requests, max_requests, max_retries and the optional priority.",
    cite: {
      section: "What the service does",
      quote:
        "A thresholds entry has the integer fields `max_connections`, `max_pending_requests`, `max_requests`, `max_retries`, and the optional `priority`.",
    },
    envoy:
      "Real Envoy defaults, when no circuit_breakers are configured, are 1024 / 1024 / 1024 / 3 for both priorities.",
    check: "black-box",
  },
  {
    id: "admin.general.query-parameters-only",
    level: "MUST",
    statement:
      "Admin requests carry their arguments as query parameters; no request body is needed.",
    cite: {
      section: "Endpoints",
      quote: "No request body is shown for any endpoint; requests are made with query parameters.",
    },
    envoy:
      "Real Envoy also accepts parameters as an `application/x-www-form-urlencoded` body when the URL has no query.",
    check: "black-box",
  },
  {
    id: "admin.general.unknown-path-404",
    level: "SHOULD",
    statement:
      "A path that names no endpoint answers 404 `text/plain; charset=UTF-8` with the body `invalid path. ` followed by the /help text.",
    cite: { section: "Endpoints", quote: "All paths are relative to {base_url}." },
    check: "black-box",
  },
  {
    id: "admin.general.exact-path-match",
    level: "SHOULD",
    statement:
      "The part of the target before `?` must equal an endpoint path exactly, so `/stats/` and `/statsfoo` are unknown paths.",
    cite: { section: "Endpoints", quote: "All paths are relative to {base_url}." },
    check: "black-box",
  },
  {
    id: "admin.general.default-content-type",
    level: "SHOULD",
    statement:
      "An answer whose handler sets no content type carries `Content-Type: text/plain; charset=UTF-8`.",
    cite: { section: "What the service does", quote: "An administration HTTP interface." },
    check: "black-box",
  },
  {
    id: "admin.general.cache-control",
    level: "SHOULD",
    statement:
      "Every admin answer carries `Cache-Control: no-cache, max-age=0` unless the endpoint sets its own (the event stream sends `no-cache`).",
    cite: {
      section: "What the service does",
      quote: "exposes private information (stats, cluster names, certificate information)",
    },
    check: "black-box",
  },
  {
    id: "admin.general.nosniff",
    level: "SHOULD",
    statement: "Every admin answer carries `X-Content-Type-Options: nosniff`.",
    cite: {
      section: "What the service does",
      quote: "exposes private information (stats, cluster names, certificate information)",
    },
    check: "black-box",
  },
  {
    id: "admin.general.help-format",
    level: "SHOULD",
    statement:
      "GET /help answers `admin commands are:` and then one line `  <path>: <help>` per endpoint, sorted by path.",
    cite: { section: "Endpoints", quote: "Text table of all options." },
    check: "black-box",
  },
  {
    id: "admin.general.home-page-links",
    level: "SHOULD",
    statement:
      "The home page links each read-only endpoint (`<a href='stats'>`) and offers each mutating one as a POST form (`<form action='logging' method='post'>`), with the help text HTML-escaped.",
    cite: { section: "Endpoints", quote: "HTML home page with a table of links to all options." },
    check: "black-box",
  },
  {
    id: "admin.general.query-first-wins",
    level: "SHOULD",
    statement:
      "In the query, a key without `=` has the empty value and the first occurrence of a repeated key wins.",
    cite: {
      section: "Endpoints",
      quote: "No request body is shown for any endpoint; requests are made with query parameters.",
    },
    check: "black-box",
  },
  {
    id: "admin.general.flag-presence",
    level: "SHOULD",
    statement:
      "A flag parameter (usedonly, include_eds, inboundonly, graceful, text_readouts) is set by its presence, whatever its value.",
    cite: { section: "Endpoints", quote: "usedonly (flag)" },
    check: "black-box",
  },
  {
    id: "admin.general.read-only-any-method",
    level: "SHOULD",
    statement: "A non-mutating endpoint answers a request of any method as it answers GET.",
    cite: {
      section: "What the service does",
      quote: "Every operation that changes state is an HTTP POST.",
    },
    check: "black-box",
  },
  {
    id: "admin.general.cpuprofiler-parameter-not-shown",
    level: "MAY",
    statement:
      "The parameter that selects enabling or disabling the CPU and heap profilers is not specified; this implementation takes real Envoy's `enable=y|n`.",
    cite: {
      section: "Endpoints",
      quote: "The parameter that selects enable or disable: not shown.",
    },
    envoy: "Real Envoy answers 400 `?enable=<y|n>` when the parameter is missing or invalid.",
    check: "internal",
  },
  {
    id: "admin.general.name-regex-field-not-shown",
    level: "MAY",
    statement:
      "Which name field `name_regex` matches per resource type is not specified; this implementation follows real Envoy.",
    cite: { section: "Endpoints", quote: "The name field matched per resource type: not shown." },
    envoy:
      "Real Envoy matches the `name` of listeners, routes, scoped routes, clusters and secrets, and the `cluster_name` of endpoint assignments.",
    check: "internal",
  },
  {
    id: "admin.general.logging-levels-not-shown",
    level: "MAY",
    statement:
      "The valid level names of POST /logging are not specified; this implementation accepts real Envoy's.",
    cite: { section: "Endpoints", quote: "Valid level names: not shown." },
    envoy: "Real Envoy's levels are trace, debug, info, warning, error, critical and off.",
    check: "internal",
  },
  {
    id: "admin.general.tap-payload-not-shown",
    level: "MAY",
    statement: "The payload of POST /tap is not specified.",
    cite: { section: "Endpoints", quote: "payload: not shown" },
    envoy:
      "Real Envoy takes a JSON or YAML TapRequest body (`config_id`, `tap_config`) and answers 400 `/tap requires a JSON/YAML body` without one.",
    check: "internal",
  },
  {
    id: "admin.general.cross-site-refused",
    level: "SHOULD",
    statement:
      "A request to a mutating admin path that a browser marks as cross-site (an `Origin` header that does not name the host the request was sent to, or `Sec-Fetch-Site: cross-site`) answers 403, changes nothing and is counted in `http.admin.downstream_rq_cross_site_refused`; a request without these headers is unaffected.",
    cite: { section: "What the service does", quote: "to avoid cross-site request forgery." },
    envoy:
      "Real Envoy does not check `Origin` or `Sec-Fetch-Site`; a web page can post to its admin interface through the operator's browser.",
    check: "internal",
  },
  {
    id: "admin.general.foreign-host-refused",
    level: "SHOULD",
    statement:
      "An admin request whose `Host` header names neither the bound address, a loopback name (`localhost`, `127.0.0.0/8`, `::1`), an IP literal when bound to a wildcard address, nor the machine's host name answers 403 and is counted in `http.admin.downstream_rq_host_refused` (DNS rebinding); a request without `Host` is unaffected.",
    cite: { section: "What the service does", quote: "to avoid cross-site request forgery." },
    envoy:
      "Real Envoy does not check the `Host` header of admin requests, so a DNS-rebinding page can read its admin interface.",
    check: "internal",
  },
] as const satisfies readonly Rule[];
