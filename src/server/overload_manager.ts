/**
 * The overload manager (`overload_manager` in the bootstrap): resource monitors read every
 * `refresh_interval` (default 1 s), and overload actions engaged by their triggers.
 *
 * - Monitor `envoy.resource_monitors.fixed_heap` (`max_heap_size_bytes`): pressure is the
 *   memory the process holds for JavaScript (V8 heap in use plus external buffers) over the
 *   maximum. The reading is injectable for tests.
 * - Triggers: `threshold` (engaged at or above `value`) or `scaled` (0 below
 *   `scaling_threshold`, 1 at `saturation_threshold`, linear between); an action takes the
 *   largest value of its triggers.
 * - Actions: `stop_accepting_connections` (listeners stop accepting; connections wait in the
 *   kernel's queue), `stop_accepting_requests` (503 `proxy overloaded`, counted
 *   `http.<prefix>.downstream_rq_overload_close`), `disable_http_keepalive` (HTTP/1 responses
 *   close their connection, counted `downstream_cx_overload_disable_keepalive`); a partly
 *   engaged action applies with that probability, as in Envoy; `shrink_heap` (a full garbage
 *   collection every 10 s while saturated, counted `overload.<action>.shrink_count`; see
 *   {@linkcode HeapShrinker}); `reset_high_memory_stream` (with
 *   `buffer_factory_config.minimum_account_to_track_power_of_two`): when its value changes and
 *   is above 0, the streams holding the most buffered bytes are reset (`memory_account.ts`),
 *   counted `overload.<action>.count` and `http.<prefix>.downstream_rq_rx_reset`. The other
 *   Envoy actions are refused with a note.
 *
 * Stats: `overload.<action>.active` and `.scale_percent`, `overload.<monitor>.pressure`
 * (0-100), `.failed_updates` and `.skipped_updates`. Names are spelled as configured; both the
 * `envoy.` and the `proxy.` spelling are accepted.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { OverloadManager, parseOverloadManager } from "./overload_manager.ts";
 * import { Store } from "../stats/store.ts";
 * const { config, errors } = parseOverloadManager({
 *   resource_monitors: [{
 *     name: "envoy.resource_monitors.fixed_heap",
 *     typed_config: { max_heap_size_bytes: 1000 },
 *   }],
 *   actions: [{
 *     name: "envoy.overload_actions.stop_accepting_requests",
 *     triggers: [{ name: "envoy.resource_monitors.fixed_heap", threshold: { value: 0.9 } }],
 *   }],
 * }, "overload_manager");
 * assert.equal(errors.length, 0);
 * let heap = 950;
 * const store = new Store();
 * const om = new OverloadManager(config!, store, () => undefined, () => heap);
 * om.refresh();
 * assert.equal(om.value("stop_accepting_requests"), 1);
 * heap = 100;
 * om.refresh();
 * assert.equal(om.value("stop_accepting_requests"), 0);
 * ```
 * @module
 */
import type { Json } from "../config/bootstrap_types.ts";
import type { ConfigError } from "../config/errors.ts";
import { durationMs, isObject, unwrap } from "../config/config_values.ts";
import { refusal } from "../config/support_check.ts";
import type { Counter, Gauge, Scope } from "../stats/types.ts";
import {
  OpenConnections,
  type OverloadActionKind,
  type OverloadView,
} from "../listener/overload_state.ts";
import { HeapShrinker, type HeapShrinkerOptions } from "./heap_shrinker.ts";
import { MemoryAccounts } from "../http/memory_account.ts";
import { StreamResetter } from "./stream_resetter.ts";

/** The actions the manager carries out: those listeners read, `shrink_heap`, stream resets. */
export type ManagedAction = OverloadActionKind | "shrink_heap" | "reset_high_memory_stream";

/** A trigger of an action. */
export type Trigger =
  | { monitor: string; threshold: number }
  | { monitor: string; scaling: number; saturation: number };

/** A parsed `overload_manager`. */
export interface OverloadConfig {
  refreshMs: number;
  /** `buffer_factory_config.minimum_account_to_track_power_of_two`, when set. */
  minAccountPower?: number;
  monitors: { name: string; maxHeapBytes: number }[];
  actions: { name: string; kind: ManagedAction; triggers: Trigger[] }[];
}

