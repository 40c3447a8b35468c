/**
 * Starting a proxy process and learning its admin address: the address file it writes
 * (`--admin-address-path`) and the tail of its error output for when it does not start.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { keepTail } from "./admin_address.ts";
 * const tail = keepTail(ReadableStream.from([new TextEncoder().encode("error: x\n")]), 100);
 * await tail.ended;
 * assert.equal(tail.text(), "error: x");
 * ```
 * @module
 */

/**
 * Waits up to `ms` for the admin address (`ip:port`) a starting proxy writes to `file`
 * (`--admin-address-path`), or for the proxy to exit first.
 *
 * @param file the admin address file
 * @param child the starting proxy
 * @param ms how long to wait
 * @param what how failures name the proxy (e.g. `mod.ts`)
 * @returns the address, or why there is none
 */
export async function waitForAddress(
  file: string,
  child: Deno.ChildProcess,
  ms: number,
  what: string,
): Promise<{ address: string | null; failure: string | null; exited: boolean }> {
  let exited: Deno.CommandStatus | null = null;
  child.status.then((s) => exited = s);
  // The file's directory is listed before the file is read: a read of a file not yet written
  // throws, and building that error on every poll of every start costs the suite's process
  // more than the listing.
  const slash = file.lastIndexOf("/");
  const dir = slash > 0 ? file.slice(0, slash) : slash === 0 ? "/" : ".";
  const name = file.slice(slash + 1);
  const written = async () => {
    try {
      for await (const e of Deno.readDir(dir)) if (e.name === name) return true;
    } catch { /* no such directory: nothing written */ }
    return false;
  };
  for (let waited = 0; waited < ms && exited === null; waited += 100) {
    if (await written()) {
      try {
        const a = (await Deno.readTextFile(file)).trim();
        if (/:\d+$/.test(a)) return { address: a, failure: null, exited: false };
      } catch { /* removed meanwhile */ }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const s = exited as Deno.CommandStatus | null;
  return {
    address: null,
    exited: s !== null,
    failure: s !== null
      ? `${what} exited (code ${s.code}${s.signal ? `, signal ${s.signal}` : ""}) before it ` +
        `wrote its admin address to ${file}`
      : `${what} did not write its admin address to ${file} within ${ms} ms`,
  };
}

/**
 * Reads a stream to its end in the background, keeping its last `max` characters.
 *
 * @param stream e.g. a child's stderr
 * @param max characters to keep
 * @returns the kept text and a promise of the end
 */
export function keepTail(
  stream: ReadableStream<Uint8Array>,
  max: number,
): { text(): string; ended: Promise<void> } {
  let kept = "";
  const ended = (async () => {
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
      kept = (kept + chunk).slice(-max);
    }
  })().catch(() => {});
  return { text: () => kept.trim(), ended };
}
