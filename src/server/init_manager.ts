/**
 * Init managers: what the server waits for before it goes LIVE, and what `/init_dump` shows.
 *
 * An {@linkcode InitManager} (`init manager <name>`) holds named targets (`target <name>`). Each
 * target is a promise to call `ready()` once; the manager's watcher runs when the last one has.
 * The server keeps one manager per component in an {@linkcode InitManagers} registry: the
 * `server` component (`init manager Server`, a target per cluster) and the `listener` component
 * (`init manager Listener <name>`, a target per listener). It goes LIVE when every manager is
 * initialized, and `/init_dump?mask=<component>` lists the unready targets of one component.
 *
 * For work that finishes later (an EDS cluster warming until its first assignment): take a target
 * from the server's manager before it initializes, or while it is initializing, and call `ready()`
 * when the work is done. Adding to a manager that has already initialized throws: there is
 * nothing left to wait for.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { InitManagers } from "./init_manager.ts";
 * const init = new InitManagers();
 * const server = init.create("server", "Server");
 * const warming = server.add("cluster eds_backend");
 * let live = false;
 * init.initialize(() => live = true);
 * assert.deepEqual(
 *   init.dump(),
 *   [{ name: "init manager Server", target_names: ["target cluster eds_backend"] }],
 * );
 * warming.ready();
 * assert.equal(live, true);
 * ```
 * @module
 */

/** Envoy's `Init::Manager::State`. */
export type InitState = "Uninitialized" | "Initializing" | "Initialized";

/** A handle on one target: call `ready()` once, when the work it stands for is done. */
export interface InitTarget {
  /** `target <name>`. */
  readonly name: string;
  /** Marks the target ready; later calls do nothing. */
  ready(): void;
}

/** One element of `UnreadyTargetsDumps.unready_targets_dumps`. */
export interface UnreadyTargetsDump {
  name: string;
  target_names: string[];
}

/**
 * A named group of targets with one watcher.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { InitManager } from "./init_manager.ts";
 * const m = new InitManager("Server");
 * const t = m.add("listener l0");
 * let initialized = false;
 * m.initialize(() => initialized = true);
 * assert.equal(m.state, "Initializing");
 * t.ready();
 * assert.equal(initialized, true);
 * ```
 */
export class InitManager {
  /** `init manager <name>`. */
  readonly name: string;
  #state: InitState = "Uninitialized";
  /** Unready targets in the order they were added (a name may be added more than once). */
  readonly #unready = new Map<string, number>();
  #watcher: (() => void) | null = null;

  constructor(name: string) {
    this.name = `init manager ${name}`;
  }

  /** Where the manager is. */
  get state(): InitState {
    return this.#state;
  }

  /** Adds a target `target <name>`; throws once the manager has initialized. */
  add(name: string): InitTarget {
    if (this.#state === "Initialized") {
      throw new Error(`attempted to add target ${name} to initialized ${this.name}`);
    }
    const full = `target ${name}`;
    this.#unready.set(full, (this.#unready.get(full) ?? 0) + 1);
    let done = false;
    return {
      name: full,
      ready: () => {
        if (done) return;
        done = true;
        const left = this.#unready.get(full)! - 1;
        if (left) this.#unready.set(full, left);
        else this.#unready.delete(full);
        this.#check();
      },
    };
  }

  /**
   * Starts waiting: `watcher` runs once, as soon as no target is unready (at once when none is).
   * Throws when called twice.
   */
  initialize(watcher: () => void): void {
    if (this.#state !== "Uninitialized") {
      throw new Error(`attempted to initialize ${this.name} twice`);
    }
    this.#state = "Initializing";
    this.#watcher = watcher;
    this.#check();
  }

  /** The names of the targets not ready yet, in the order they were added. */
  unreadyTargets(): string[] {
    return [...this.#unready.keys()];
  }

  /** This manager as a dump element. */
  dump(): UnreadyTargetsDump {
    return { name: this.name, target_names: this.unreadyTargets() };
  }

  #check(): void {
    if (this.#state !== "Initializing" || this.#unready.size) return;
    this.#state = "Initialized";
    const w = this.#watcher;
    this.#watcher = null;
    w?.();
  }
}

/**
 * The init managers of a server, by component (`server`, `listener`, ...): the whole start-up
 * state, initialized together, and the source of `/init_dump`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { InitManagers } from "./init_manager.ts";
 * const init = new InitManagers();
 * init.create("listener", "Listener l0").add("listener l0");
 * assert.equal(init.dump("listener")[0].name, "init manager Listener l0");
 * assert.deepEqual(init.dump("cluster"), []);
 * ```
 */
export class InitManagers {
  readonly #managers: Array<{ component: string; manager: InitManager }> = [];
  readonly #warming: Array<{ component: string; source: () => UnreadyTargetsDump[] }> = [];
  #watching = false;

  /** Creates the manager `init manager <name>` of `component`; throws after `initialize`. */
  create(component: string, name: string): InitManager {
    if (this.#watching) throw new Error(`attempted to create init manager ${name} after start-up`);
    const manager = new InitManager(name);
    this.#managers.push({ component, manager });
    return manager;
  }

  /** PRE_INITIALIZING, INITIALIZING or done, over every manager. */
  get state(): InitState {
    if (!this.#watching) return "Uninitialized";
    return this.#managers.every((m) => m.manager.state === "Initialized")
      ? "Initialized"
      : "Initializing";
  }

  /** Initializes every manager; `watcher` runs once, when all of them have initialized. */
  initialize(watcher: () => void): void {
    if (this.#watching) throw new Error("attempted to initialize the init managers twice");
    this.#watching = true;
    let left = this.#managers.length;
    if (left === 0) return watcher();
    for (const { manager } of this.#managers) {
      manager.initialize(() => {
        if (--left === 0) watcher();
      });
    }
  }

  /**
   * Adds what warms outside start-up to the dump of `component`: `source` lists, whenever the
   * dump is read, one element per resource still waiting (an LDS listener for its routes, a CDS
   * cluster for its endpoints), as Envoy dumps the init managers of its warming listeners once
   * the workers have started.
   */
  watch(component: string, source: () => UnreadyTargetsDump[]): void {
    this.#warming.push({ component, source });
  }

  /**
   * The dump elements of `component`'s managers, or of all without a component, then those of
   * resources warming (see {@linkcode InitManagers.watch}). Once start-up has finished its
   * managers have nothing to dump; only warming resources remain.
   */
  dump(component?: string): UnreadyTargetsDump[] {
    const wanted = (c: string) => component === undefined || c === component;
    const startUp = this.state === "Initialized"
      ? []
      : this.#managers.filter((m) => wanted(m.component)).map((m) => m.manager.dump());
    return [
      ...startUp,
      ...this.#warming.filter((w) => wanted(w.component)).flatMap((w) => w.source()),
    ];
  }
}
