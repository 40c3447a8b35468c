/**
 * The hot restart wrapper, as Envoy's `restarter/hot-restarter.py`:
 * `deno task hot-restarter -- <proxy command...>` starts the command with `RESTART_EPOCH=0` in
 * its environment; SIGHUP starts it again with the next epoch (the new process takes over from
 * the running one and shuts it down); SIGTERM or SIGINT sends SIGTERM to every child and exits
 * once they have ended. A child that exits with a non-zero code ends every other child (SIGKILL)
 * and the wrapper exits 1; when the last child has exited the wrapper exits 0.
 *
 * The epoch also reaches the command as `--restart-epoch <n>` when the command does not name
 * `--restart-epoch` itself, so `deno task hot-restarter -- deno run -A mod.ts -c b.yaml` works
 * without a start script.
 *
 * @module
 */

/** Children still running, by PID. */
const children = new Map<number, Deno.ChildProcess>();
let epoch = 0;
let stopping = false;

function say(msg: string): void {
  console.error(`hot-restarter: ${msg}`);
}

function launch(command: string[]): void {
  const args = command.slice(1);
  if (!args.some((a) => a === "--restart-epoch" || a.startsWith("--restart-epoch="))) {
    args.push("--restart-epoch", String(epoch));
  }
  const child = new Deno.Command(command[0], {
    args,
    env: { RESTART_EPOCH: String(epoch) },
    stdin: "null",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  say(`started epoch ${epoch} as pid ${child.pid}`);
  epoch++;
  children.set(child.pid, child);
  void child.status.then((status) => {
    children.delete(child.pid);
    say(`pid ${child.pid} exited with code ${status.code}`);
    if (status.code !== 0 && !stopping) {
      say("a child exited abnormally: killing every child and exiting");
      stopping = true;
      for (const c of children.values()) kill(c, "SIGKILL");
      void allEnded().then(() => Deno.exit(1));
      return;
    }
    if (children.size === 0) {
      say("no child left: exiting");
      Deno.exit(stopping || status.code === 0 ? 0 : 1);
    }
  });
}

function kill(c: Deno.ChildProcess, sig: Deno.Signal): void {
  try {
    c.kill(sig);
  } catch { /* already gone */ }
}

async function allEnded(): Promise<void> {
  await Promise.all([...children.values()].map((c) => c.status));
}

if (import.meta.main) {
  const command = Deno.args[0] === "--" ? Deno.args.slice(1) : Deno.args;
  if (command.length === 0) {
    console.error("usage: deno task hot-restarter -- <proxy command...>");
    Deno.exit(2);
  }
  Deno.addSignalListener("SIGHUP", () => {
    if (stopping) return;
    say("caught SIGHUP: starting the next epoch");
    launch(command);
  });
  const term = (sig: Deno.Signal) => () => {
    say(`caught ${sig}: stopping every child`);
    stopping = true;
    for (const c of children.values()) kill(c, "SIGTERM");
  };
  Deno.addSignalListener("SIGTERM", term("SIGTERM"));
  Deno.addSignalListener("SIGINT", term("SIGINT"));
  launch(command);
}
