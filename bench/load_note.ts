/**
 * The machine's load, printed beside a benchmark's figures so that a reader can tell a quiet run
 * from a busy one. A module of its own so that a benchmark measuring its own process's memory
 * does not load anything else to print it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadNote } from "./load_note.ts";
 * assert.match(loadNote(), /^load \d+\.\d\d on \d+ CPUs$/);
 * ```
 * @module
 */

/** `load <1-minute load average> on <n> CPUs`. */
export function loadNote(): string {
  return `load ${Deno.loadavg()[0].toFixed(2)} on ${navigator.hardwareConcurrency} CPUs`;
}
