/**
 * The benchmarks' options: `--name value` pairs in this process's arguments.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { argNumber, argText } from "./bench_args.ts";
 * assert.equal(argText("no-such-option", "dflt"), "dflt");
 * assert.equal(argText("no-such-option", undefined), undefined);
 * assert.equal(argNumber("no-such-option", 5), 5);
 * ```
 * @module
 */

/** The argument after `--name`, or `def` when `--name` is not given. */
export function argText<D extends string | undefined>(name: string, def: D): string | D {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 ? Deno.args[i + 1] : def;
}

/** The argument after `--name` as a number (NaN when it is not one), or `def` when not given. */
export function argNumber(name: string, def: number): number {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 ? Number(Deno.args[i + 1]) : def;
}
