/**
 * Build facts for `--version`, `/server_info`'s `version` and `--hot-restart-version`.
 *
 * The version string has Envoy's five slash-separated parts:
 * `<git revision>/<release>/<Clean|Modified>/<RELEASE|DEBUG>/<TLS library>`. The revision and tree
 * status come from git when the code runs from a checkout (40 zeros and `Clean` otherwise); the
 * release is deno.json's `version`, with `-dev` unless a tag `v<version>` or `<version>` points at
 * the revision; the build mode is `DEBUG` when the environment variable `PROXYSPEC_DEBUG` is set;
 * the TLS library is Deno's, `rustls`. Computed once, on first use.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { versionString } from "./version.ts";
 * // e.g. "3f2c.../0.1.0-dev/Modified/RELEASE/rustls"
 * assert.match(
 *   versionString(),
 *   /^[0-9a-f]{40}\/[^/]+\/(Clean|Modified)\/(RELEASE|DEBUG)\/rustls$/,
 * );
 * ```
 * @module
 */
import denoJson from "../../deno.json" with { type: "json" };
import type { Options } from "../config/options.ts";
import { hotRestartProtocolVersion } from "./hot_restart.ts";

/** The TLS library of Deno's `Deno.connectTls` and `Deno.listenTls`. */
export const TLS_LIBRARY = "rustls";

/** The environment variable that turns the build mode into `DEBUG`. */
export const DEBUG_ENV = "PROXYSPEC_DEBUG";

let cached: string | undefined;

function git(args: string[], cwd: string): string | null {
  try {
    const out = new Deno.Command("git", { args, cwd, stdout: "piped", stderr: "null" })
      .outputSync();
    return out.success ? new TextDecoder().decode(out.stdout) : null;
  } catch {
    return null; // no git, no permission, or not a checkout
  }
}

function envSet(name: string): boolean {
  try {
    return (Deno.env.get(name) ?? "") !== "";
  } catch {
    return false;
  }
}

/**
 * The five-part version string (computed once).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { versionString } from "./version.ts";
 * assert.equal(versionString().split("/").length, 5);
 * ```
 */
export function versionString(): string {
  if (cached !== undefined) return cached;
  const root = new URL("../../", import.meta.url);
  const release = String(denoJson.version);
  let revision = "0".repeat(40);
  let status = "Clean";
  let tagged = false;
  if (root.protocol === "file:") {
    const dir = root.pathname;
    // One `git status` gives both the revision (`# branch.oid`) and the tree's changes (every
    // line not starting with `#`).
    const lines = (git(["status", "--porcelain=v2", "--branch"], dir) ?? "").split("\n");
    const head = lines.find((l) => l.startsWith("# branch.oid "))?.slice(13).trim();
    if (head && /^[0-9a-f]{40}$/.test(head)) {
      revision = head;
      status = lines.some((l) => l !== "" && !l.startsWith("#")) ? "Modified" : "Clean";
      const tags = (git(["tag", "--points-at", "HEAD"], dir) ?? "").split("\n");
      tagged = tags.includes(`v${release}`) || tags.includes(release);
    }
  }
  const number = tagged || release.includes("-") ? release : `${release}-dev`;
  const mode = envSet(DEBUG_ENV) ? "DEBUG" : "RELEASE";
  cached = `${revision}/${number}/${status}/${mode}/${TLS_LIBRARY}`;
  return cached;
}

/**
 * `--version` output: `\n<argv0>  version: <version>\n\n`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { versionOutput } from "./version.ts";
 * // "\nproxy  version: <40 hex>/0.1.0-dev/Clean/RELEASE/rustls\n\n"
 * assert.match(versionOutput("proxy"), /^\nproxy {2}version: [0-9a-f]{40}\/.*\/rustls\n\n$/);
 * ```
 */
export function versionOutput(argv0 = "proxy"): string {
  return `\n${argv0}  version: ${versionString()}\n\n`;
}

/**
 * The hot restart compatibility version: `disabled` with `--disable-hot-restart`, otherwise
 * the version of the hot restart protocol (`hot_restart.ts`; equal strings mean a new binary can
 * take over from a running one).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hotRestartVersion } from "./version.ts";
 * assert.equal(hotRestartVersion({ disable_hot_restart: true }), "disabled");
 * ```
 */
export function hotRestartVersion(options: Pick<Options, "disable_hot_restart">): string {
  if (options.disable_hot_restart) return "disabled";
  return hotRestartProtocolVersion();
}
