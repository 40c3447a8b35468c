/**
 * What listeners and connection managers read of the overload manager: how far each overload
 * action is engaged (0 to 1), the runtime (for connection limits), and one count of open
 * downstream connections across listeners. {@linkcode ConnectionGate} applies the connection
 * limits Envoy has: the global `overload.global_downstream_max_connections` runtime key
 * (refusals counted `listener.<address>.downstream_global_cx_overflow`) and the per-listener
 * `envoy.resource_limits.listener.<name>.connection_limit` key (also spelled `proxy.`; counted
 * `downstream_cx_overflow`). A refused connection is closed as soon as it is accepted.
 * {@linkcode acceptPause} holds a listener's accept loop while `stop_accepting_connections` is
 * engaged (connections wait in the kernel's queue), for every kind of listener.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ConnectionGate, OpenConnections, type OverloadView } from "./overload_state.ts";
 * import { Store } from "../stats/store.ts";
 * const view: OverloadView = {
 *   value: () => 0,
 *   runtime: (k) => k === "overload.global_downstream_max_connections" ? "1" : undefined,
 *   open: new OpenConnections(),
 *   acceptResumed: () => null,
 * };
 * const store = new Store();
 * const gate = new ConnectionGate(view, "l", store);
 * assert.equal(gate.admit(0), true);
 * assert.equal(gate.admit(1), false);
 * assert.equal(store.counter("downstream_global_cx_overflow").value(), 1);
 * gate.closed();
 * assert.equal(view.open.value, 0);
 * ```
 * @module
 */
import type { Counter, Scope } from "../stats/types.ts";
import type { MemoryAccounts } from "../http/memory_account.ts";

/** The overload actions this build carries out. */
export type OverloadActionKind =
  | "stop_accepting_connections"
  | "stop_accepting_requests"
  | "disable_http_keepalive";

/** The overload manager as listeners see it. */
export interface OverloadView {
  /** How far `action` is engaged: 0 (off) to 1 (saturated). */
  value(action: OverloadActionKind): number;
  /** A runtime value. */
  runtime(key: string): string | undefined;
  /** Downstream connections open on all listeners, of every worker (the gates keep it). */
  readonly open: OpenConnections;
  /** While `stop_accepting_connections` is engaged, a promise of its end; else null. */
  acceptResumed(): Promise<void> | null;
  /** The streams' buffer accounts, when `reset_high_memory_stream` is configured. */
  readonly accounts?: MemoryAccounts;
}

function limitOf(v: string | undefined): number {
  if (v === undefined) return Infinity;
  const n = Number(v);
  return Number.isInteger(n) && n >= 0 ? n : Infinity;
}

/**
 * The count of open downstream connections in one 32-bit word, which data-plane workers share
 * (a `SharedArrayBuffer`): admitting with {@linkcode OpenConnections.tryOpen} is one atomic
 * step, so workers together never pass the global limit.
 */
export class OpenConnections {
  /** The count in `words[at]` (a word of its own by default). */
  constructor(readonly words: Int32Array = new Int32Array(1), readonly at = 0) {}

  /** Connections open now. */
  get value(): number {
    return Atomics.load(this.words, this.at);
  }

  /** Counts one more connection unless `limit` are open already; true when counted. */
  tryOpen(limit: number): boolean {
    if (Atomics.add(this.words, this.at, 1) < limit) return true;
    Atomics.sub(this.words, this.at, 1);
    return false;
  }

  /** A counted connection closed. */
  close(): void {
    Atomics.sub(this.words, this.at, 1);
  }
}

/** Admits or refuses the connections of one listener. */
export class ConnectionGate {
  readonly #global: Counter;
  readonly #listener: Counter;

  /** The gate of listener `name`, counting refusals in its scope `scope`. */
  constructor(readonly view: OverloadView, readonly name: string, scope: Scope) {
    this.#global = scope.counter("downstream_global_cx_overflow");
    this.#listener = scope.counter("downstream_cx_overflow");
  }

  /** True when a connection may be served, given the listener's open connections. */
  admit(listenerActive: number): boolean {
    const v = this.view;
    if (!v.open.tryOpen(limitOf(v.runtime("overload.global_downstream_max_connections")))) {
      this.#global.inc();
      return false;
    }
    const own = v.runtime(`envoy.resource_limits.listener.${this.name}.connection_limit`) ??
      v.runtime(`proxy.resource_limits.listener.${this.name}.connection_limit`);
    if (listenerActive >= limitOf(own)) {
      v.open.close();
      this.#listener.inc();
      return false;
    }
    return true;
  }

  /** An admitted connection closed. */
  closed(): void {
    this.view.open.close();
  }
}

/**
 * While `stop_accepting_connections` is engaged, waits until it ends or `stop` settles (a
 * listener closing; without one, at most 250 ms so the caller sees its listener close); true
 * when it waited, and the caller should look again before accepting.
 */
export async function acceptPause(
  gate: ConnectionGate | null,
  stop?: Promise<void>,
): Promise<boolean> {
  const paused = gate?.view.acceptResumed();
  if (!paused) return false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bound = stop ?? new Promise<void>((r) => timer = setTimeout(r, 250));
  await Promise.race([paused, bound]);
  clearTimeout(timer);
  return true;
}
