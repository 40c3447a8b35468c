import assert from "node:assert/strict";
import { WorkerMailbox } from "./worker_mailbox.ts";

/**
 * Starts the slow-loading test worker, lets `send` send while its module's top-level await is
 * pending, and collects the echoes until `n` came (or `waitMs` passed).
 */
function echoes(
  send: (w: Worker, box: WorkerMailbox<string>) => void,
  n: number,
  waitMs: number,
): Promise<string[]> {
  const url = new URL("./testdata/slow_loading_worker.ts?delay=300", import.meta.url);
  const w = new Worker(url, { type: "module" });
  const box = new WorkerMailbox<string>(w);
  const got: string[] = [];
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      w.terminate();
      resolve(got);
    };
    const timer = setTimeout(done, waitMs);
    w.onmessage = (e) => {
      // Sent while the worker's module is still being evaluated (its top-level await pending).
      if (e.data.type === "evaluating") send(w, box);
      else if (e.data.type === "loaded") box.open();
      else if (e.data.type === "echo" && got.push(e.data.value) === n) done();
    };
  });
}

Deno.test("cli.options.concurrency: messages sent while a worker's module is still loading reach it, in order, through its mailbox", async () => {
  const got = await echoes(
    (_, box) => {
      box.post("init");
      box.post("sync");
    },
    2,
    10_000,
  );
  assert.deepEqual(got, ["init", "sync"]);
});

Deno.test("cli.options.concurrency: (why the mailbox) a message posted to a worker during its top-level await is lost", async () => {
  const got = await echoes((w) => w.postMessage("init"), 1, 1_500);
  assert.deepEqual(got, []);
});
