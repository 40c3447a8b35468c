/**
 * SDS statistics as Envoy names them, under `sds.<secret name>.`: the subscription counters
 * `update_attempt`, `update_success`, `update_rejected` (the file was read and parsed but the
 * secret is missing from it or its certificate does not load), `update_failure` (the file could
 * not be read or parsed), `init_fetch_timeout` (files answer at once, so it stays 0), the SDS
 * counter `key_rotation_failed`, the `version` gauge (hash of `version_info`) and the
 * `version_text` text readout. The first read of each secret (at startup) counts as an
 * attempt and a success, as Envoy's first delivery does.
 *
 * {@linkcode SdsUpdates} reads the SDS files again when they change: only files whose content
 * differs from the last read count, each of their secrets once, whatever number of filter chains
 * use it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Store } from "../stats/store.ts";
 * import { SdsUpdates } from "./sds_stats.ts";
 * const dir = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${dir}/s.json`, JSON.stringify({ version_info: "1", resources: [] }));
 * const store = new Store();
 * new SdsUpdates(store, [{ secrets: [{ name: "c", file: `${dir}/s.json` }], reload: () => true }]);
 * assert.equal(store.counter("sds.c.update_success").value(), 1);
 * Deno.removeSync(dir, { recursive: true });
 * ```
 * @module
 */
import type { Counter, Gauge, Scope, TextReadout } from "../stats/types.ts";
import { parseDiscoveryResponse } from "../config/subscription.ts";
import { versionHash } from "../config/subscription_hash.ts";
import { isJsonObject } from "../config/values.ts";

/** A secret a filter chain reads from an SDS file. */
export interface SdsSecretRef {
  name: string;
  file: string;
}

/** A filter chain whose TLS context reads SDS files. */
export interface SdsChain {
  secrets: readonly SdsSecretRef[];
  /** Reads the TLS context again and uses it; false when it is refused (the old one stays). */
  reload(): boolean;
}

interface SecretStats {
  attempt: Counter;
  success: Counter;
  rejected: Counter;
  failure: Counter;
  version: Gauge;
  versionText: TextReadout;
}

/** Outcome of reading one SDS file. */
type FileRead =
  | { kind: "unchanged" }
  | { kind: "failed" }
  | { kind: "read"; version: string; names: Set<string> };

/** Counts SDS updates of the secrets `chains` read from files, under `root`'s `sds.` scope. */
export class SdsUpdates {
  readonly #stats = new Map<string, SecretStats>();
  readonly #last = new Map<string, string>();

  /** Registers every secret's statistics and counts the startup read as a success. */
  constructor(root: Scope, readonly chains: readonly SdsChain[]) {
    // Each file read once: a second secret of the same file gets its version too.
    const reads = new Map<string, FileRead>();
    for (const c of chains) {
      for (const s of c.secrets) {
        if (this.#stats.has(s.name)) continue;
        const sc = root.scope("sds").scope(s.name);
        const st: SecretStats = {
          attempt: sc.counter("update_attempt"),
          success: sc.counter("update_success"),
          rejected: sc.counter("update_rejected"),
          failure: sc.counter("update_failure"),
          version: sc.gauge("version"),
          versionText: sc.textReadout("version_text"),
        };
        sc.counter("init_fetch_timeout");
        sc.counter("key_rotation_failed");
        this.#stats.set(s.name, st);
        let r = reads.get(s.file);
        if (r === undefined) reads.set(s.file, r = this.#read(s.file));
        st.attempt.inc();
        st.success.inc();
        if (r.kind === "read") {
          st.version.set(versionHash(r.version));
          st.versionText.set(r.version);
        }
      }
    }
  }

  #read(file: string): FileRead {
    let text: string;
    try {
      text = Deno.readTextFileSync(file);
    } catch (e) {
      // A file moved away is not an update; the one moved into place is.
      return e instanceof Deno.errors.NotFound ? { kind: "unchanged" } : { kind: "failed" };
    }
    if (this.#last.get(file) === text) return { kind: "unchanged" };
    this.#last.set(file, text);
    try {
      const r = parseDiscoveryResponse(text, file);
      const names = new Set(
        r.resources.filter((x) => String(x["@type"]).endsWith(".Secret"))
          .map((x) => isJsonObject(x) && typeof x.name === "string" ? x.name : ""),
      );
      return { kind: "read", version: r.version_info, names };
    } catch {
      return { kind: "failed" };
    }
  }

  /** One of the files changed: reloads the chains that read a changed file and counts. */
  changed(): void {
    const reads = new Map<string, FileRead>();
    for (const c of this.chains) {
      for (const s of c.secrets) if (!reads.has(s.file)) reads.set(s.file, this.#read(s.file));
    }
    const touched = (c: SdsChain) => c.secrets.some((s) => reads.get(s.file)?.kind !== "unchanged");
    const refused = new Set<string>();
    for (const c of this.chains) {
      if (!touched(c) || c.reload()) continue;
      for (const s of c.secrets) refused.add(s.name);
    }
    const counted = new Set<string>();
    for (const c of this.chains) {
      for (const s of c.secrets) {
        const r = reads.get(s.file)!;
        if (r.kind === "unchanged" || counted.has(s.name)) continue;
        counted.add(s.name);
        const st = this.#stats.get(s.name)!;
        st.attempt.inc();
        if (r.kind === "failed") st.failure.inc();
        else if (!r.names.has(s.name) || refused.has(s.name)) st.rejected.inc();
        else {
          st.success.inc();
          st.version.set(versionHash(r.version));
          st.versionText.set(r.version);
        }
      }
    }
  }
}
