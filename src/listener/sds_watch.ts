/**
 * Watches the SDS files of a listener's TLS contexts: when one is written or moved into place,
 * the contexts that read it are read again and the new certificate (or CA) is used for the
 * connections accepted from then on. A file that no longer parses keeps the previous context.
 *
 * @example Not run: it watches files on disk.
 * ```ts ignore
 * import { SdsWatch } from "./sds_watch.ts";
 * const w = new SdsWatch(["/etc/proxy/sds.yaml"], () => console.log("changed"));
 * w.close();
 * ```
 * @module
 */
import { basename, dirname, resolve } from "node:path";

/** Calls `onChange` (debounced) when one of `files` changes. */
export class SdsWatch {
  readonly #watchers: Deno.FsWatcher[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  /** Watches the directories of `files`; `debounceMs` of quiet before `onChange` runs. */
  constructor(files: readonly string[], onChange: () => void, debounceMs = 50) {
    const byDir = new Map<string, Set<string>>();
    for (const f of files) {
      const abs = resolve(f);
      const d = dirname(abs);
      if (!byDir.has(d)) byDir.set(d, new Set());
      byDir.get(d)!.add(basename(abs));
    }
    for (const [dir, names] of byDir) {
      let w: Deno.FsWatcher;
      try {
        w = Deno.watchFs(dir, { recursive: false });
      } catch {
        continue;
      }
      this.#watchers.push(w);
      (async () => {
        try {
          for await (const e of w) {
            if (!e.paths.some((p) => names.has(basename(p)))) continue;
            clearTimeout(this.#timer);
            this.#timer = setTimeout(() => {
              if (!this.#closed) onChange();
            }, debounceMs);
          }
        } catch { /* closed */ }
      })();
    }
  }

  /** Stops watching. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    for (const w of this.#watchers) {
      try {
        w.close();
      } catch { /* closed */ }
    }
  }
}
