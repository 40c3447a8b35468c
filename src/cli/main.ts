/**
 * The process entry point: parses argv, then prints the version, validates, or serves.
 * Placeholder until the command line is written.
 *
 * @module
 */

/** Runs the proxy with the given arguments; resolves to the process exit code. */
export function main(_args: string[]): Promise<number> {
  console.error("proxyspec: the command line is not written yet");
  return Promise.resolve(1);
}
