/**
 * The row shapes of the executable specification.
 *
 * Every table in `spec/` is an array of rows that extend {@linkcode Rule}: a stable ID, a
 * requirement level, one present-tense sentence, and a verbatim quote of the specification
 * (`../shared/seed/000_e4dc442def0e3275.txt`) that the row encodes. Domain tables add the typed
 * columns their interpreter needs (the admin router, the argv parser, the cluster validator, the
 * log formatter, the conformance suite). Tables hold data only; behaviour lives in `src/`.
 *
 * @example
 * ```ts
 * import type { Rule } from "./rule.ts";
 * const row: Rule = {
 *   id: "admin.general.get-on-mutating-path-400",
 *   level: "MUST",
 *   statement: "GET on a mutating path answers 400 and changes nothing.",
 *   cite: { section: "What the service does", quote: "A GET sent to a mutating path has no effect and the response is HTTP 400." },
 *   check: "black-box",
 * };
 * ```
 * @module
 */

/** RFC 2119 requirement level of a rule. */
export type Level = "MUST" | "SHOULD" | "MAY";

/**
 * How a conformance run can verify a rule: over HTTP against any admin interface (`black-box`),
 * by running the implementation's binary (`command`), only when the target loaded a named fixture
 * (`fixture:<name>`), or only from inside this implementation (`internal`).
 */
export type Check = "black-box" | "command" | "internal" | `fixture:${string}`;

/** Where in the specification a rule comes from. `quote` occurs verbatim in the specification. */
export interface Cite {
  /** The heading of the specification section (the text after the `#` marks). */
  section: string;
  /** Words copied verbatim from that section. */
  quote: string;
}

/** The shape every row of every table extends. */
export interface Rule {
  /** Stable dotted slug, never reused: lower-case words joined by `.` and `-`. */
  id: string;
  level: Level;
  /** One sentence, present tense. */
  statement: string;
  cite: Cite;
  /** How real Envoy differs, when it does (from `../shared/reference/`). */
  envoy?: string;
  check: Check;
  /** Set when this implementation cannot yet honour the rule; the conformance suite reports it. */
  unimplemented?: string;
  /**
   * Whether this build honours the configuration field or option the row describes: `honoured`
   * (set, it has its effect), `refused` (set at all, `--mode validate` and serve reject it with
   * its path), `default-only` (accepted only when its value equals the row's default, a harmless
   * explicit default; any other value is refused). Rows that describe no setting leave it unset.
   */
  support?: Support;
  /** Why a setting is refused or limited, or how it is honoured; shown with the refusal. */
  supportNote?: string;
}

/** Support states of a configuration field or command-line option in this build. */
export type Support = "honoured" | "refused" | "default-only";

/** The names of the tables; `spec/rules.json` tags every row with one of them. */
export type TableName =
  | "admin.endpoints"
  | "admin.general"
  | "admin.resources"
  | "admin.stats_shapes"
  | "admin.states"
  | "errors"
  | "limits"
  | "versioning"
  | "security"
  | "events"
  | "cluster.fields"
  | "cluster.objects"
  | "cluster.enums"
  | "cluster.rules"
  | "cli.options"
  | "cli.constraints"
  | "cli.log_format";

// ---------------------------------------------------------------------------------------------
// Admin interface
// ---------------------------------------------------------------------------------------------

/** Optional features some endpoints depend on. */
export type Feature =
  | "health_check_filter"
  | "cpu_profiler"
  | "heap_profiler"
  | "mutex_tracing"
  | "dashboard_sink"
  | "tap";

/** A query parameter an endpoint row accepts. */
export interface QueryParam {
  name: string;
  /** `flag`: set by presence, any value; `value`: free text; `enum`: one of `values`;
   * `pairs`: arbitrary `key=value` pairs (runtime_modify, logging). */
  kind: "flag" | "value" | "enum" | "pairs";
  values?: readonly string[];
  /** One line for `/help` and the OpenAPI description. */
  help: string;
}

