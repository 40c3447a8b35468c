import assert from "node:assert/strict";
import { supervise } from "./supervise.ts";

function spawn(code: string): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["eval", code],
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).spawn();
}

/** Waits for the child's first line: it is running its code (and its signal listener). */
async function started(child: Deno.ChildProcess): Promise<void> {
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  await reader.read();
  reader.releaseLock();
  void child.stdout.cancel().catch(() => {});
}

Deno.test("supervise: a process that exits on SIGTERM ends with it", async () => {
  const child = spawn("console.log('up'); setTimeout(() => {}, 60_000)");
  await started(child);
  const run = supervise(child);
  const status = await run.stop();
  assert.equal(status.signal, "SIGTERM");
  assert.ok(run.exited());
});

Deno.test("supervise: a process that ignores SIGTERM is killed after the grace period", async () => {
  const child = spawn(
    "Deno.addSignalListener('SIGTERM', () => {}); console.log('up'); setTimeout(() => {}, 60_000)",
  );
  await started(child);
  const run = supervise(child);
  const status = await run.stop(200);
  assert.equal(status.signal, "SIGKILL");
});

Deno.test("supervise: stopping a process that has exited only returns its status", async () => {
  const child = spawn("console.log('up')");
  await started(child);
  const run = supervise(child);
  assert.equal((await run.status).code, 0);
  assert.equal((await run.stop()).code, 0);
});
