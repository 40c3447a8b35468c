/**
 * `request_headers_to_add` / `_remove` and `response_headers_to_add` / `_remove` of a route,
 * virtual host or route configuration (Envoy's `HeaderParser`): removals first, then each
 * `HeaderValueOption` by its `append_action` (or the older `append`), with values formatted by
 * the access log command operators (`%DOWNSTREAM_REMOTE_ADDRESS%`, `%REQ(x)%`, `%START_TIME%`,
 * `%PROTOCOL%`, `%HOSTNAME%`, `%UPSTREAM_REMOTE_ADDRESS%`, ...; `%%` is a percent sign). A value
 * that formats empty is not added unless `keep_empty_value` is set. Pseudo-headers and `host`
 * cannot be changed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { applyHeaderMutations, parseHeaderMutation } from "./header_mutation.ts";
 * const m = parseHeaderMutation([{ header: { key: "x-a", value: "1" } }], ["x-b"], "r", [])!;
 * const h = new Headers({ "x-b": "gone" });
 * applyHeaderMutations([m], h, null);
 * assert.equal(h.get("x-a"), "1");
 * assert.equal(h.has("x-b"), false);
 * ```
 * @module
 */
import type { Json } from "../config/bootstrap_types.ts";
import { type Errors, fail, isObject, unwrap } from "../config/config_values.ts";
import { compileFormat, FormatError, type LogRecord } from "../access_log/access_log_format.ts";

/** Envoy's `HeaderValueOption.HeaderAppendAction`. */
export type AppendAction =
  | "APPEND_IF_EXISTS_OR_ADD"
  | "ADD_IF_ABSENT"
  | "OVERWRITE_IF_EXISTS_OR_ADD"
  | "OVERWRITE_IF_EXISTS";

const ACTIONS: readonly AppendAction[] = [
  "APPEND_IF_EXISTS_OR_ADD",
  "ADD_IF_ABSENT",
  "OVERWRITE_IF_EXISTS_OR_ADD",
  "OVERWRITE_IF_EXISTS",
];

/** A header value: literal text and command operators. */
export type ValueFormatter = (r: LogRecord | null) => string;

/** One header to add. */
export interface HeaderToAdd {
  key: string;
  value: ValueFormatter;
  action: AppendAction;
  keepEmpty: boolean;
}

/** The mutations of one level. */
export interface HeaderMutation {
  remove: readonly string[];
  add: readonly HeaderToAdd[];
}

/** Operators whose Envoy name differs from the access log one used here. */
const ALIASES: Record<string, string> = {
  UPSTREAM_REMOTE_ADDRESS: "UPSTREAM_HOST",
};

const OP = /%([A-Z_0-9]+)(\([^)]*\))?(:\d+)?%/y;

/**
 * Compiles a header value; each operator is formatted on its own and contributes nothing when
 * it has no value (Envoy formats header values with empty values omitted).
 */
export function compileHeaderValue(v: string, path: string): ValueFormatter {
  const parts: (string | ((r: LogRecord) => string))[] = [];
  let lit = "";
  for (let i = 0; i < v.length;) {
    if (v[i] !== "%") {
      lit += v[i++];
      continue;
    }
    if (v[i + 1] === "%") {
      lit += "%";
      i += 2;
      continue;
    }
    OP.lastIndex = i;
    const m = OP.exec(v);
    if (!m) throw new FormatError(path, `malformed command operator at offset ${i}`);
    if (lit) parts.push(lit);
    lit = "";
    const name = ALIASES[m[1]] ?? m[1];
    const f = compileFormat(`%${name}${m[2] ?? ""}${m[3] ?? ""}%`, path);
    parts.push((r) => {
      const s = f(r);
      return s === "-" ? "" : s;
    });
    i += m[0].length;
  }
  if (lit) parts.push(lit);
  if (parts.every((p) => typeof p === "string")) {
    const s = parts.join("");
    return () => s;
  }
  return (r) => {
    let s = "";
    for (const p of parts) s += typeof p === "string" ? p : r === null ? "" : p(r);
    return s;
  };
}

function modifiable(name: string): boolean {
  return name !== "" && !name.startsWith(":") && name !== "host";
}