/** One row of the specification's Endpoints table. */
export interface EndpointRow extends Rule {
  method: "GET" | "POST";
  /** The path without its query, e.g. `/stats` for `GET /stats?usedonly`. */
  path: string;
  /** The literal query of the row, e.g. `format=json&usedonly`; empty for the bare path. */
  query: string;
  /** Parameters this row uses (a path's parameters are the union over its rows). */
  params: readonly QueryParam[];
  mutating: boolean;
  requires?: Feature;
  /** Content type of a successful answer. */
  contentType: string;
  /** A short description of the body's shape (`text`, `json:ServerInfo`, `html`, `event-stream`). */
  shape: string;
  /** Help line for `/help` and the home page (one per path; the path's first row carries it). */
  help: string;
}

// ---------------------------------------------------------------------------------------------
// Command line
// ---------------------------------------------------------------------------------------------

/** Argument kinds of command-line options. */
export type ArgKind =
  | "none"
  | "string"
  | "path"
  | "integer"
  | "yaml"
  | "list"
  | "octal"
  | "level"
  | "component-levels"
  | "format";

/** The two variants of the option set. */
export type Variant = "new" | "v2";

/** One command-line option. */
export interface OptionRow extends Rule {
  long: `--${string}`;
  short?: `-${string}`;
  arg: ArgKind;
  /** Value when the option is absent (newer variant). `null`: none, or computed at start-up. */
  default: string | number | boolean | null;
  /** Value when absent in the older variant, when it differs. */
  defaultV2?: string | number | boolean | null;
  /** `both`: in both variants; `new`: only in the newer variant. */
  variant: "both" | "new";
  /** Allowed values (for `--mode`, `--local-address-ip-version`, `--drain-strategy`). */
  choices?: readonly string[];
  /** The `command_line_options` field of `/server_info` this option fills, if any. */
  field?: string;
  /** How `/server_info` renders the field: duration fields such as `drain_time` print `600s`. */
  fieldKind?: "string" | "integer" | "boolean" | "duration-s" | "duration-ms" | "uint64-string";
  /** How an option value maps to the `/server_info` field value when they differ
   * (`--mode serve` -> `"Serve"`). */
  fieldValues?: Readonly<Record<string, string>>;
  /** Meaning in the older variant, when it differs. */
  meaningV2?: string;
  /** Option names this one is an alias of (e.g. `--allow-unknown-fields`). */
  aliasOf?: `--${string}`;
}

/** A cross-option constraint; `when` names the condition in the parser's vocabulary. */
export interface OptionConstraintRow extends Rule {
  options: readonly `--${string}`[];
  /** Exact message printed to stderr (placeholders `{}` filled by the parser). */
  message: string;
  /** `error` (default): exit code 1; `warning`: logged, the command line is accepted. */
  severity?: "error" | "warning";
}

/** One log-format flag (`%v`, `%t`, ...); a row may list aliases (`%T`, `%X`). */
export interface LogFlagRow extends Rule {
  flags: readonly string[];
  variant: "both" | "new";
  meaning: string;
  /** A regular expression (source, no anchors) that matches every rendering of the flag, for
   * conformance checks of log lines. */
  pattern?: string;
}

// ---------------------------------------------------------------------------------------------
// Cluster
// ---------------------------------------------------------------------------------------------

/** Discovery types of a cluster. */
export type DiscoveryType = "STATIC" | "STRICT_DNS" | "LOGICAL_DNS" | "EDS" | "ORIGINAL_DST";

/** Value kinds of configuration fields, as proto3 JSON spells them. */
export type ValueKind =
  | "string"
  /** Protobuf `bytes`: base64 in proto3 JSON (standard or URL-safe, padding optional). */
  | "bytes"
  | "bool"
  | "enum"
  | "duration"
  | "uint32"
  | "uint64"
  | "int64"
  | "UInt32Value"
  | "UInt64Value"
  | "double"
  | "Percent"
  | "message"
  | "struct"
  | "any";

