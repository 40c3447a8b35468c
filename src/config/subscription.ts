/**
 * A filesystem subscription (`ConfigSource.path`, v3 also `path_config_source.path`): the file
 * holds one `DiscoveryResponse` (YAML for `.yaml`/`.yml`, JSON otherwise). It is read when the
 * subscription starts and again whenever the file is moved into place or written in place
 * (`Deno.watchFs` on its directory, debounced). Statistics are Envoy's subscription statistics
 * under the given scope: `update_attempt`, `update_success`, `update_rejected` (the file was read
 * but its content was refused), `update_failure` (the file could not be read or parsed),
 * `version` (a hash of `version_info`) and `version_text`.
 *
 * @example Not run: it watches a file (`eds.yaml`) on disk.
 * ```ts ignore
 * import { FilesystemSubscription } from "./subscription.ts";
 * const sub = new FilesystemSubscription("eds.yaml", scope, {
 *   onConfigUpdate: (r) => console.log(r.version_info, r.resources.length),
 *   onConfigUpdateFailed: () => {},
 * }, { policy, log: console.log });
 * await sub.start();
 * await sub.close();
 * ```
 * @module
 */
import { loadYamlBounded } from "./yaml_limits.ts";
import type { JsonObject } from "./bootstrap_types.ts";
import type { ConfigError } from "./errors.ts";
import type { DynamicFieldPolicy } from "./dynamic_fields.ts";
import type { Counter, Gauge, Scope, TextReadout } from "../stats/types.ts";
import { versionHash } from "./subscription_hash.ts";
import { isJsonObject as isObj } from "./values.ts";

/** A parsed `DiscoveryResponse`. */
export interface DiscoveryResponse {
  version_info: string;
  /** Each an `Any`: an object with `@type`. */
  resources: JsonObject[];
}

/** Content of a config file that cannot be used; `path` says where. */
export class SubscriptionError extends Error {
  /**
   * Creates the error; `rejected` when the file was read but its content refused (unknown fields
   * in reject mode), otherwise the file could not be parsed at all.
   */
  constructor(readonly path: string, message: string, readonly rejected = false) {
    super(`${path}: ${message}`);
    this.name = "SubscriptionError";
  }
}

/** Fields of `DiscoveryResponse` (envoy.service.discovery.v3 and v2). */
const RESPONSE_FIELDS = new Set([
  "version_info",
  "resources",
  "canary",
  "type_url",
  "nonce",
  "control_plane",
]);

const snake = (k: string) => k.replace(/[A-Z]/g, (c) => "_" + c.toLowerCase());

/**
 * Parses the text of a subscription file. Throws {@linkcode SubscriptionError} for text that is
 * not a `DiscoveryResponse`; unknown top-level fields go to `policy` (rejected in reject mode).
 */
export function parseDiscoveryResponse(
  text: string,
  path: string,
  policy?: DynamicFieldPolicy,
): DiscoveryResponse {
  let v: unknown;
  const isYaml = /\.ya?ml$/i.test(path);
  try {
    v = isYaml ? loadYamlBounded(text) : JSON.parse(text);
  } catch (e) {
    const msg = e instanceof Error ? e.message.split("\n")[0] : String(e);
    throw new SubscriptionError(path, `cannot parse ${isYaml ? "YAML" : "JSON"}: ${msg}`);
  }
  if (!isObj(v)) throw new SubscriptionError(path, "expected a DiscoveryResponse object");
  const errors: ConfigError[] = [];
  const out: DiscoveryResponse = { version_info: "", resources: [] };
  for (const [raw, x] of Object.entries(v)) {
    const k = RESPONSE_FIELDS.has(raw) ? raw : snake(raw);
    if (!RESPONSE_FIELDS.has(k)) {
      if (policy?.mode === "reject") {
        errors.push({
          path: raw,
          rule: "",
          message: `unknown field "${raw}" in DiscoveryResponse`,
        });
      } else policy?.onUnknown("DiscoveryResponse", raw);
      continue;
    }
    if (k === "version_info" && x !== null && x !== undefined) {
      if (typeof x !== "string") {
        errors.push({ path: raw, rule: "", message: "version_info must be a string" });
      } else out.version_info = x;
    }
    if (k === "resources" && x !== null && x !== undefined) {
      if (!Array.isArray(x)) {
        errors.push({ path: raw, rule: "", message: "resources must be a list" });
        continue;
      }
      x.forEach((r, i) => {
        if (!isObj(r) || typeof r["@type"] !== "string") {
          errors.push({
            path: `${raw}[${i}]`,
            rule: "",
            message: 'a resource must be an object with a string "@type"',
          });
        } else out.resources.push(r);
      });
    }
  }
  if (errors.length) {
    throw new SubscriptionError(
      path,
      errors.map((e) => `${e.path}: ${e.message}`).join("; "),
      errors.every((e) => e.message.startsWith("unknown field")),
    );
  }
  return out;
}

