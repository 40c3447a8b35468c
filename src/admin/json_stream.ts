/**
 * {@linkcode protoJson}'s output, produced a piece at a time: the outer levels of the message
 * (objects and lists down to `depth`, and below it any member holding more than a few hundred
 * values) are walked and each member below is rendered on its own, so a 10,000-cluster `/config_dump` is serialized in slices with event-loop turns between them
 * ({@linkcode chunkStream}) instead of one long `JSON.stringify`. The bytes are the same as
 * {@linkcode protoJson}'s (pretty, one-space indent, proto3 defaults left out, `<` and `>`
 * escaped, trailing newline). With `redact`, secrets are redacted as they are written (the same
 * output as rendering `redact(message)`), so no redacted copy of the whole tree is built first.
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
import { redact, redactSecret, SENSITIVE_FIELDS } from "./config_redact.ts";

/** Options of {@linkcode protoJsonChunks}. */
export interface ChunkOptions {
  /** Levels walked before a member is rendered whole (default 5). */
  depth?: number;
  /** Redact private keys and passwords as they are written (`config_redact.ts`). */
  redact?: boolean;
}

const escape = (s: string) => s.replaceAll("<", "\\u003c").replaceAll(">", "\\u003e");

function leaf(v: unknown, pad: string, hide: boolean): string {
  const text = JSON.stringify(omitDefaults(hide ? redact(v) : v), null, 1) ?? "null";
  return escape(pad === "" ? text : text.replaceAll("\n", `\n${pad}`));
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v) &&
  typeof (v as { toJSON?: unknown }).toJSON !== "function";

/**
 * A member below the walked levels is rendered whole only when it has at most this many
 * values inside; a larger one (the bootstrap's 10,000 clusters, deeper than the walked levels
 * of a `/config_dump`) is walked too, so no single piece is a long synchronous render.
 */
const WHOLE_MAX_NODES = 512;

/** Whether `v` holds at most `budget` values (objects, lists and scalars), counted up to it. */
function small(v: unknown, budget = WHOLE_MAX_NODES): boolean {
  let left = budget;
  const stack: unknown[] = [v];
  while (stack.length > 0) {
    if (--left < 0) return false;
    const x = stack.pop();
    if (Array.isArray(x)) { for (const y of x) stack.push(y); }
    else if (isObject(x)) { for (const k in x) stack.push(x[k]); }
  }
  return true;
}

function* walk(v: unknown, pad: string, depth: number, hide: boolean): Generator<string> {
  if (!(Array.isArray(v) || isObject(v)) || (depth <= 0 && small(v))) {
    yield leaf(v, pad, hide);
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
      yield* walk(x, inner, depth - 1, hide);
    }
    yield `\n${pad}]`;
    return;
  }
  const keys = Object.keys(v).filter((k) => !isProtoDefault(v[k]) && typeof v[k] !== "function");
  if (keys.length === 0) return yield "{}";
  yield "{";
  for (let i = 0; i < keys.length; i++) {
    yield `${i === 0 ? "" : ","}\n${inner}${escape(JSON.stringify(keys[i]))}: `;
    const x = v[keys[i]];
    if (hide && SENSITIVE_FIELDS.has(keys[i])) yield leaf(redactSecret(x), inner, false);
    else yield* walk(x, inner, depth - 1, hide);
  }
  yield `\n${pad}}`;
}

/**
 * The pieces of `protoJson(message)` (proto3 defaults left out); `depth` is how many levels are
 * walked before a member is rendered whole.
 */
export function* protoJsonChunks(message: unknown, opts: ChunkOptions = {}): Generator<string> {
  yield* walk(message, "", opts.depth ?? 5, opts.redact === true);
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
export function streamedJsonResponse(message: unknown, opts: ChunkOptions = {}): Response {
  return new Response(chunkStream(() => true, () => batched(protoJsonChunks(message, opts))), {
    headers: { "content-type": "application/json" },
  });
}
