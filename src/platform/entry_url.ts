/**
 * Where a module that is started on its own (a worker's entry) is, whether this process runs the
 * TypeScript sources or the bundle `tools/bundle.ts` builds. From the sources, a module's URL is
 * its path under the project root. In a bundle, the code of many modules shares a few chunk files
 * in the bundle's directory (`.build/<name>/`), so `new URL("./worker_main.ts", import.meta.url)`
 * names a file that is not there; the bundle has each entry at the same path under its own
 * directory, as `.js`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { entryUrlFrom } from "./entry_url.ts";
 * assert.equal(
 *   entryUrlFrom("file:///p/src/platform/entry_url.ts", "src/server/worker_main.ts").href,
 *   "file:///p/src/server/worker_main.ts",
 * );
 * assert.equal(
 *   entryUrlFrom("file:///p/.build/serve/chunk-AB12.js", "src/server/worker_main.ts").href,
 *   "file:///p/.build/serve/src/server/worker_main.js",
 * );
 * ```
 * @module
 */

/**
 * The modules started on their own as workers, by name, as root-relative sources: the bundle
 * (`tools/bundle.ts`) builds each as an entry, {@linkcode entryUrl} finds it.
 */
export const WORKER_ENTRIES = {
  /** A data-plane worker (`--concurrency` above 1). */
  workerMain: "src/server/worker_main.ts",
  /** The off-thread evaluation of an ECMAScript stats filter. */
  regexWorker: "src/platform/regex_worker.ts",
} as const;

/** The bundle's directory in a bundled module's URL: `<root>/.build/<name>/`. */
const BUNDLE_DIR = /^(.*\/\.build\/[^/]+\/)/;

/**
 * The URL of the entry module `path` (relative to the project root, as a source: `src/...ts`)
 * for code whose own module URL is `here`: the source when `here` is one (this module sits two
 * directories below the root), else the bundle's `.js` of the same path.
 */
export function entryUrlFrom(here: string, path: string): URL {
  const bundle = here.endsWith(".ts") ? null : BUNDLE_DIR.exec(here);
  if (bundle) return new URL(path.replace(/\.ts$/, ".js"), bundle[1]);
  return new URL(`../../${path}`, here);
}

/** The URL of worker entry `name` for this process: as it runs, from the sources or a bundle. */
export function entryUrl(name: keyof typeof WORKER_ENTRIES): URL {
  return entryUrlFrom(import.meta.url, WORKER_ENTRIES[name]);
}