/** What a subscription delivers to. */
export interface SubscriptionCallbacks {
  /** Applies an update; throwing rejects it (`update_rejected`) and keeps the previous state. */
  onConfigUpdate(r: DiscoveryResponse): void;
  /** Called when the file cannot be read or parsed, or an update is rejected. */
  onConfigUpdateFailed(reason: string): void;
}

/** Options of a {@linkcode FilesystemSubscription}. */
export interface SubscriptionOptions {
  policy?: DynamicFieldPolicy;
  log?: (level: string, msg: string) => void;
  /** Quiet time after the last file event before the file is read (default 50 ms). */
  debounceMs?: number;
  /** Watch the file for changes (default true). */
  watch?: boolean;
}

/** A subscription to one file. */
export class FilesystemSubscription {
  readonly path: string;
  /** The directory watched for the file, and the file's name in it. */
  readonly #dir: string;
  readonly #name: string;
  readonly #s: {
    attempt: Counter;
    success: Counter;
    rejected: Counter;
    failure: Counter;
    version: Gauge;
    versionText: TextReadout;
  };
  #watcher: Deno.FsWatcher | null = null;
  #loop: Promise<void> = Promise.resolve();
  #chain: Promise<void> = Promise.resolve();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #lastText: string | null = null;
  #closed = false;

  /** A subscription to `path`, counting under `scope`. */
  constructor(
    path: string,
    scope: Scope,
    readonly callbacks: SubscriptionCallbacks,
    readonly opts: SubscriptionOptions = {},
  ) {
    this.path = path;
    const slash = path.lastIndexOf("/");
    this.#dir = slash < 0 ? "." : path.slice(0, slash) || "/";
    this.#name = path.slice(slash + 1);
    this.#s = {
      attempt: scope.counter("update_attempt"),
      success: scope.counter("update_success"),
      rejected: scope.counter("update_rejected"),
      failure: scope.counter("update_failure"),
      version: scope.gauge("version"),
      versionText: scope.textReadout("version_text"),
    };
  }

  /** Reads the file once (even if it is missing: that counts as a failure), then watches it. */
  async start(): Promise<void> {
    await this.refresh(false);
    if (this.opts.watch === false || this.#closed) return;
    try {
      this.#watcher = Deno.watchFs(this.#dir, { recursive: false });
    } catch (e) {
      this.#log("warning", `cannot watch ${this.path} for changes: ${(e as Error).message}`);
      return;
    }
    const w = this.#watcher;
    const name = this.#name;
    this.#loop = (async () => {
      try {
        for await (const ev of w) {
          if (ev.paths.some((p) => p.slice(p.lastIndexOf("/") + 1) === name)) this.#schedule();
        }
      } catch (e) {
        if (!this.#closed) this.#log("warning", `watching ${this.path}: ${(e as Error).message}`);
      }
    })();
  }

  #schedule() {
    if (this.#closed) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.refresh(true);
    }, this.opts.debounceMs ?? 50);
  }

  #log(level: string, msg: string) {
    this.opts.log?.(level, msg);
  }

  /**
   * Reads and delivers the file now. With `fromWatch`, a missing file or unchanged content is
   * not an update (a removal, or a second event of one write).
   */
  refresh(fromWatch = false): Promise<void> {
    const run = this.#chain.then(() => this.#refresh(fromWatch));
    this.#chain = run.catch(() => {});
    return run;
  }

  async #refresh(fromWatch: boolean): Promise<void> {
    if (this.#closed) return;
    let text: string;
    try {
      text = await Deno.readTextFile(this.path);
    } catch (e) {
      if (fromWatch && e instanceof Deno.errors.NotFound) return;
      this.#s.attempt.inc();
      return this.#failed(`cannot read ${this.path}: ${(e as Error).message}`);
    }
    if (this.#closed || (fromWatch && text === this.#lastText)) return;
    this.#lastText = text;
    this.#s.attempt.inc();
    let r: DiscoveryResponse;
    try {
      r = parseDiscoveryResponse(text, this.path, this.opts.policy);
    } catch (e) {
      if (!(e instanceof SubscriptionError && e.rejected)) {
        return this.#failed((e as Error).message);
      }
      return this.#rejected(e.message);
    }
    try {
      this.callbacks.onConfigUpdate(r);
    } catch (e) {
      return this.#rejected((e as Error).message);
    }
    this.#s.success.inc();
    this.#s.version.set(versionHash(r.version_info));
    this.#s.versionText.set(r.version_info);
    this.#log("debug", `config update from ${this.path} accepted (version ${r.version_info})`);
  }

  #rejected(why: string) {
    this.#s.rejected.inc();
    this.#log("warning", `config update from ${this.path} rejected: ${why}`);
    this.callbacks.onConfigUpdateFailed(why);
  }

  #failed(why: string) {
    this.#s.failure.inc();
    this.#log("warning", `config update failure: ${why}`);
    this.callbacks.onConfigUpdateFailed(why);
  }

  /** Stops watching; resolves when no read is in flight. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#watcher?.close();
    this.#watcher = null;
    await this.#loop;
    await this.#chain;
  }
}