const NAME = /^[!#$%&'*+\-.^_`|~0-9a-z]+$/;

function parseAdd(o: Json, path: string, errors: Errors): HeaderToAdd | null {
  if (!isObject(o)) {
    fail(errors, path, "must be a HeaderValueOption object");
    return null;
  }
  for (const k of Object.keys(o)) {
    if (!["header", "append", "append_action", "keep_empty_value"].includes(k)) {
      fail(errors, `${path}.${k}`, `unknown field ${k} of HeaderValueOption`);
    }
  }
  const h = o.header;
  if (!isObject(h) || typeof h.key !== "string") {
    fail(errors, `${path}.header.key`, "header needs a key");
    return null;
  }
  const key = h.key.toLowerCase();
  if (!modifiable(key)) {
    fail(
      errors,
      `${path}.header.key`,
      `header "${h.key}" cannot be modified (pseudo-headers and host)`,
    );
    return null;
  }
  if (!NAME.test(key)) {
    fail(errors, `${path}.header.key`, `invalid header name "${h.key}"`);
    return null;
  }
  let raw = "";
  if (h.raw_value !== undefined) {
    try {
      raw = atob(String(h.raw_value));
    } catch {
      fail(errors, `${path}.header.raw_value`, "raw_value must be base64");
    }
  } else if (h.value !== undefined) {
    if (typeof h.value !== "string") fail(errors, `${path}.header.value`, "must be a string");
    else raw = h.value;
  }
  if (/[\r\n\0]/.test(raw)) {
    fail(errors, `${path}.header.value`, "header values cannot contain CR, LF or NUL");
    return null;
  }
  let value: ValueFormatter;
  try {
    value = compileHeaderValue(raw, `${path}.header.value`);
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
    fail(errors, e.path, e.message.slice(e.path.length + 2));
    return null;
  }
  let action: AppendAction = "APPEND_IF_EXISTS_OR_ADD";
  if (o.append !== undefined && o.append_action !== undefined) {
    fail(errors, path, "append and append_action cannot both be set");
  } else if (o.append !== undefined) {
    action = unwrap(o.append) === false ? "OVERWRITE_IF_EXISTS_OR_ADD" : "APPEND_IF_EXISTS_OR_ADD";
  } else if (o.append_action !== undefined) {
    if (!ACTIONS.includes(o.append_action as AppendAction)) {
      fail(
        errors,
        `${path}.append_action`,
        `unknown append_action ${JSON.stringify(o.append_action)} (known: ${ACTIONS.join(", ")})`,
      );
    } else action = o.append_action as AppendAction;
  }
  return { key, value, action, keepEmpty: o.keep_empty_value === true };
}

/** Parses one level's `*_headers_to_add` and `*_headers_to_remove` (at `path`, a field prefix). */
export function parseHeaderMutation(
  add: Json | undefined,
  remove: Json | undefined,
  path: string,
  errors: Errors,
): HeaderMutation | null {
  if (add === undefined && remove === undefined) return null;
  const adds: HeaderToAdd[] = [];
  if (add !== undefined) {
    if (!Array.isArray(add)) fail(errors, `${path}_to_add`, "must be a list");
    else {
      add.forEach((o, i) => {
        const a = parseAdd(o, `${path}_to_add[${i}]`, errors);
        if (a) adds.push(a);
      });
    }
  }
  const removes: string[] = [];
  if (remove !== undefined) {
    if (!Array.isArray(remove)) fail(errors, `${path}_to_remove`, "must be a list");
    else {
      remove.forEach((n, i) => {
        const at = `${path}_to_remove[${i}]`;
        if (typeof n !== "string" || n === "") return fail(errors, at, "must be a header name");
        if (!modifiable(n.toLowerCase())) {
          return fail(errors, at, `header "${n}" cannot be removed (pseudo-headers and host)`);
        }
        removes.push(n.toLowerCase());
      });
    }
  }
  return { remove: removes, add: adds };
}

/** What a mutation changes: a `Headers` (or our `HeaderMap`). */
type Target = Pick<Headers, "get" | "has" | "set" | "append" | "delete">;

/** Applies `levels` in order (a later level wins), formatting values with `r`. */
export function applyHeaderMutations(
  levels: readonly HeaderMutation[],
  h: Target,
  r: LogRecord | null,
): void {
  for (const m of levels) {
    for (const n of m.remove) h.delete(n);
    for (const a of m.add) {
      const v = a.value(r);
      if (v === "" && !a.keepEmpty) continue;
      switch (a.action) {
        case "APPEND_IF_EXISTS_OR_ADD":
          h.append(a.key, v);
          break;
        case "ADD_IF_ABSENT":
          if (!h.has(a.key)) h.append(a.key, v);
          break;
        case "OVERWRITE_IF_EXISTS":
          if (h.has(a.key)) h.set(a.key, v);
          break;
        default:
          h.set(a.key, v);
      }
    }
  }
}

/** Applies `levels` to a header list (as {@linkcode applyHeaderMutations}). */
export function mutateHeaderList(
  levels: readonly HeaderMutation[],
  list: [string, string][],
  r: LogRecord | null,
): [string, string][] {
  const out = list.slice();
  const target: Target = {
    get: (n) => {
      const vs = out.filter(([k]) => k === n).map(([, v]) => v);
      return vs.length ? vs.join(",") : null;
    },
    has: (n) => out.some(([k]) => k === n),
    set: (n, v) => {
      const i = out.findIndex(([k]) => k === n);
      const rest = out.filter(([k]) => k !== n);
      if (i < 0) rest.push([n, v]);
      else rest.splice(out.slice(0, i).filter(([k]) => k !== n).length, 0, [n, v]);
      out.length = 0;
      out.push(...rest);
    },
    append: (n, v) => {
      out.push([n, v]);
    },
    delete: (n) => {
      const rest = out.filter(([k]) => k !== n);
      out.length = 0;
      out.push(...rest);
    },
  };
  applyHeaderMutations(levels, target, r);
  return out;
}
