/**
 * Fields of a decoded protobuf message that its descriptor does not know (sent by a newer
 * control plane, or garbage): their paths, with proto field names down to the message that holds
 * them and the unknown field's number (`typed_config.route_config#99`), through nested
 * messages, lists, maps, oneofs and `Any` payloads of known types. xDS resources go through it
 * so `--reject-unknown-dynamic-fields` and its siblings apply to binary resources too.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fromBinary } from "@bufbuild/protobuf";
 * import { messageType } from "./proto_registry.ts";
 * import { unknownFieldPaths } from "./proto_unknown_fields.ts";
 * const Node = messageType("envoy.config.core.v3.Node");
 * // id "n" (field 1), then field 999 (varint 1), which Node does not have.
 * const bytes = new Uint8Array([0x0a, 1, 0x6e, 0xb8, 0x3e, 1]);
 * assert.deepEqual(unknownFieldPaths(Node, fromBinary(Node, bytes)), ["#999"]);
 * ```
 * @module
 */
import type { DescField, DescMessage } from "@bufbuild/protobuf";
import { anyUnpack } from "@bufbuild/protobuf/wkt";
import { envoyRegistry } from "./proto_registry.ts";

// deno-lint-ignore no-explicit-any
type Msg = any;

/** Paths of the unknown fields of `msg` (a message of `desc`), `prefix` first. */
export function unknownFieldPaths(desc: DescMessage, msg: Msg, prefix = ""): string[] {
  const out: string[] = [];
  walk(desc, msg, prefix, out, 0);
  return out;
}

const join = (p: string, f: string) => p ? `${p}.${f}` : f;

function walk(desc: DescMessage, msg: Msg, path: string, out: string[], depth: number) {
  if (!msg || depth > 64) return;
  for (const u of (msg.$unknown ?? []) as { no: number }[]) out.push(`${path}#${u.no}`);
  if (desc.typeName === "google.protobuf.Any") {
    if (!msg.typeUrl) return;
    const inner = anyUnpack(msg, envoyRegistry());
    const d = envoyRegistry().getMessage(msg.typeUrl.slice(msg.typeUrl.lastIndexOf("/") + 1));
    if (inner && d) walk(d, inner, path, out, depth + 1);
    return;
  }
  for (const f of desc.fields) {
    const v = valueOf(f, msg);
    if (v === undefined || v === null) continue;
    const at = join(path, f.name);
    if (f.fieldKind === "message") walk(f.message, v, at, out, depth + 1);
    else if (f.fieldKind === "list" && f.listKind === "message") {
      (v as Msg[]).forEach((x, i) => walk(f.message, x, `${at}[${i}]`, out, depth + 1));
    } else if (f.fieldKind === "map" && f.mapKind === "message") {
      for (const [k, x] of Object.entries(v as Record<string, Msg>)) {
        walk(f.message, x, `${at}.${k}`, out, depth + 1);
      }
    }
  }
}

function valueOf(f: DescField, msg: Msg): unknown {
  if (f.oneof) {
    const o = msg[f.oneof.localName];
    return o?.case === f.localName ? o.value : undefined;
  }
  return msg[f.localName];
}
