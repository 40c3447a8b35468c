/**
 * A reader of the protobuf text format (`.pb_text` bootstraps), driven by the message
 * descriptions of `bootstrap_schema.ts` and `proto_cluster_schema.ts`. It produces the proto3 JSON form (durations as `"5s"`,
 * wrappers as bare values, Struct as an object). An unknown field name is kept so that the
 * unknown-field check reports it with its path; a message type without a description is an
 * error naming it. Syntax errors name the line and column.
 *
 * @example
 * ```ts
 * import { decodeText } from "./proto_text.ts";
 * import { BOOTSTRAP } from "./bootstrap_schema.ts";
 * decodeText('admin { address { socket_address { address: "127.0.0.1" port_value: 9901 } } }', BOOTSTRAP);
 * ```
 * @module
 */
import type { Json, JsonObject } from "./bootstrap_types.ts";
import type { FieldDesc, ScalarKind } from "./bootstrap_schema.ts";
import {
  anyJson,
  decodeMessage,
  durationJson,
  notDescribed,
  ProtoDecodeError,
  undescribedField,
} from "./proto_binary.ts";
import { PROTO_MESSAGES } from "./proto_cluster_schema.ts";

type Tok = { t: "id" | "num" | "str" | "punct"; v: string; line: number; col: number };

/** Text-format nodes: scalars keep their token, blocks hold their fields in order. */
type Node = { kind: "scalar"; tok: Tok } | { kind: "block"; fields: [string, Node][]; tok: Tok };

function tokenize(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const err = (msg: string) => new ProtoDecodeError(`line ${line}:${i - lineStart + 1}`, msg);
  while (i < src.length) {
    const c = src[i];
    if (c === "\n") {
      line++;
      lineStart = ++i;
      continue;
    }
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === "#") {
      while (i < src.length && src[i] !== "\n") i++;
      continue;
    }
    const col = i - lineStart + 1;
    if (c === '"' || c === "'") {
      let v = "";
      i++;
      while (i < src.length && src[i] !== c) {
        if (src[i] === "\n") throw err("unterminated string");
        if (src[i] === "\\") {
          const n = src[++i];
          const simple: Record<string, string> = {
            n: "\n",
            t: "\t",
            r: "\r",
            '"': '"',
            "'": "'",
            "\\": "\\",
          };
          if (n in simple) {
            v += simple[n];
            i++;
          } else if (n === "x") {
            v += String.fromCharCode(parseInt(src.slice(i + 1, i + 3), 16));
            i += 3;
          } else if (/[0-7]/.test(n)) {
            const o = /^[0-7]{1,3}/.exec(src.slice(i))![0];
            v += String.fromCharCode(parseInt(o, 8));
            i += o.length;
          } else throw err(`unknown escape \\${n}`);
          continue;
        }
        v += src[i++];
      }
      if (i >= src.length) throw err("unterminated string");
      i++;
      out.push({ t: "str", v, line, col });
      continue;
    }
    const num = /^[-+]?(?:0x[0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)[fF]?/.exec(
      src.slice(i),
    );
    if (num && (/[\d.]/.test(c) || /[\d.]/.test(src[i + 1] ?? ""))) {
      out.push({ t: "num", v: num[0].replace(/[fF]$/, ""), line, col });
      i += num[0].length;
      continue;
    }
    const id = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(src.slice(i));
    if (id) {
      out.push({ t: "id", v: id[0], line, col });
      i += id[0].length;
      continue;
    }
    if ("{}<>[]:;,".includes(c)) {
      out.push({ t: "punct", v: c, line, col });
      i++;
      continue;
    }
    throw err(`unexpected character '${c}'`);
  }
  return out;
}

/** Deepest nesting of messages a text proto may have (protobuf's own parsers stop at 100). */
export const MAX_TEXT_NESTING = 100;

function parseBlock(
  toks: Tok[],
  pos: { i: number },
  close: string | null,
  open: Tok,
  depth = 0,
): Node {
  const fields: [string, Node][] = [];
  const at = (t?: Tok) => (t ? `line ${t.line}:${t.col}` : "end of input");
  if (depth > MAX_TEXT_NESTING) {
    throw new ProtoDecodeError(at(open), `messages nested deeper than ${MAX_TEXT_NESTING} levels`);
  }
  for (;;) {
    const t = toks[pos.i];
    if (!t) {
      if (close) {
        throw new ProtoDecodeError(at(open), `'${close}' expected before the end of input`);
      }
      return { kind: "block", fields, tok: open };
    }
    if (close && t.t === "punct" && t.v === close) {
      pos.i++;
      return { kind: "block", fields, tok: open };
    }
    if (t.t !== "id") throw new ProtoDecodeError(at(t), `field name expected, found '${t.v}'`);
    pos.i++;
    let colon = false;
    if (toks[pos.i]?.v === ":" && toks[pos.i]?.t === "punct") {
      colon = true;
      pos.i++;
    }
    const readValue = (): Node => {
      const v = toks[pos.i];
      if (!v) throw new ProtoDecodeError(at(t), `value of '${t.v}' expected`);
      if (v.t === "punct" && (v.v === "{" || v.v === "<")) {
        pos.i++;
        return parseBlock(toks, pos, v.v === "{" ? "}" : ">", v, depth + 1);
      }
      if (!colon) throw new ProtoDecodeError(at(v), `':' expected after '${t.v}'`);
      if (v.t === "punct") throw new ProtoDecodeError(at(v), `value expected, found '${v.v}'`);
      pos.i++;
      if (v.t === "str") {
        // Adjacent strings concatenate.
        let s = v.v;
        while (toks[pos.i]?.t === "str") s += toks[pos.i++].v;
        return { kind: "scalar", tok: { ...v, v: s } };
      }
      return { kind: "scalar", tok: v };
    };
    if (toks[pos.i]?.t === "punct" && toks[pos.i].v === "[") {
      pos.i++;
      while (!(toks[pos.i]?.t === "punct" && toks[pos.i].v === "]")) {
        colon = true;
        fields.push([t.v, readValue()]);
        if (toks[pos.i]?.v === ",") pos.i++;
        else if (toks[pos.i]?.v !== "]") {
          throw new ProtoDecodeError(at(toks[pos.i]), "',' or ']' expected");
        }
      }
      pos.i++;
    } else fields.push([t.v, readValue()]);
    if (toks[pos.i]?.t === "punct" && (toks[pos.i].v === ";" || toks[pos.i].v === ",")) pos.i++;
  }
}

