/**
 * Tables `cli.options` and `cli.constraints`: every command-line option of the specification's
 * option table (both variants, in the specification's order), and every constraint on the
 * command line with the exact message printed to stderr.
 *
 * Defaults are written in the option's own argument syntax (`--socket-mode` `"600"` is octal);
 * the parser converts them with the same code as a given value. `null` means "none, or computed
 * at start-up" (`--concurrency`: hardware threads; `--bootstrap-version`: try v2 then v3).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { OPTIONS } from "./options.ts";
 * const mode = OPTIONS.find((o) => o.long === "--mode");
 * assert.equal(mode?.default, "serve");
 * ```
 * @module
 */
import type { OptionConstraintRow, OptionRow } from "../rule.ts";

/** Rows of the `cli.options` table. */
export const OPTIONS = [
  {
    id: "cli.options.config-path",
    level: "MUST",
    statement:
      "`--config-path` (`-c`) names the bootstrap file; its suffix selects JSON, YAML, binary proto3 (`.pb`) or text proto3 (`.pb_text`).",
    cite: {
      section: "Command-line options",
      quote:
        "Bootstrap file. Extensions: .json, .yaml, .pb (binary proto3), .pb_text (text proto3). Required if --config-yaml is absent. Parsed as a v2 bootstrap.",
    },
    envoy:
      "Envoy of the v2 era matches suffixes case-sensitively and knows `.yaml` but not `.yml`; proxyspec also accepts `.yml`.",
    check: "command",
    long: "--config-path",
    short: "-c",
    arg: "path",
    default: "",
    variant: "both",
    field: "config_path",
    fieldKind: "string",
  },
  {
    id: "cli.options.config-yaml",
    level: "MUST",
    statement:
      "`--config-yaml` gives a bootstrap as YAML or JSON that is merged over the file of `--config-path` (objects merge, lists append, scalars overwrite).",
    envoy:
      'Envoy merges with protobuf MergeFrom, which skips proto3 default scalars (0, false, "") of the override; proxyspec lets any written scalar overwrite.',
    cite: {
      section: "Command-line options",
      quote:
        "Bootstrap as YAML (JSON also accepted). Overrides and merges over the file from --config-path.",
    },
    check: "command",
    long: "--config-yaml",
    arg: "yaml",
    default: "",
    variant: "both",
    field: "config_yaml",
    fieldKind: "string",
  },
  {
    id: "cli.options.bootstrap-version",
    level: "MUST",
    statement:
      "`--bootstrap-version` selects the API version the bootstrap is loaded as; unset, the previous version is tried and upgraded, then the latest.",
    cite: {
      section: "Command-line options",
      quote:
        "API version to load the bootstrap as (e.g. 3). Unset: load as previous API version and upgrade; if that fails, load as latest.",
    },
    envoy: 'Envoy\'s help says "If unset, all known versions will be attempted".',
    check: "command",
    long: "--bootstrap-version",
    arg: "integer",
    default: null,
    variant: "new",
  },
  {
    id: "cli.options.mode",
    level: "MUST",
    statement:
      "`--mode` is `serve` (default: validate the configuration, then serve) or `validate` (validate and exit: print OK and exit 0, or print the errors and exit 1, with no network traffic, no hot restart process, and other proxy processes undisturbed).",
    cite: {
      section: "Command-line options",
      quote:
        "`serve` (default): validate configuration then serve. `validate`: validate and exit; prints an OK message with exit code 0, or the errors with exit code 1; no network traffic, no hot restart process, other proxy processes undisturbed.",
    },
    envoy:
      "Envoy also accepts `init_only` (initialise, then exit 0), which the specification's table does not list; proxyspec accepts it too, as an extension.",
    check: "command",
    long: "--mode",
    arg: "string",
    default: "serve",
    variant: "both",
    choices: ["serve", "validate", "init_only"],
    field: "mode",
    fieldKind: "string",
    fieldValues: { "serve": "Serve", "validate": "Validate", "init_only": "InitOnly" },
  },
  {
    id: "cli.options.admin-address-path",
    level: "MUST",
    statement:
      "`--admin-address-path` names a file to which the bound admin address and port are written.",
    cite: {
      section: "Command-line options",
      quote: "File where the admin address and port are written.",
    },
    check: "command",
    long: "--admin-address-path",
    arg: "path",
    default: "",
    variant: "both",
    field: "admin_address_path",
    fieldKind: "string",
  },
  {
    id: "cli.options.local-address-ip-version",
    level: "MUST",
    statement: "`--local-address-ip-version` is `v4` (default) or `v6`.",
    cite: {
      section: "Command-line options",
      quote:
        "`v4` (default) or `v6`; sets the server local IP address, including what is appended to X-Forwarded-For.",
    },
    check: "command",
    long: "--local-address-ip-version",
    arg: "string",
    default: "v4",
    variant: "both",
    choices: ["v4", "v6"],
    field: "local_address_ip_version",
    fieldKind: "string",
  },
  {
    id: "cli.options.base-id",
    level: "MUST",
    statement: "`--base-id` sets the base ID of the hot restart shared regions (default 0).",
    cite: {
      section: "Command-line options",
      quote:
        "Base ID for shared memory regions used for hot restart; each proxy on one machine needs a unique value.",
    },
    check: "command",
    long: "--base-id",
    arg: "integer",
    default: 0,
    variant: "both",
    field: "base_id",
    fieldKind: "uint64-string",
  },
  {
    id: "cli.options.use-dynamic-base-id",
    level: "MUST",
    statement:
      "`--use-dynamic-base-id` picks an unused base ID and is rejected together with a non-zero `--restart-epoch`.",
    cite: {
      section: "Command-line options",
      quote:
        "Picks an unused base ID; supersedes --base-id; not allowed with a non-zero --restart-epoch (use --base-id then).",
    },
    check: "command",
    long: "--use-dynamic-base-id",
    arg: "none",
    default: false,
    variant: "new",
  },
  {
    id: "cli.options.base-id-path",
    level: "MUST",
    statement: "`--base-id-path` writes the base ID in use to a file.",
    cite: {
      section: "Command-line options",
      quote: "Writes the base ID to the path; compatible with --base-id.",
    },
    check: "command",
    long: "--base-id-path",
    arg: "path",
    default: "",
    variant: "new",
  },
  {
    id: "cli.options.concurrency",
    level: "MUST",
    statement:
      "`--concurrency` sets the number of workers (default: hardware threads); in the newer variant 0 runs one worker.",
    cite: {
      section: "Command-line options",
      quote:
        "Worker threads. Default: number of hardware threads. In the newer variant 0 still runs one worker.",
    },
    envoy:
      "Envoy accepts `--concurrency -1` (it wraps to 4294967295); proxyspec rejects negative numbers.",
    check: "command",
    long: "--concurrency",
    arg: "integer",
    default: null,
    variant: "both",
    field: "concurrency",
    fieldKind: "integer",
    meaningV2: "Worker threads; 0 is kept as 0 (no promotion to one worker).",
    support: "honoured",
    supportNote:
      "Above 1, that many worker threads each accept on every listener (reusePort); 1 serves on the main thread. Outlier detection, the LDS, CDS and RDS subscriptions, load reporting and /tap run once for the process on the main thread, which tells every worker to add, replace or remove each listener and route configuration.",
  },
  {
    id: "cli.options.log-level",
    level: "MUST",
    statement:
      "`--log-level` (`-l`) sets the level of every logger: trace, debug, info (default), warning (alias warn), error, critical or off.",
    cite: {
      section: "Command-line options",
      quote: "Logging level. Available levels and default: not shown.",
    },
    envoy: "The specification does not show the levels or the default; they are Envoy's.",
    check: "command",
    long: "--log-level",
    short: "-l",
    arg: "level",
    default: "info",
    variant: "both",
    field: "log_level",
    fieldKind: "string",
  },
  {
    id: "cli.options.component-log-level",
    level: "MUST",
    statement:
      "`--component-log-level` takes comma-separated `<component>:<level>` pairs that set single loggers.",
    cite: {
      section: "Command-line options",
      quote:
        "Comma-separated `<component>:<level>` pairs (e.g. upstream at debug and connection at trace).",
    },
    check: "command",
    long: "--component-log-level",
    arg: "component-levels",
    default: "",
    variant: "both",
    field: "component_log_level",
    fieldKind: "string",
  },
  {
    id: "cli.options.cpuset-threads",
    level: "MUST",
    statement:
      "`--cpuset-threads` uses the cpuset size as worker count when `--concurrency` is unset.",
    cite: {
      section: "Command-line options",
      quote:
        "When --concurrency is unset, on Linux use the cpuset size as worker-thread count; otherwise hardware threads.",
    },
    check: "command",
    long: "--cpuset-threads",
    arg: "none",
    default: false,
    variant: "both",
    field: "cpuset_threads",
    fieldKind: "boolean",
  },
  {
    id: "cli.options.log-path",
    level: "MUST",
    statement: "`--log-path` names the log file, reopened on SIGUSR1; unset, logs go to stderr.",
    cite: {
      section: "Command-line options",
      quote: "Log file, reopened on SIGUSR1. Unset: log to stderr.",
    },
    check: "command",
    long: "--log-path",
    arg: "path",
    default: "",
    variant: "both",
    field: "log_path",
    fieldKind: "string",
  },
  {
    id: "cli.options.log-format",
    level: "MUST",
    statement:
      "`--log-format` sets the layout of log lines; the default differs between the two variants.",
    cite: {
      section: "Command-line options",
      quote:
        "Layout of log message metadata. Default `[%Y-%m-%d %T.%e][%t][%l][%n] [%g:%#] %v` in the newer variant; `[%Y-%m-%d %T.%e][%t][%l][%n] %v` in the older.",
    },
    check: "command",
    long: "--log-format",
    arg: "format",
    default: "[%Y-%m-%d %T.%e][%t][%l][%n] [%g:%#] %v",
    defaultV2: "[%Y-%m-%d %T.%e][%t][%l][%n] %v",
    variant: "both",
    field: "log_format",
    fieldKind: "string",
  },
  {
    id: "cli.options.log-format-escaped",
    level: "MUST",
    statement:
      "`--log-format-escaped` escapes C-style escape sequences so one entry stays on one line, except trailing whitespace.",
    cite: {
      section: "Command-line options",
      quote:
        "Escapes C-style escape sequences in log output so one entry stays on one line; trailing whitespace such as end-of-line is not escaped. Can be combined with --log-format for parsable output.",
    },
    check: "command",
    long: "--log-format-escaped",
    arg: "none",
    default: false,
    variant: "new",
  },
  {
    id: "cli.options.restart-epoch",
    level: "MUST",
    statement: "`--restart-epoch` gives the hot restart epoch (default 0).",
    cite: {
      section: "Command-line options",
      quote:
        "Hot restart epoch, default 0; increment at each hot restart; tells whether to create or open the shared memory region. The hot restart wrapper sets the environment variable RESTART_EPOCH to pass here.",
    },
    check: "command",
    long: "--restart-epoch",
    arg: "integer",
    default: 0,
    variant: "both",
    field: "restart_epoch",
    fieldKind: "integer",
    support: "honoured",
    supportNote:
      "An epoch above 0 finds its parent on the hot restart socket, checks the protocol version, binds the same listeners (reusePort), drains the parent, takes over its stats and shuts it down after --parent-shutdown-time-s.",
    envoy:
      "Envoy hands its listening sockets to the new process over the hot restart domain socket (SCM_RIGHTS), so no queued connection is lost. proxyspec (Deno cannot adopt a descriptor) binds new sockets beside the parent's (reusePort) and, on Linux, steers every new connection to them with a classic BPF reuseport program (SO_ATTACH_REUSEPORT_CBPF) while the parent drains and keeps accepting, pinned before the parent's sockets close, detached once they are gone: no reset even with net.ipv4.tcp_migrate_req 0. Where that cannot be set up (no FFI, not Linux, or fewer workers in the new process than in the old), it logs a warning, and connections waiting in the parent's accept queues when they close are reset unless tcp_migrate_req is 1.",
  },
  {
    id: "cli.options.enable-fine-grain-logging",
    level: "MUST",
    statement:
      "`--enable-fine-grain-logging` makes loggers per source file, named by the file path in POST /logging.",
    cite: {
      section: "Command-line options",
      quote:
        "Per-file loggers with runtime control from the admin interface; the logger name used in POST /logging is then the file path.",
    },
    check: "command",
    long: "--enable-fine-grain-logging",
    arg: "none",
    default: false,
    variant: "new",
  },
  {
    id: "cli.options.socket-path",
    level: "MUST",
    statement:
      "`--socket-path` sets the hot restart socket address; a leading `@` means the abstract namespace.",
    cite: {
      section: "Command-line options",
      quote:
        "Hot restart socket address; default is an abstract-namespace name; the suffix `_{role}_{id}` is appended. All processes that hot restart together must use the same value. A leading `@` means abstract namespace.",
    },
    envoy: "Envoy's default is `@envoy_domain_socket`.",
    check: "command",
    long: "--socket-path",
    arg: "path",
    default: "@proxy_domain_socket",
    variant: "new",
  },
  {
    id: "cli.options.socket-mode",
    level: "MUST",
    statement:
      "`--socket-mode` sets the octal permission of a filesystem hot restart socket (default 600); it is not allowed with an abstract or unset `--socket-path`.",
    cite: {
      section: "Command-line options",
      quote:
        "Octal permission such as 644; default 600. Not allowed when --socket-path starts with `@` or is unset.",
    },
    envoy:
      "Envoy ignores `--socket-mode` when the socket path starts with `@` (mode forced to 0) instead of rejecting it.",
    check: "command",
    long: "--socket-mode",
    arg: "octal",
    default: "600",
    variant: "new",
  },
  {
    id: "cli.options.hot-restart-version",
    level: "MUST",
    statement:
      "`--hot-restart-version` prints the opaque hot restart compatibility version (to stderr, no newline) and exits 0.",
    cite: {
      section: "Command-line options",
      quote:
        "Prints an opaque hot restart compatibility version; compare with GET /hot_restart_version.",
    },
    check: "command",
    long: "--hot-restart-version",
    arg: "none",
    default: false,
    variant: "both",
    field: "hot_restart_version",
    fieldKind: "boolean",
  },
  {
    id: "cli.options.service-cluster",
    level: "MUST",
    statement: "`--service-cluster` overrides the bootstrap `node.cluster`.",
    cite: {
      section: "Command-line options",
      quote:
        "Local service cluster name; overrides the bootstrap node `cluster` field. Should be set when using: stats sinks, health check cluster verification, runtime override directory, user agent addition, global HTTP rate limiting, CDS, HTTP tracing.",
    },
    check: "command",
    long: "--service-cluster",
    arg: "string",
    default: "",
    variant: "both",
    field: "service_cluster",
    fieldKind: "string",
  },
  {
    id: "cli.options.service-node",
    level: "MUST",
    statement: "`--service-node` overrides the bootstrap `node.id`.",
    cite: {
      section: "Command-line options",
      quote:
        "Local service node name; overrides the bootstrap node `id`. Should be set when using stats sinks, CDS, HTTP tracing.",
    },
    check: "command",
    long: "--service-node",
    arg: "string",
    default: "",
    variant: "both",
    field: "service_node",
    fieldKind: "string",
  },
  {
    id: "cli.options.service-zone",
    level: "MUST",
    statement: "`--service-zone` overrides the bootstrap `node.locality.zone`.",
    cite: {
      section: "Command-line options",
      quote:
        "Local service zone; overrides the bootstrap node `locality.zone`. Should be set when discovery-service routing uses zone data.",
    },
    check: "command",
    long: "--service-zone",
    arg: "string",
    default: "",
    variant: "both",
    field: "service_zone",
    fieldKind: "string",
  },
  {
    id: "cli.options.file-flush-interval-msec",
    level: "MUST",
    statement:
      "`--file-flush-interval-msec` sets the file flush interval in milliseconds (default 10000).",
    cite: {
      section: "Command-line options",
      quote:
        "Flush interval in milliseconds; default 10 seconds. Buffers flush when full or when the interval elapses.",
    },
    check: "command",
    long: "--file-flush-interval-msec",
    arg: "integer",
    default: 10000,
    variant: "both",
    field: "file_flush_interval",
    fieldKind: "duration-ms",
  },
  {
    id: "cli.options.drain-time-s",
    level: "MUST",
    statement: "`--drain-time-s` sets the drain time in seconds (default 600).",
    cite: {
      section: "Command-line options",
      quote:
        "Seconds of connection draining during a hot restart (newer variant: also when listeners are modified or removed via LDS). Default 600. Should be smaller than the parent shutdown time.",
    },
    check: "command",
    long: "--drain-time-s",
    arg: "integer",
    default: 600,
    variant: "both",
    field: "drain_time",
    fieldKind: "duration-s",
    meaningV2: "Seconds of connection draining during a hot restart only.",
  },
  {
    id: "cli.options.drain-strategy",
    level: "MUST",
    statement: "`--drain-strategy` is `gradual` (default) or `immediate`.",
    cite: {
      section: "Command-line options",
      quote:
        "`gradual` (default; share of requests encouraged to drain rises to 100% over the drain time) or `immediate` (all at once). Draining terminates connections on request completion, sends `Connection: CLOSE` on HTTP/1 and GOAWAY on HTTP/2.",
    },
    check: "command",
    long: "--drain-strategy",
    arg: "string",
    default: "gradual",
    variant: "new",
    choices: ["gradual", "immediate"],
  },
  {
    id: "cli.options.parent-shutdown-time-s",
    level: "MUST",
    statement:
      "`--parent-shutdown-time-s` sets the seconds before the parent shuts down during hot restart (default 900).",
    cite: {
      section: "Command-line options",
      quote: "Seconds to wait before shutting down the parent during hot restart. Default 900.",
    },
    check: "command",
    long: "--parent-shutdown-time-s",
    arg: "integer",
    default: 900,
    variant: "both",
    field: "parent_shutdown_time",
    fieldKind: "duration-s",
    support: "honoured",
    supportNote:
      "Read by a hot-restarted process (epoch above 0): that long after it is LIVE it tells its parent to shut down, and adds the last stats the parent answers with.",
  },
  {
    id: "cli.options.disable-hot-restart",
    level: "MUST",
    statement: "`--disable-hot-restart` disables hot restart.",
    cite: { section: "Command-line options", quote: "Disables hot restart (enabled by default)." },
    check: "command",
    long: "--disable-hot-restart",
    arg: "none",
    default: false,
    variant: "both",
    field: "disable_hot_restart",
    fieldKind: "boolean",
  },
  {
    id: "cli.options.enable-mutex-tracing",
    level: "MUST",
    statement: "`--enable-mutex-tracing` enables mutex contention stats and GET /contention.",
    cite: {
      section: "Command-line options",
      quote:
        "Enables mutex contention stats and GET /contention; off by default because of a slight performance cost.",
    },
    check: "command",
    long: "--enable-mutex-tracing",
    arg: "none",
    default: false,
    variant: "both",
    field: "enable_mutex_tracing",
    fieldKind: "boolean",
  },
  {
    id: "cli.options.allow-unknown-fields",
    level: "MUST",
    statement:
      "`--allow-unknown-fields` is a deprecated alias of `--allow-unknown-static-fields` in the newer variant and logs a deprecation warning.",
    cite: {
      section: "Command-line options",
      quote:
        "Older variant: disables unknown-field validation of protobuf configuration. Newer variant: deprecated alias of --allow-unknown-static-fields.",
    },
    check: "command",
    long: "--allow-unknown-fields",
    arg: "none",
    default: false,
    variant: "both",
    meaningV2: "Disables unknown-field validation of all protobuf configuration.",
    aliasOf: "--allow-unknown-static-fields",
  },
  {
    id: "cli.options.allow-unknown-static-fields",
    level: "MUST",
    statement:
      "`--allow-unknown-static-fields` accepts unknown fields of static configuration, logging each on first use and counting it in `server.static_unknown_fields`.",
    cite: {
      section: "Command-line options",
      quote:
        "Disables unknown-field validation of static configuration; validation is on by default. Warnings are logged on first use of an unknown field and counted in statistic `server.static_unknown_fields`.",
    },
    check: "command",
    long: "--allow-unknown-static-fields",
    arg: "none",
    default: false,
    variant: "new",
    field: "allow_unknown_static_fields",
    fieldKind: "boolean",
  },
  {
    id: "cli.options.reject-unknown-dynamic-fields",
    level: "MUST",
    statement: "`--reject-unknown-dynamic-fields` rejects unknown fields of dynamic configuration.",
    cite: {
      section: "Command-line options",
      quote:
        "Default false: dynamic configuration is not validated for unknown fields. When true, strict validation. Warnings logged and counted in `server.dynamic_unknown_fields`.",
    },
    check: "command",
    long: "--reject-unknown-dynamic-fields",
    arg: "none",
    default: false,
    variant: "new",
  },
  {
    id: "cli.options.ignore-unknown-dynamic-fields",
    level: "MUST",
    statement:
      "`--ignore-unknown-dynamic-fields` accepts unknown dynamic fields without warning or counting, unless `--reject-unknown-dynamic-fields` is set.",
    cite: {
      section: "Command-line options",
      quote:
        "Like the default of the previous option but with no warnings and no counting; no effect when --reject-unknown-dynamic-fields is true.",
    },
    check: "command",
    long: "--ignore-unknown-dynamic-fields",
    arg: "none",
    default: false,
    variant: "new",
  },
  {
    id: "cli.options.disable-extensions",
    level: "MUST",
    statement:
      "`--disable-extensions` takes a comma-separated list of `<category>/<name>` extensions that configuration may not use.",
    cite: {
      section: "Command-line options",
      quote:
        "Extension names of the form `<category>/<name>` (e.g. `proxy.grpc_credentials/proxy.grpc_credentials.file_based_metadata`). Disabled extensions cannot be used by configuration but remain linked.",
    },
    envoy: "Envoy only warns about names it does not know; so does proxyspec.",
    check: "command",
    long: "--disable-extensions",
    arg: "list",
    default: "",
    variant: "new",
  },
  {
    id: "cli.options.version",
    level: "MUST",
    statement:
      "`--version` prints the five-part version (revision/release/tree status/build mode/TLS library) to stdout and exits 0.",
    cite: {
      section: "Command-line options",
      quote:
        "Prints version information of five slash-separated parts: source revision, release number (release or development build such as `<x.y.z>-dev`), source tree status (`Clean` or `Modified`), build mode (`RELEASE` or `DEBUG`), TLS library (`<tls_lib>` or `<tls_lib>-FIPS`).",
    },
    check: "command",
    long: "--version",
    arg: "none",
    default: false,
    variant: "both",
  },
  {
    id: "cli.options.enable-core-dump",
    level: "MUST",
    statement: "`--enable-core-dump` enables core dumps on Linux and is a no-op elsewhere.",
    cite: {
      section: "Command-line options",
      quote:
        "Linux only (no-op elsewhere); enables core dumps through the dumpable process setting.",
    },
    envoy:
      "Envoy added this option after its v2 era (1.18+) and only sets the dumpable flag; proxyspec also raises RLIMIT_CORE (to unlimited, or to the hard limit).",
    check: "internal",
    long: "--enable-core-dump",
    arg: "none",
    default: false,
    variant: "new",
  },
] as const satisfies readonly OptionRow[];

