/**
 * Helpers of the command-line cases: a valid `--mode validate` argv, and checks of exit codes
 * and messages that say what was expected and what the binary printed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { v } from "./command_util.ts";
 * assert.deepEqual(v("/tmp/b.json"), ["--mode", "validate", "-c", "/tmp/b.json"]);
 * ```
 * @module
 */
import type { CaseContext } from "../types.ts";
import type { CommandResult } from "../command_client.ts";
import { baseCluster, writeBootstrap } from "./bootstrap_files.ts";
import { expect, preview } from "./util.ts";

/**
 * `--mode validate -c <file>`.
 *
 * @param file a bootstrap file
 * @returns the argv
 */
export function v(file: string): string[] {
  return ["--mode", "validate", "-c", file];
}

/** Writes a valid bootstrap and returns `--mode validate -c <file>`. */
export async function validateArgs(ctx: CaseContext): Promise<string[]> {
  const file = await writeBootstrap(ctx, { static_resources: { clusters: [baseCluster()] } });
  return ["--mode", "validate", "-c", file];
}

export function expectExit(r: CommandResult, code: number, what: string): void {
  expect(
    r.code === code,
    `${what}: expected exit ${code}, got ${r.code}; stderr ${preview(r.stderr)}`,
  );
}

export function expectMessage(
  r: CommandResult,
  message: string,
  value: string,
  what: string,
): void {
  const want = message.replaceAll("{}", value);
  const text = r.stdout + r.stderr;
  const head = message.split("{}")[0];
  expect(
    text.includes(want) || (message.includes("{}") === false && text.includes(head)),
    `${what}: expected the message ${JSON.stringify(want)}; got ${preview(r.stderr || r.stdout)}`,
  );
}

/**
 * Fills the `{}` placeholders of a constraint row's message in order.
 *
 * @param message the row's message
 * @param values one value per `{}`
 * @returns the filled message
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fillMessage } from "./command_util.ts";
 * assert.equal(
 *   fillMessage("extension '{}' ({}) is disabled", ["a", "b"]),
 *   "extension 'a' (b) is disabled",
 * );
 * ```
 */
export function fillMessage(message: string, values: readonly string[]): string {
  let i = 0;
  return message.replace(/\{\}/g, () => values[i++] ?? "");
}