function scalar(kind: ScalarKind, n: Node, path: string): Json {
  if (n.kind !== "scalar") {
    throw new ProtoDecodeError(path, `a ${kind} value expected, found a message`);
  }
  const { t, v } = n.tok;
  if (kind === "string" || kind === "bytes") {
    if (t !== "str") throw new ProtoDecodeError(path, `a quoted string expected, found '${v}'`);
    return v;
  }
  if (kind === "bool") {
    if (["true", "t", "True", "1"].includes(v)) return true;
    if (["false", "f", "False", "0"].includes(v)) return false;
    throw new ProtoDecodeError(path, `true or false expected, found '${v}'`);
  }
  if (t !== "num" && !(kind === "double" && /^-?(inf|infinity|nan)$/i.test(v))) {
    throw new ProtoDecodeError(path, `a number expected, found '${v}'`);
  }
  if (kind === "double") return Number(v);
  if (!/^[-+]?(\d+|0x[0-9a-fA-F]+)$/.test(v)) {
    throw new ProtoDecodeError(path, `an integer expected, found '${v}'`);
  }
  const b = BigInt(v.replace(/^\+/, ""));
  if (kind.startsWith("u") && b < 0n) {
    throw new ProtoDecodeError(path, `a non-negative integer expected, found '${v}'`);
  }
  return kind.endsWith("64") ? b.toString() : Number(b);
}

function value(f: FieldDesc, n: Node, path: string): Json {
  const k = f.kind;
  if ("scalar" in k) return scalar(k.scalar, n, path);
  if ("enum" in k) {
    if (n.kind !== "scalar") {
      throw new ProtoDecodeError(path, "an enum value expected, found a message");
    }
    return n.tok.t === "num" ? (k.enum[Number(n.tok.v)] ?? Number(n.tok.v)) : n.tok.v;
  }
  if (n.kind !== "block") {
    throw new ProtoDecodeError(path, `a message expected, found '${n.tok.v}'`);
  }
  return message(n, k.message, path);
}

function message(n: Node & { kind: "block" }, type: string, path: string): Json {
  const desc = PROTO_MESSAGES[type];
  if (!desc) throw new ProtoDecodeError(path, notDescribed(type));
  const out: JsonObject = {};
  for (const [name, child] of n.fields) {
    const f = desc.fields.find((x) => x.name === name);
    const fpath = path ? `${path}.${name}` : name;
    if (!f && desc.undescribed?.includes(name)) {
      throw new ProtoDecodeError(fpath, undescribedField(desc, name));
    }
    if (!f) {
      out[name] = true; // reported by the unknown-field check
      continue;
    }
    if (f.map) {
      if (child.kind !== "block") {
        throw new ProtoDecodeError(fpath, "a map entry { key: ... value: ... } expected");
      }
      const key = child.fields.find(([k]) => k === "key")?.[1];
      const val = child.fields.find(([k]) => k === "value")?.[1];
      const ks = key ? String(scalar("string", key, fpath)) : "";
      const obj = (out[f.name] ??= {}) as JsonObject;
      obj[ks] = val ? value({ ...f, map: false }, val, `${fpath}.${ks}`) : null;
    } else if (f.repeated) ((out[f.name] ??= []) as Json[]).push(value(f, child, fpath));
    else out[f.name] = value(f, child, fpath);
  }
  switch (desc.wellKnown) {
    case "any": {
      // `value` holds the payload's wire bytes, one character per byte.
      const raw = String(out.value ?? "");
      const bytes = Uint8Array.from(raw, (c) => c.charCodeAt(0) & 0xff);
      return anyJson(String(out.type_url ?? ""), (t) => decodeMessage(bytes, t, path), path);
    }
    case "duration":
      return durationJson(out);
    case "wrapper":
      return out.value ?? null;
    case "struct":
      return (out.fields ?? {}) as JsonObject;
    case "value": {
      const key = Object.keys(out).find((k) => k !== "null_value");
      return key === undefined ? null : out[key];
    }
    case "list":
      return (out.values ?? []) as Json[];
    default:
      return out;
  }
}

/**
 * Parses a text-format message of the given type into proto3 JSON.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeText } from "./proto_text.ts";
 * import { BOOTSTRAP } from "./bootstrap_schema.ts";
 * assert.deepEqual(
 *   decodeText("stats_flush_interval { seconds: 5 }", BOOTSTRAP),
 *   { stats_flush_interval: "5s" },
 * );
 * ```
 */
export function decodeText(src: string, type: string): Json {
  const toks = tokenize(src);
  const root = parseBlock(toks, { i: 0 }, null, { t: "punct", v: "", line: 1, col: 1 });
  return message(root as Node & { kind: "block" }, type, "");
}