/**
 * Rows of the `cli.constraints` table. Parse errors (`unknown-option`, `repeated-option`,
 * `missing-value`, `bad-integer`) are printed inside a `PARSE ERROR` block with a usage summary;
 * the other errors print their message alone; `warning` rows are logged and the command line is
 * accepted.
 */
export const OPTION_CONSTRAINTS = [
  {
    id: "cli.constraints.config-required",
    level: "MUST",
    statement:
      "A command line with neither `--config-path` nor `--config-yaml` is rejected with exit code 1 (checked after `--version` and `--hot-restart-version`).",
    cite: {
      section: "Command-line options",
      quote: "at least one of `--config-path` and `--config-yaml` must be given",
    },
    envoy:
      "Envoy raises it while loading, as `At least one of --config-path or --config-yaml or Options::configProto() should be non-empty` (older: `... and --config-yaml should be non-empty`).",
    check: "command",
    options: ["--config-path", "--config-yaml"],
    message: "At least one of --config-path or --config-yaml should be non-empty",
  },
  {
    id: "cli.constraints.unknown-option",
    level: "MUST",
    statement:
      "An unknown option or a stray positional argument is rejected with a parse error and a usage summary, exit code 1.",
    cite: {
      section: "What the service does",
      quote:
        "Command-line options that select the configuration file, the operating mode, logging, threading, hot restart and unknown-field validation.",
    },
    envoy:
      "Envoy (TCLAP) also rejects `--flag=value` with this message; proxyspec accepts `--flag=value` as `--flag value`.",
    check: "command",
    options: [],
    message: "Couldn't find match for argument",
  },
  {
    id: "cli.constraints.new-option-in-v2",
    level: "MUST",
    statement: "In the older variant an option marked (new) is an unknown option.",
    cite: {
      section: "Command-line options",
      quote: "options marked (new) exist only in the newer variant",
    },
    check: "command",
    options: [],
    message: "Couldn't find match for argument",
  },
  {
    id: "cli.constraints.repeated-option",
    level: "MUST",
    statement: "An option given twice (also through its short form) is rejected, exit code 1.",
    cite: {
      section: "What the service does",
      quote:
        "Command-line options that select the configuration file, the operating mode, logging, threading, hot restart and unknown-field validation.",
    },
    check: "command",
    options: [],
    message: "Argument already set!",
  },
  {
    id: "cli.constraints.missing-value",
    level: "MUST",
    statement: "An option that takes a value and has none is rejected, exit code 1.",
    cite: {
      section: "What the service does",
      quote:
        "Command-line options that select the configuration file, the operating mode, logging, threading, hot restart and unknown-field validation.",
    },
    check: "command",
    options: [],
    message: "Missing a value for this argument!",
  },
  {
    id: "cli.constraints.bad-integer",
    level: "MUST",
    statement:
      "An integer option whose value is not a whole number from 0 to 4294967295 is rejected, exit code 1.",
    cite: { section: "Command-line options", quote: "| integer |" },
    envoy: "Envoy accepts `-1` (it wraps to 4294967295); proxyspec rejects negative numbers.",
    check: "command",
    options: [],
    message: "Couldn't read argument value from string '{}'",
  },
  {
    id: "cli.constraints.log-level",
    level: "MUST",
    statement:
      "A `--log-level` that is not a level name (trace, debug, info, warning, warn, error, critical, off) is rejected, exit code 1.",
    cite: {
      section: "Command-line options",
      quote: "Logging level. Available levels and default: not shown.",
    },
    check: "command",
    options: ["--log-level"],
    message: "error: invalid log level specified '{}'",
  },
  {
    id: "cli.constraints.component-format",
    level: "MUST",
    statement:
      "A `--component-log-level` item that is not `<component>:<level>` is rejected, exit code 1.",
    cite: { section: "Command-line options", quote: "Comma-separated `<component>:<level>` pairs" },
    check: "command",
    options: ["--component-log-level"],
    message: "error: component log level not correctly specified '{}'",
  },
  {
    id: "cli.constraints.component-level",
    level: "MUST",
    statement: "A `--component-log-level` item with an unknown level is rejected, exit code 1.",
    cite: { section: "Command-line options", quote: "Comma-separated `<component>:<level>` pairs" },
    check: "command",
    options: ["--component-log-level"],
    message: "error: invalid log level specified '{}'",
  },
  {
    id: "cli.constraints.component-unknown",
    level: "MUST",
    statement:
      "A `--component-log-level` item naming an unknown component is rejected, exit code 1.",
    cite: { section: "Command-line options", quote: "Comma-separated `<component>:<level>` pairs" },
    check: "command",
    options: ["--component-log-level"],
    message: "error: invalid component specified '{}'",
  },
  {
    id: "cli.constraints.mode",
    level: "MUST",
    statement:
      "A `--mode` other than serve or validate (or the init_only extension) is rejected, exit code 1.",
    cite: {
      section: "Command-line options",
      quote: "`serve` (default): validate configuration then serve.",
    },
    check: "command",
    options: ["--mode"],
    message: "error: unknown mode '{}'",
  },
  {
    id: "cli.constraints.ip-version",
    level: "MUST",
    statement: "A `--local-address-ip-version` other than v4 or v6 is rejected, exit code 1.",
    cite: { section: "Command-line options", quote: "`v4` (default) or `v6`" },
    check: "command",
    options: ["--local-address-ip-version"],
    message: "error: unknown IP address version '{}'",
  },
  {
    id: "cli.constraints.dynamic-base-id-epoch",
    level: "MUST",
    statement:
      "`--use-dynamic-base-id` with a non-zero `--restart-epoch` is rejected, exit code 1.",
    cite: {
      section: "Command-line options",
      quote: "not allowed with a non-zero --restart-epoch (use --base-id then)",
    },
    check: "command",
    options: ["--use-dynamic-base-id", "--restart-epoch"],
    message: "error: cannot use --restart-epoch={} with --use-dynamic-base-id",
  },
  {
    id: "cli.constraints.socket-mode-octal",
    level: "MUST",
    statement:
      "A `--socket-mode` that is not an octal number from 0 to 777 is rejected, exit code 1.",
    cite: { section: "Command-line options", quote: "Octal permission such as 644; default 600." },
    check: "command",
    options: ["--socket-mode"],
    message: "error: invalid socket-mode '{}'",
  },
  {
    id: "cli.constraints.socket-mode-abstract",
    level: "MUST",
    statement:
      "`--socket-mode` without a filesystem `--socket-path` (unset or starting with `@`) is rejected, exit code 1.",
    cite: {
      section: "Command-line options",
      quote: "Not allowed when --socket-path starts with `@` or is unset.",
    },
    envoy: "Envoy accepts it and ignores the mode (forced to 0, never parsed).",
    check: "command",
    options: ["--socket-mode", "--socket-path"],
    message: "error: --socket-mode is not allowed when --socket-path is unset or starts with '@'",
  },
  {
    id: "cli.constraints.drain-strategy",
    level: "MUST",
    statement:
      "A `--drain-strategy` other than gradual or immediate is rejected, naming the bad value, exit code 1.",
    cite: {
      section: "Command-line options",
      quote:
        "`gradual` (default; share of requests encouraged to drain rises to 100% over the drain time) or `immediate` (all at once).",
    },
    envoy:
      "Envoy fills the placeholder with the `--mode` value (a bug), so it prints `error: unknown drain-strategy 'serve'`.",
    check: "command",
    options: ["--drain-strategy"],
    message: "error: unknown drain-strategy '{}'",
  },
  {
    id: "cli.constraints.bootstrap-version",
    level: "MUST",
    statement: "A `--bootstrap-version` other than 2 or 3 is rejected, exit code 1.",
    cite: {
      section: "Command-line options",
      quote: "API version to load the bootstrap as (e.g. 3).",
    },
    envoy: "Envoy fails later, while loading the bootstrap.",
    check: "command",
    options: ["--bootstrap-version"],
    message: "error: unknown bootstrap version '{}' (expected 2 or 3)",
  },
  {
    id: "cli.constraints.ignore-with-reject",
    level: "MUST",
    statement:
      "`--ignore-unknown-dynamic-fields` together with `--reject-unknown-dynamic-fields` is accepted with a warning; rejection wins.",
    cite: {
      section: "Command-line options",
      quote: "no effect when --reject-unknown-dynamic-fields is true",
    },
    envoy: "Envoy silently lets rejection win.",
    check: "command",
    options: ["--ignore-unknown-dynamic-fields", "--reject-unknown-dynamic-fields"],
    message:
      "--ignore-unknown-dynamic-fields has no effect when --reject-unknown-dynamic-fields is set",
    severity: "warning",
  },
  {
    id: "cli.constraints.allow-unknown-fields-deprecated",
    level: "MUST",
    statement:
      "In the newer variant `--allow-unknown-fields` logs a deprecation warning and acts as `--allow-unknown-static-fields`.",
    cite: {
      section: "Command-line options",
      quote: "Newer variant: deprecated alias of --allow-unknown-static-fields.",
    },
    check: "command",
    options: ["--allow-unknown-fields"],
    message: "--allow-unknown-fields is deprecated, use --allow-unknown-static-fields instead.",
    severity: "warning",
  },
  {
    id: "cli.constraints.concurrency-with-cpuset",
    level: "MUST",
    statement:
      "`--concurrency` together with `--cpuset-threads` logs a warning and `--concurrency` wins.",
    cite: {
      section: "Command-line options",
      quote: "When --concurrency is unset, on Linux use the cpuset size as worker-thread count",
    },
    check: "command",
    options: ["--concurrency", "--cpuset-threads"],
    message:
      "Both --concurrency and --cpuset-threads options are set; not applying --cpuset-threads.",
    severity: "warning",
  },
  {
    id: "cli.constraints.disabled-extension",
    level: "MUST",
    statement:
      "A bootstrap that uses an extension named by `--disable-extensions` (an HTTP, network or listener filter, an upstream or downstream transport socket, a stats sink or a custom cluster type, in either the `envoy.` or the `proxy.` spelling) fails to load with an error that names the place and the extension, exit code 1.",
    cite: {
      section: "Command-line options",
      quote: "Disabled extensions cannot be used by configuration but remain linked.",
    },
    envoy:
      "Envoy unregisters the factory, so loading fails with `Didn't find a registered implementation for name: '<name>'`.",
    check: "command",
    options: ["--disable-extensions", "--config-path"],
    message: "extension '{}' ({}) is disabled by --disable-extensions",
  },
  {
    id: "cli.constraints.disable-extensions-unknown",
    level: "MUST",
    statement:
      "A `--disable-extensions` name of the form `<category>/<name>` that names no extension of this implementation is logged as a warning and ignored.",
    cite: {
      section: "Command-line options",
      quote:
        "Extension names of the form `<category>/<name>` (e.g. `proxy.grpc_credentials/proxy.grpc_credentials.file_based_metadata`).",
    },
    check: "command",
    options: [],
    message: "failed to disable unknown extension '{}'",
    severity: "warning",
  },
  {
    id: "cli.constraints.disable-extensions-invalid",
    level: "MUST",
    statement:
      "A `--disable-extensions` name without a `/` between category and name is logged as a warning and ignored.",
    cite: {
      section: "Command-line options",
      quote: "Extension names of the form `<category>/<name>`",
    },
    check: "command",
    options: ["--disable-extensions"],
    message: "failed to disable invalid extension name '{}'",
    severity: "warning",
  },
] as const satisfies readonly OptionConstraintRow[];
