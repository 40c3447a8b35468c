/**
 * Rows of table `cluster.objects` for `Cluster.LbSubsetConfig`, `Cluster.LbSubsetConfig.LbSubsetSelector`.
 * The rows are shown by the specification.
 *
 * @module
 */
import type { FieldRow } from "../../rule.ts";

/** Cluster.LbSubsetConfig, Cluster.LbSubsetConfig.LbSubsetSelector: rows the specification shows. */
export const LB_SUBSET_CONFIG = [
  {
    id: "cluster.objects.lb-subset-config.fallback-policy",
    level: "MUST",
    statement:
      '`fallback_policy` is a Cluster.LbSubsetConfig.LbSubsetFallbackPolicy value; unset, it defaults to "NO_FALLBACK".',
    cite: {
      section: "Cluster.LbSubsetConfig",
      quote:
        "fallback_policy | LbSubsetFallbackPolicy | Behaviour when no subset matches the route metadata. Default NO_FALLBACK.",
    },
    check: "command",
    message: "Cluster.LbSubsetConfig",
    field: "fallback_policy",
    number: 1,
    kind: "enum",
    enum: "Cluster.LbSubsetConfig.LbSubsetFallbackPolicy",
    default: "NO_FALLBACK",
    support: "honoured",
  },
  {
    id: "cluster.objects.lb-subset-config.default-subset",
    level: "MUST",
    statement: "`default_subset` is a Struct (any JSON object).",
    cite: {
      section: "Cluster.LbSubsetConfig",
      quote:
        "default_subset | Struct | Used when fallback_policy is DEFAULT_SUBSET; each field is compared to the endpoint metadata in the `proxy.lb` namespace. It is valid that no host matches; behaviour is then as NO_FALLBACK.",
    },
    check: "command",
    message: "Cluster.LbSubsetConfig",
    field: "default_subset",
    number: 2,
    kind: "struct",
    support: "honoured",
  },
  {
    id: "cluster.objects.lb-subset-config.subset-selectors",
    level: "MUST",
    statement:
      "`subset_selectors` is a list of Cluster.LbSubsetConfig.LbSubsetSelector message values.",
    cite: {
      section: "Cluster.LbSubsetConfig",
      quote:
        "subset_selectors | array of LbSubsetSelector | For each entry the `proxy.lb` endpoint metadata is traversed and a subset is created per unique combination of key values. A subset matches when the route and weighted-cluster metadata contain the same keys and values. One host may be in several subsets.",
    },
    check: "command",
    message: "Cluster.LbSubsetConfig",
    field: "subset_selectors",
    number: 3,
    kind: "message",
    cardinality: "repeated",
    type: "Cluster.LbSubsetConfig.LbSubsetSelector",
    support: "honoured",
  },
  {
    id: "cluster.objects.lb-subset-config.locality-weight-aware",
    level: "MUST",
    statement: "`locality_weight_aware` is a bool; unset, it defaults to false.",
    cite: {
      section: "Cluster.LbSubsetConfig",
      quote:
        "locality_weight_aware | bool | When true, subset routing takes localities and locality weights into account; may give an undesirable traffic split (for example a single selected host in one locality receiving that locality's whole share).",
    },
    check: "command",
    message: "Cluster.LbSubsetConfig",
    field: "locality_weight_aware",
    number: 4,
    kind: "bool",
    default: false,
    support: "honoured",
  },
  {
    id: "cluster.objects.lb-subset-config.scale-locality-weight",
    level: "MUST",
    statement: "`scale_locality_weight` is a bool; unset, it defaults to false.",
    cite: {
      section: "Cluster.LbSubsetConfig",
      quote:
        "scale_locality_weight | bool | Used with locality_weight_aware; scales each locality weight by the ratio of hosts in the subset to hosts in the original subset.",
    },
    check: "command",
    message: "Cluster.LbSubsetConfig",
    field: "scale_locality_weight",
    number: 5,
    kind: "bool",
    default: false,
    support: "honoured",
  },
  {
    id: "cluster.objects.lb-subset-config.panic-mode-any",
    level: "MUST",
    statement: "`panic_mode_any` is a bool; unset, it defaults to false.",
    cite: {
      section: "Cluster.LbSubsetConfig",
      quote:
        "panic_mode_any | bool | When true and the fallback subset finds no host, any host of the whole cluster is selected.",
    },
    check: "command",
    message: "Cluster.LbSubsetConfig",
    field: "panic_mode_any",
    number: 6,
    kind: "bool",
    default: false,
    support: "honoured",
  },
  {
    id: "cluster.objects.lb-subset-config.list-as-any",
    level: "MUST",
    statement: "`list_as_any` is a bool; unset, it defaults to false.",
    cite: {
      section: "Cluster.LbSubsetConfig",
      quote:
        "list_as_any | bool | When true, a metadata value matches endpoint metadata if equal exactly, or if the endpoint value is a list and any element matches.",
    },
    check: "command",
    message: "Cluster.LbSubsetConfig",
    field: "list_as_any",
    number: 7,
    kind: "bool",
    default: false,
    support: "honoured",
  },
  {
    id: "cluster.objects.lb-subset-config.lb-subset-selector.keys",
    level: "MUST",
    statement: "`keys` is a list of string values.",
    cite: {
      section: "Cluster.LbSubsetConfig",
      quote:
        "LbSubsetSelector: `keys` (array of string; keys matched against the weighted-cluster metadata)",
    },
    check: "command",
    message: "Cluster.LbSubsetConfig.LbSubsetSelector",
    field: "keys",
    number: 1,
    kind: "string",
    cardinality: "repeated",
    support: "honoured",
  },
  {
    id: "cluster.objects.lb-subset-config.lb-subset-selector.fallback-policy",
    level: "MUST",
    statement:
      '`fallback_policy` is a LbSubsetSelectorFallbackPolicy value; unset, it defaults to "NOT_DEFINED".',
    cite: {
      section: "Cluster.LbSubsetConfig",
      quote:
        "`fallback_policy` (LbSubsetSelectorFallbackPolicy; overrides the top-level policy for this selector)",
    },
    envoy:
      "Envoy also has fallback_keys_subset and the KEYS_SUBSET policy, which the specification does not list.",
    check: "command",
    message: "Cluster.LbSubsetConfig.LbSubsetSelector",
    field: "fallback_policy",
    number: 2,
    kind: "enum",
    enum: "LbSubsetSelectorFallbackPolicy",
    default: "NOT_DEFINED",
    support: "honoured",
  },
] as const satisfies readonly FieldRow[];