const ACTIONS: Record<ManagedAction, true> = {
  stop_accepting_connections: true,
  stop_accepting_requests: true,
  disable_http_keepalive: true,
  shrink_heap: true,
  reset_high_memory_stream: true,
};

/** Envoy actions this build does not carry out, and why. */
const REFUSED_ACTIONS: Readonly<Record<string, string>> = {
  reduce_timeouts: "timers are not scaled",
  reject_incoming_connections: "use stop_accepting_connections",
};

const shortName = (name: string, family: string) =>
  name.replace(new RegExp(`^(envoy|proxy)\\.${family}\\.`), "");

function fraction(v: Json | undefined): number | null {
  const x = unwrap(v);
  return typeof x === "number" && x >= 0 && x <= 1 ? x : null;
}

/** Parses `c` (found at `path`); `errors` say where it is wrong. */
export function parseOverloadManager(
  c: Json | undefined,
  path: string,
): { config: OverloadConfig | null; errors: ConfigError[] } {
  const errors: ConfigError[] = [];
  const fail = (at: string, message: string): void => {
    errors.push({ path: at, rule: "", message });
  };
  if (c === undefined || c === null) return { config: null, errors };
  if (!isObject(c)) {
    fail(path, "overload_manager must be an object");
    return { config: null, errors };
  }
  const refreshMs = c.refresh_interval === undefined
    ? 1000
    : durationMs(c.refresh_interval, `${path}.refresh_interval`, errors) ?? 1000;
  const monitors: OverloadConfig["monitors"] = [];
  const ms = c.resource_monitors ?? [];
  if (!Array.isArray(ms)) fail(`${path}.resource_monitors`, "resource_monitors must be a list");
  else {
    ms.forEach((m, i) => {
      const at = `${path}.resource_monitors[${i}]`;
      if (!isObject(m) || typeof m.name !== "string") return fail(`${at}.name`, "name is required");
      if (shortName(m.name, "resource_monitors") !== "fixed_heap") {
        return fail(`${at}.name`, refusal(m.name, "only the fixed_heap resource monitor is built"));
      }
      const cfg = isObject(m.typed_config) ? m.typed_config : isObject(m.config) ? m.config : {};
      const raw = unwrap(cfg.max_heap_size_bytes);
      const max = typeof raw === "string" && /^\d+$/.test(raw) ? Number(raw) : raw;
      if (typeof max !== "number" || !Number.isInteger(max) || max <= 0) {
        return fail(`${at}.typed_config.max_heap_size_bytes`, "must be an integer above 0");
      }
      if (monitors.some((x) => x.name === m.name)) {
        return fail(`${at}.name`, `duplicate resource monitor ${m.name}`);
      }
      monitors.push({ name: m.name, maxHeapBytes: max });
    });
  }
  const actions: OverloadConfig["actions"] = [];
  const as = c.actions ?? [];
  if (!Array.isArray(as)) fail(`${path}.actions`, "actions must be a list");
  else {
    as.forEach((a, i) => {
      const at = `${path}.actions[${i}]`;
      if (!isObject(a) || typeof a.name !== "string") return fail(`${at}.name`, "name is required");
      const kind = shortName(a.name, "overload_actions");
      if (REFUSED_ACTIONS[kind] !== undefined) {
        return fail(`${at}.name`, refusal(a.name, REFUSED_ACTIONS[kind]));
      }
      if (!(kind in ACTIONS)) return fail(`${at}.name`, `unknown overload action ${a.name}`);
      if (a.typed_config !== undefined) {
        fail(`${at}.typed_config`, refusal("typed_config", "actions take no configuration here"));
      }
      const triggers: Trigger[] = [];
      const ts = a.triggers;
      if (!Array.isArray(ts) || ts.length === 0) {
        return fail(`${at}.triggers`, "an action needs at least one trigger");
      }
      ts.forEach((t, j) => {
        const tat = `${at}.triggers[${j}]`;
        if (!isObject(t) || typeof t.name !== "string") {
          return fail(`${tat}.name`, "name is required");
        }
        if (!monitors.some((m) => m.name === t.name)) {
          return fail(`${tat}.name`, `unknown resource monitor ${t.name}`);
        }
        if (isObject(t.threshold) === isObject(t.scaled)) {
          return fail(tat, "a trigger needs exactly one of threshold and scaled");
        }
        if (isObject(t.threshold)) {
          const v = fraction(t.threshold.value);
          if (v === null) return fail(`${tat}.threshold.value`, "must be from 0 to 1");
          triggers.push({ monitor: t.name, threshold: v });
        } else if (isObject(t.scaled)) {
          const lo = fraction(t.scaled.scaling_threshold);
          const hi = fraction(t.scaled.saturation_threshold);
          if (lo === null || hi === null || lo >= hi) {
            return fail(
              `${tat}.scaled`,
              "scaling_threshold and saturation_threshold must be from 0 to 1, the first below",
            );
          }
          triggers.push({ monitor: t.name, scaling: lo, saturation: hi });
        }
      });
      actions.push({ name: a.name, kind: kind as ManagedAction, triggers });
    });
  }
  let minAccountPower: number | undefined;
  const bf = c.buffer_factory_config;
  if (bf !== undefined && bf !== null) {
    const at = `${path}.buffer_factory_config`;
    if (!isObject(bf)) fail(at, "buffer_factory_config must be an object");
    else {
      for (const k of Object.keys(bf)) {
        if (k !== "minimum_account_to_track_power_of_two") fail(`${at}.${k}`, `unknown field ${k}`);
      }
      const v = unwrap(bf.minimum_account_to_track_power_of_two);
      if (v !== undefined) {
        if (typeof v !== "number" || !Number.isInteger(v) || v < 10 || v > 56) {
          fail(`${at}.minimum_account_to_track_power_of_two`, "must be an integer from 10 to 56");
        } else minAccountPower = v;
      }
    }
  }
  const resets = Array.isArray(as)
    ? as.findIndex((a) =>
      isObject(a) && typeof a.name === "string" &&
      shortName(a.name, "overload_actions") === "reset_high_memory_stream"
    )
    : -1;
  if (resets >= 0 && minAccountPower === undefined) {
    fail(
      `${path}.actions[${resets}].name`,
      "reset_high_memory_stream needs buffer_factory_config.minimum_account_to_track_power_of_two (without it no stream is tracked)",
    );
  }
  for (const k of Object.keys(c)) {
    if (
      !["refresh_interval", "resource_monitors", "actions", "buffer_factory_config"].includes(k)
    ) {
      fail(`${path}.${k}`, refusal(k, "not implemented"));
    }
  }
  const config: OverloadConfig = { refreshMs, monitors, actions };
  if (minAccountPower !== undefined) config.minAccountPower = minAccountPower;
  return { config: errors.length ? null : config, errors };
}