/** One field of the Cluster message or of a nested object. */
export interface FieldRow extends Rule {
  /** The message the field belongs to: `Cluster`, `Cluster.RingHashLbConfig`, ... */
  message: string;
  /** JSON (proto) name, exact. */
  field: string;
  kind: ValueKind;
  /** `repeated` fields are arrays; `map` fields are objects keyed by string. */
  cardinality?: "single" | "repeated" | "map";
  /** For `message` kinds: the message type name; described ones have rows of their own. */
  type?: string;
  /** For `enum` kinds: the enum name in `cluster.enums`. */
  enum?: string;
  required?: boolean;
  /** Default in proto3 JSON form (`"5s"`, `1048576`, `"ROUND_ROBIN"`, `{ value: 50 }`). */
  default?: unknown;
  /** Inclusive bounds. For durations, in milliseconds; `gtZero` for "greater than 0";
   * `exclusiveMin` for "greater than" another bound. */
  range?: { min?: number; max?: number; gtZero?: boolean; exclusiveMin?: number };
  /** Exclusivity group: at most one member of a group may be set. */
  group?: string;
  /** Set on every member of a group of which exactly one member must be set (a required oneof). */
  groupRequired?: boolean;
  /** Discovery types the field applies to; unset means all. */
  appliesTo?: readonly DiscoveryType[];
  /** When set outside `appliesTo`: `error` (rejected) or `ignored`. */
  outside?: "error" | "ignored";
  deprecated?: boolean;
  /** The v2 proto field number (for `.pb` / `.pb_text`). */
  number?: number;
}

/** One enumeration. */
export interface EnumRow extends Rule {
  name: string;
  values: readonly { name: string; number: number; meaning?: string }[];
  default: string;
}

/** A cross-field rule of the Cluster message, in a form the validator interprets. */
export type ClusterRuleKind =
  | { kind: "requires-policy"; field: string; policies: readonly string[] }
  | { kind: "unique-name" }
  | { kind: "hosts-required"; types: readonly DiscoveryType[] }
  | { kind: "min-not-above-max"; min: string; max: string }
  | { kind: "policy-type"; policy: string; types: readonly DiscoveryType[] }
  | { kind: "type-policy"; type: DiscoveryType; policies: readonly string[] }
  | { kind: "semantic"; name: string }
  /** A discovery type needs a field set (EDS needs eds_cluster_config). */
  | { kind: "type-requires"; type: DiscoveryType; field: string }
  /**
   * The citation of an exclusivity group of the field rows' `group` column (at most one member
   * set): the schema check enforces every group alike and reports this row's ID and message.
   */
  | { kind: "group"; group: string }
  /** A field may not be set together with one of these policies. */
  | { kind: "policy-forbids"; field: string; policies: readonly string[] }
  /** When the dotted path `field` is true or set, the dotted path `requires` must be set. */
  | { kind: "requires-field"; field: string; requires: string }
  /** A repeated field holds at most `max` items. */
  | { kind: "max-items"; field: string; max: number }
  /** `cluster_type.name` must be one of these registered factory names; each maps to the
   * discovery type whose behaviour it selects. */
  | { kind: "custom-type"; names: readonly { name: string; type: DiscoveryType }[] };

/** One cross-field rule. */
export interface ClusterRuleRow extends Rule {
  rule: ClusterRuleKind;
  /** The error text, with `{}` placeholders the validator fills. */
  message: string;
}

// ---------------------------------------------------------------------------------------------
// Plain rule tables
// ---------------------------------------------------------------------------------------------

/** One row of the Limits table. */
export interface LimitRow extends Rule {
  item: string;
  /** Machine-readable value: a default and/or bounds in the item's own unit. */
  value: { default?: number | string | null; min?: number; max?: number; unit?: string };
}

/** One row of the States table (and the server-state sentence). */
export interface StateRow extends Rule {
  from: string;
  trigger: string;
  condition: string;
  to: string;
  effects: string;
}

/** One row of the Errors table. */
export interface ErrorRow extends Rule {
  condition: string;
  result: string;
  /** HTTP status or process exit code the result names, when it names one. */
  status?: number;
  exitCode?: number;
}
