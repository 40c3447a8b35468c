/**
 * Messages for a Deno `Worker`, held until the worker says it can take them. A message that
 * reaches a worker while its module graph is still being evaluated is dispatched with no handler
 * and lost: the worker's handler is set by its main module's body, which runs only after every
 * imported module has been evaluated, and a top-level `await` in that graph (the hashing module
 * initialises its WebAssembly so) gives the worker's event loop a turn in between. The worker
 * posts `{ type: "loaded" }` once its handler is set; until then the mailbox keeps what the main
 * thread sends and then hands it over in order. Without it, a worker whose start message arrived
 * during that turn never started, and the server stayed INITIALIZING (seen in about 1 of 30 starts
 * of ten proxies at once on the 2-core machine).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { WorkerMailbox } from "./worker_mailbox.ts";
 * const sent: string[] = [];
 * const box = new WorkerMailbox<string>({ postMessage: (m: string) => sent.push(m) });
 * box.post("init");
 * box.post("sync");
 * assert.deepEqual(sent, []);
 * box.open();
 * box.post("later");
 * assert.deepEqual(sent, ["init", "sync", "later"]);
 * ```
 * @module
 */

/** What the mailbox needs of a worker. */
export interface MessageTarget<M> {
  postMessage(m: M): void;
}

/** Holds messages for one worker until {@linkcode WorkerMailbox.open}. */
export class WorkerMailbox<M> {
  #held: M[] | null = [];

  constructor(readonly worker: MessageTarget<M>) {}

  /** The worker has said it takes messages. */
  get opened(): boolean {
    return this.#held === null;
  }

  /** Sends `m` now if the worker takes messages, else once it does. */
  post(m: M): void {
    if (this.#held !== null) this.#held.push(m);
    else this.worker.postMessage(m);
  }

  /** The worker's handler is set: what was held goes out in order, later messages at once. */
  open(): void {
    const held = this.#held;
    if (held === null) return;
    this.#held = null;
    for (const m of held) this.worker.postMessage(m);
  }
}
