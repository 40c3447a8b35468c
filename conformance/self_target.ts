/**
 * Our own proxy as a conformance target: `mod.ts` serving `fixtures/conformance/bootstrap.yaml`
 * on free ports with `--enable-mutex-tracing`, its admin address read from
 * `--admin-address-path`. The self test and the conformance benchmark both run the suite
 * against it.
 *
 * @example Not run: it starts the proxy as a child process and runs the whole suite against it.
 * ```ts ignore
 * import { runConformance } from "./cli.ts";
 * import { selfTargetArgs, startSelfTarget } from "./self_target.ts";
 * const target = await startSelfTarget(dir, 10_000);
 * if (target.address) await runConformance(selfTargetArgs(target.address, "1"));
 * await target.stop();
 * ```
 * @module
 */

import { keepTail, waitForAddress } from "./admin_address.ts";

const root = new URL("../", import.meta.url).pathname;

/** A started `mod.ts`. */
export interface SelfTarget {
  child: Deno.ChildProcess;
  /** `ip:port` of the admin interface; null when none was written in time or the proxy exited. */
  address: string | null;
  /** Why `address` is null (the proxy exited, with its status, or the wait ran out); else null. */
  failure: string | null;
  /** Sends SIGTERM (unless it already exited) and waits for the exit. */
  stop(): Promise<void>;
}

/**
 * Starts `mod.ts` with its admin address file in `dir`, waiting up to `ms` for the address.
 *
 * @param dir a directory the caller owns (and removes)
 * @param ms how long to wait for the admin address
 * @param bootstrap the bootstrap file (default: the conformance fixture)
 */
export async function startSelfTarget(
  dir: string,
  ms: number,
  bootstrap = `${root}fixtures/conformance/bootstrap.yaml`,
): Promise<SelfTarget> {
  const addressFile = `${dir}/admin.txt`;
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      `${root}mod.ts`,
      "-c",
      bootstrap,
      "--enable-mutex-tracing",
      "--admin-address-path",
      addressFile,
    ],
    cwd: root,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const tail = keepTail(child.stderr, 2000);
  const waited = await waitForAddress(addressFile, child, ms, "mod.ts");
  const address = waited.address;
  if (waited.exited) await tail.ended;
  const failure = waited.failure === null
    ? null
    : `${waited.failure}${tail.text() ? `; its stderr ended with:\n${tail.text()}` : ""}`;
  return {
    child,
    address,
    failure,
    async stop() {
      try {
        child.kill("SIGTERM");
      } catch { /* it already exited (after /quitquitquit) */ }
      await child.status;
    },
  };
}

/**
 * The runner arguments that point the suite at a self target: base URL, `mod.ts` as the
 * command, the expectations file `expectations/proxyspec.yaml` and the seed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { selfTargetArgs } from "./self_target.ts";
 * assert.deepEqual(
 *   selfTargetArgs("127.0.0.1:9901", "7").slice(0, 2),
 *   ["--base-url", "http://127.0.0.1:9901"],
 * );
 * ```
 */
export function selfTargetArgs(address: string, seed: string): string[] {
  return [
    "--base-url",
    `http://${address}`,
    "--command",
    `${Deno.execPath()} run -A ${root}mod.ts`,
    "--expectations",
    `${root}conformance/expectations/proxyspec.yaml`,
    "--seed",
    seed,
  ];
}
