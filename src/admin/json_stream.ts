/**
 * {@linkcode protoJson}'s output, produced a piece at a time: the outer levels of the message
 * (objects and lists down to `depth`) are walked and each member below is rendered on its own,
 * so a 10,000-cluster `/config_dump` is serialized in slices with event-loop turns between them
 * ({@linkcode chunkStream}) instead of one long `JSON.stringify`. The bytes are the same as
 * {@linkcode protoJson}'s (pretty, one-space indent, proto3 defaults left out, `<` and `>`
 * escaped, trailing newline).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { protoJsonChunks } from "./json_stream.ts";
 * import { protoJson } from "../config/proto_json.ts";
 * const m = { configs: [{ a: [1, 2], b: "", c: { d: "<x>" } }] };
 * assert.equal([...protoJsonChunks(m)].join(""), protoJson(m));
 * ```
 * @module
 */
import { isProtoDefault, omitDefaults } from "../config/proto_json.ts";
import { chunkStream } from "./stats_stream.ts";

const escape = (s: string) => s.replaceAll("<", "\\u003c").replaceAll(">", "\\u003e");

function leaf(v: unknown, pad: string): string {
  const text = JSON.stringify(omitDefaults(v), null, 1) ?? "null";
  return escape(pad === "" ? text : text.replaceAll("\n", `\n${pad}`));
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v) &&
  typeof (v as { toJSON?: unknown }).toJSON !== "function";

function* walk(v: unknown, pad: string, depth: number): Generator<string> {
  if (depth <= 0 || !(Array.isArray(v) || isObject(v))) {
    yield leaf(v, pad);
    return;
  }
  const inner = `${pad} `;
  if (Array.isArray(v)) {
    if (v.length === 0) return yield "[]";
    yield "[";
    for (let i = 0; i < v.length; i++) {
      yield `${i === 0 ? "" : ","}\n${inner}`;
      // A list element JSON cannot represent prints as null, as JSON.stringify does.
      const x = v[i] === undefined || typeof v[i] === "function" ? null : v[i];
      yield* walk(x, inner, depth - 1);
    }
    yield `\n${pad}]`;
    return;
  }
  const keys = Object.keys(v).filter((k) => !isProtoDefault(v[k]) && typeof v[k] !== "function");
  if (keys.length === 0) return yield "{}";
  yield "{";
  for (let i = 0; i < keys.length; i++) {
    yield `${i === 0 ? "" : ","}\n${inner}${escape(JSON.stringify(keys[i]))}: `;
    yield* walk(v[keys[i]], inner, depth - 1);
  }
  yield `\n${pad}}`;
}

/**
 * The pieces of `protoJson(message)` (proto3 defaults left out); `depth` is how many levels are
 * walked before a member is rendered whole.
 */
export function* protoJsonChunks(message: unknown, depth = 5): Generator<string> {
  yield* walk(message, "", depth);
  yield "\n";
}

/** Joins pieces into chunks of about `size` characters; "" marks where a stream may pause. */
function* batched(pieces: Iterable<string>, size = 16384): Generator<string> {
  let buf = "";
  for (const p of pieces) {
    buf += p;
    if (buf.length < size) yield "";
    else {
      yield buf;
      buf = "";
    }
  }
  if (buf !== "") yield buf;
}

/** An `application/json` response streaming {@linkcode protoJsonChunks} with event-loop turns. */
export function streamedJsonResponse(message: unknown): Response {
  return new Response(chunkStream(() => true, () => batched(protoJsonChunks(message))), {
    headers: { "content-type": "application/json" },
  });
}