/** The memory the process holds for JavaScript: V8 heap in use plus external buffers. */
export function heapInUse(): number {
  const m = Deno.memoryUsage();
  return m.heapUsed + m.external;
}

interface MonitorState {
  name: string;
  max: number;
  pressure: number;
  gauge: Gauge;
  failed: Counter;
}

interface ActionState {
  kind: ManagedAction;
  triggers: Trigger[];
  value: number;
  active: Gauge;
  scale: Gauge;
}

/** The running overload manager. */
export class OverloadManager implements OverloadView {
  readonly open = new OpenConnections();
  /** Downstream connections open on this process's listeners. */
  get connections(): number {
    return this.open.value;
  }
  readonly #monitors: MonitorState[];
  readonly #actions: ActionState[];
  readonly #values: Record<ManagedAction, number> = {
    stop_accepting_connections: 0,
    stop_accepting_requests: 0,
    disable_http_keepalive: 0,
    shrink_heap: 0,
    reset_high_memory_stream: 0,
  };
  readonly #shrinker: HeapShrinker | null;
  readonly #resets: StreamResetter | null;
  /** The streams' buffer accounts (with `reset_high_memory_stream`). */
  readonly accounts?: MemoryAccounts;
  #timer: ReturnType<typeof setInterval> | undefined;
  #resume: { promise: Promise<void>; resolve: () => void } | null = null;
  /** Hears the actions' values after every refresh (the workers' shared copy). */
  onRefresh?: (values: Readonly<Record<ManagedAction, number>>) => void;

  /**
   * A manager for `cfg`, with stats in `stats` (the root scope), `runtime` for connection
   * limits, `readHeap` for the fixed-heap monitor, and `shrink` for the `shrink_heap` action.
   */
  constructor(
    readonly cfg: OverloadConfig | null,
    stats: Scope,
    readonly runtime: (key: string) => string | undefined,
    readonly readHeap: () => number = heapInUse,
    shrink: HeapShrinkerOptions = {},
  ) {
    const s = stats.scope("overload");
    this.#monitors = (cfg?.monitors ?? []).map((m) => {
      const ms = s.scope(m.name);
      ms.counter("skipped_updates");
      return {
        name: m.name,
        max: m.maxHeapBytes,
        pressure: 0,
        gauge: ms.gauge("pressure"),
        failed: ms.counter("failed_updates"),
      };
    });
    this.#actions = (cfg?.actions ?? []).map((a) => {
      const as = s.scope(a.name);
      return {
        kind: a.kind,
        triggers: a.triggers,
        value: 0,
        active: as.gauge("active"),
        scale: as.gauge("scale_percent"),
      };
    });
    const shrinkAction = cfg?.actions.find((a) => a.kind === "shrink_heap");
    this.#shrinker = shrinkAction === undefined
      ? null
      : new HeapShrinker(shrinkAction.name, stats, () => this.#values.shrink_heap, shrink);
    const resetAction = cfg?.actions.find((a) => a.kind === "reset_high_memory_stream");
    if (resetAction !== undefined && cfg?.minAccountPower !== undefined) {
      this.accounts = new MemoryAccounts(cfg.minAccountPower);
      this.#resets = new StreamResetter(this.accounts, s.scope(resetAction.name).counter("count"));
    } else this.#resets = null;
  }

  /** Starts refreshing every `refresh_interval` (nothing to do without monitors). */
  start(): void {
    if (this.#monitors.length === 0 || this.#timer !== undefined) return;
    this.refresh();
    this.#timer = setInterval(() => this.refresh(), Math.max(1, this.cfg!.refreshMs));
    this.#shrinker?.start();
  }

  /** Stops refreshing and lets paused listeners go. */
  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#shrinker?.stop();
    this.#resume?.resolve();
    this.#resume = null;
  }

  /** Reads every monitor and updates every action. */
  refresh(): void {
    for (const m of this.#monitors) {
      try {
        m.pressure = this.readHeap() / m.max;
        m.gauge.set(Math.round(Math.min(m.pressure, 1) * 100));
      } catch {
        m.failed.inc();
      }
    }
    const values: Record<ManagedAction, number> = {
      stop_accepting_connections: 0,
      stop_accepting_requests: 0,
      disable_http_keepalive: 0,
      shrink_heap: 0,
      reset_high_memory_stream: 0,
    };
    for (const a of this.#actions) {
      let v = 0;
      for (const t of a.triggers) {
        const p = this.#monitors.find((m) => m.name === t.monitor)?.pressure ?? 0;
        const tv = "threshold" in t
          ? (p >= t.threshold ? 1 : 0)
          : p >= t.saturation
          ? 1
          : p <= t.scaling
          ? 0
          : (p - t.scaling) / (t.saturation - t.scaling);
        v = Math.max(v, tv);
      }
      a.value = v;
      a.active.set(v >= 1 ? 1 : 0);
      a.scale.set(Math.round(v * 100));
      values[a.kind] = Math.max(values[a.kind], v);
    }
    Object.assign(this.#values, values);
    this.#resets?.update(values.reset_high_memory_stream);
    this.onRefresh?.(this.#values);
    if (values.stop_accepting_connections < 1 && this.#resume !== null) {
      this.#resume.resolve();
      this.#resume = null;
    }
  }

  /** How far `action` is engaged (0 to 1). */
  value(action: ManagedAction): number {
    return this.#values[action];
  }

  /** While `stop_accepting_connections` is saturated, a promise of its end; else null. */
  acceptResumed(): Promise<void> | null {
    if (this.#values.stop_accepting_connections < 1) return null;
    if (this.#resume === null) {
      let resolve = () => {};
      const promise = new Promise<void>((r) => resolve = r);
      this.#resume = { promise, resolve };
    }
    return this.#resume.promise;
  }
}
