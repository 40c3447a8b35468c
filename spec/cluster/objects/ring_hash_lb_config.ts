/**
 * Rows of table `cluster.objects` for `Cluster.RingHashLbConfig`.
 * The rows are shown by the specification.
 *
 * @module
 */
import type { FieldRow } from "../../rule.ts";

/** Cluster.RingHashLbConfig: rows the specification shows. */
export const RING_HASH_LB_CONFIG = [
  {
    id: "cluster.objects.ring-hash-lb-config.minimum-ring-size",
    level: "MUST",
    statement:
      "`minimum_ring_size` is a UInt64Value; it is at most 8388608; unset, it defaults to 1024.",
    cite: {
      section: "Cluster.RingHashLbConfig",
      quote: "minimum_ring_size | UInt64Value | Default 1024 entries; limited to 8M entries.",
    },
    check: "command",
    message: "Cluster.RingHashLbConfig",
    field: "minimum_ring_size",
    number: 1,
    kind: "UInt64Value",
    default: 1024,
    range: { max: 8388608 },
    support: "refused",
    supportNote: "RING_HASH and MAGLEV are not implemented",
  },
  {
    id: "cluster.objects.ring-hash-lb-config.hash-function",
    level: "MUST",
    statement:
      '`hash_function` is a Cluster.RingHashLbConfig.HashFunction value; unset, it defaults to "XX_HASH".',
    cite: {
      section: "Cluster.RingHashLbConfig",
      quote: "hash_function | HashFunction | Default XX_HASH.",
    },
    check: "command",
    message: "Cluster.RingHashLbConfig",
    field: "hash_function",
    number: 3,
    kind: "enum",
    enum: "Cluster.RingHashLbConfig.HashFunction",
    default: "XX_HASH",
    support: "refused",
    supportNote: "RING_HASH and MAGLEV are not implemented",
  },
  {
    id: "cluster.objects.ring-hash-lb-config.maximum-ring-size",
    level: "MUST",
    statement:
      "`maximum_ring_size` is a UInt64Value; it is at most 8388608; unset, it defaults to 8388608.",
    cite: {
      section: "Cluster.RingHashLbConfig",
      quote:
        "maximum_ring_size | UInt64Value | Default 8M entries; limited to 8M entries; may be lowered.",
    },
    check: "command",
    message: "Cluster.RingHashLbConfig",
    field: "maximum_ring_size",
    number: 4,
    kind: "UInt64Value",
    default: 8388608,
    range: { max: 8388608 },
    support: "refused",
    supportNote: "RING_HASH and MAGLEV are not implemented",
  },
] as const satisfies readonly FieldRow[];
