/**
 * YAML loading with bounded alias expansion. An alias (`*name`) makes the loaded value share the
 * anchored node, so a few hundred bytes of nested aliases ("billion laughs") describe a value that
 * is billions of nodes once it is walked, copied or rendered (`/config_dump`, `/server_info`).
 * {@linkcode loadYamlBounded} counts, as the document is read, how many aliases it uses and how
 * large the value becomes when every alias is expanded, and stops with a load error that names
 * the alias and its line and column once either passes its limit.
 *
 * Size is counted in units: one per mapping, sequence or scalar, plus one per 64 characters of a
 * string, so an alias of a long string counts for its length.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadYamlBounded } from "./yaml_limits.ts";
 * assert.deepEqual(loadYamlBounded("a: &x [1, 2]\nb: *x\n"), { a: [1, 2], b: [1, 2] });
 * const bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n";
 * assert.throws(() => loadYamlBounded(bomb, { maxExpansion: 50 }), /alias \*a \(2:\d+\)/);
 * ```
 * @module
 */
// @ts-types="@types/js-yaml"
import yaml from "js-yaml";
import { NOT_SUBSET, readBlockSubset } from "./yaml_block_subset.ts";

/** Limits of alias use in one YAML text. */
export interface YamlLimits {
  /** Most alias uses (`*name`) in the text. */
  maxAliases: number;
  /** Most size units that alias expansion may add to the loaded value. */
  maxExpansion: number;
}

/** The limits used for bootstrap files, `--config-yaml` and file subscriptions. */
export const YAML_LIMITS: YamlLimits = { maxAliases: 10_000, maxExpansion: 1_000_000 };

/** A YAML text that exceeds {@linkcode YamlLimits}. */
export class YamlAliasLimitError extends Error {
  override name = "YamlAliasLimitError";
}

interface ParserState {
  input: string;
  position: number;
  line: number;
  lineStart: number;
  anchorMap: Record<string, unknown>;
}

function sizeOf(v: unknown, memo: WeakMap<object, number>): number {
  if (typeof v === "string") return 1 + Math.floor(v.length / 64);
  if (v === null || typeof v !== "object") return 1;
  const known = memo.get(v);
  if (known !== undefined) return known;
  let n = 1;
  for (const child of Array.isArray(v) ? v : Object.values(v)) n += sizeOf(child, memo);
  memo.set(v, n);
  return n;
}

/**
 * Loads `text` like `yaml.load` with `schema`, throwing {@linkcode YamlAliasLimitError} (its
 * message names the alias and where it is, `(line:column)`) when alias use passes `limits`.
 */
export function loadYamlBounded(
  text: string,
  limits: Partial<YamlLimits> = {},
  schema: yaml.Schema = yaml.CORE_SCHEMA,
): unknown {
  // Most bootstraps are plain block YAML, read without js-yaml (and without aliases to count).
  const plain = readBlockSubset(text, schema);
  if (plain !== NOT_SUBSET) return plain;
  // An alias is written `*name`: a text without `*` has none, so nothing needs watching.
  if (!text.includes("*")) return yaml.load(text, { schema });
  const max = { ...YAML_LIMITS, ...limits };
  const memo = new WeakMap<object, number>();
  const wrapped = new WeakSet<object>();
  let aliases = 0;
  let expansion = 0;
  const listener = (event: string, s: unknown) => {
    const state = s as ParserState;
    if (event !== "open" || wrapped.has(state.anchorMap)) return;
    const proxy = new Proxy(state.anchorMap, {
      get(target, key) {
        const value = Reflect.get(target, key);
        if (typeof key !== "string") return value;
        const start = state.position - key.length;
        if (state.input.slice(start - 1, state.position) !== `*${key}`) return value;
        aliases++;
        expansion += sizeOf(value, memo);
        const where = `alias *${key} (${state.line + 1}:${start - state.lineStart})`;
        if (aliases > max.maxAliases) {
          throw new YamlAliasLimitError(
            `${where}: more than ${max.maxAliases} aliases (the YAML alias count limit)`,
          );
        }
        if (expansion > max.maxExpansion) {
          throw new YamlAliasLimitError(
            `${where}: expanding aliases makes the document larger than ${max.maxExpansion} ` +
              "nodes (the YAML alias expansion limit)",
          );
        }
        return value;
      },
    });
    wrapped.add(proxy);
    state.anchorMap = proxy;
  };
  return yaml.load(text, { schema, listener } as yaml.LoadOptions);
}
