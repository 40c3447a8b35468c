/**
 * No connection is reset or refused through a hot restart with `net.ipv4.tcp_migrate_req` at 0:
 * the scenario of `testing_hot_restart_load.ts` (two workers on both sides, an IPv4 and an IPv6
 * listener, clients opening fresh connections without pause) runs in a private network
 * namespace made for it (`unshare -n`; the setting is per namespace and 0 in a new one), so the
 * host's setting does not matter. Without `unshare` (or without root) the test fails: CI runs
 * as root on Linux.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { LoadResult } from "./testing_hot_restart_load.ts";
import { ChildSteering } from "./hot_restart_steering.ts";

const SCENARIO = new URL("./testing_hot_restart_load.ts", import.meta.url).pathname;

/** Runs the scenario in a new network namespace with its loopback up. */
async function inPrivateNetwork(
  clientsPerListener: number,
  times: { drainTimeS: number; shutdownTimeS: number } = { drainTimeS: 3, shutdownTimeS: 7 },
): Promise<LoadResult> {
  const child = new Deno.Command("unshare", {
    args: [
      "-n",
      "--",
      "sh",
      "-c",
      'ip link set lo up && exec "$0" run -A "$1" "$2" "$3" "$4"',
      Deno.execPath(),
      SCENARIO,
      String(clientsPerListener),
      String(times.drainTimeS),
      String(times.shutdownTimeS),
    ],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), 150_000);
  const out = await child.output().finally(() => clearTimeout(timer));
  const text = new TextDecoder().decode(out.stdout);
  assert.equal(out.code, 0, `the scenario failed: ${new TextDecoder().decode(out.stderr)}`);
  return JSON.parse(text) as LoadResult;
}

Deno.test({
  name:
    "cli.options.restart-epoch cli.options.drain-time-s cli.options.parent-shutdown-time-s cli.options.concurrency: through a hot restart with net.ipv4.tcp_migrate_req 0, no connection is reset or refused on an IPv4 and an IPv6 listener, and the parent accepts none once the child steers them",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const r = await inPrivateNetwork(3);
    assert.equal(r.tcpMigrateReq, false, "the private namespace's tcp_migrate_req");
    assert.equal(r.parentCode, 0, r.parentStderr);
    for (const [address, t] of Object.entries(r.listeners)) {
      const summary = `${address}: ${JSON.stringify(t)}`;
      assert.ok(t.ok > 0, summary);
      assert.equal(t.reset, 0, summary);
      assert.equal(t.refused, 0, summary);
      assert.equal(t.other, 0, summary);
      // Steered: the parent's accept queues get nothing new while it drains.
      assert.equal(r.parentAccepted[address], 0, `parent accepted on ${address}`);
    }
    for (const where of ["127.0.0.1:10000", "[::1]:10001"]) {
      assert.match(
        r.childStderr,
        new RegExp(
          `new connections to ${escape(where)} go to this process's 2 sockets; the parent's 2`,
        ),
      );
      assert.match(
        r.childStderr,
        new RegExp(`the parent left ${escape(where)}; new connections spread again`),
      );
    }
    assert.doesNotMatch(r.parentStderr + r.childStderr, /unable to pin|cannot steer/);
    assertPinned(r.parentStderr);
  },
});

Deno.test({
  name:
    "cli.options.parent-shutdown-time-s cli.options.restart-epoch: a parent told to shut down before its drain time is over pins the steering before its sockets close, and no connection is reset or refused",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const r = await inPrivateNetwork(3, { drainTimeS: 6, shutdownTimeS: 2 });
    assert.equal(r.parentCode, 0, r.parentStderr);
    for (const [address, t] of Object.entries(r.listeners)) {
      const summary = `${address}: ${JSON.stringify(t)}`;
      assert.ok(t.ok > 0, summary);
      assert.deepEqual([t.reset, t.refused, t.other], [0, 0, 0], summary);
    }
    // The parent exits at 2 s, long before its 6 s drain would have pinned the groups.
    assert.doesNotMatch(r.parentStderr, /drain time over/);
    assertPinned(r.parentStderr);
  },
});

/** Each parent worker pinned both listeners' groups before its sockets closed. */
function assertPinned(parentStderr: string) {
  for (const where of ["127.0.0.1:10000", "[::1]:10001"]) {
    const pinned = parentStderr.match(
      new RegExp(`${escape(where)} pinned to the new process's sockets \\(from index 2\\)`, "g"),
    );
    assert.equal(pinned?.length, 2, `pins of ${where} in the parent's log:\n${parentStderr}`);
  }
}

function escape(s: string): string {
  return s.replace(/[.[\]]/g, "\\$&");
}

Deno.test("cli.options.restart-epoch: a listener the parent does not share is left alone", () => {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0, reusePort: true });
  const lines: string[] = [];
  const port = (l.addr as Deno.NetAddr).port;
  const s = ChildSteering.start(
    [{ address: "127.0.0.1", port }],
    (lv, m) => lines.push(`${lv} ${m}`),
  );
  l.close();
  assert.deepEqual([s.pins, s.steering, lines], [[], 0, []]);
});

Deno.test({
  name:
    "cli.options.restart-epoch: without FFI the child logs a warning and does not steer (today's behaviour)",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const steering = new URL("./hot_restart_steering.ts", import.meta.url).href;
    const code = `import { ChildSteering } from "${steering}";
      const l = Deno.listen({ hostname: "127.0.0.1", port: 0, reusePort: true });
      const s = ChildSteering.start([{ address: "127.0.0.1", port: l.addr.port }], (lv, m) => console.log(lv, m));
      console.log("pins", s.pins.length);
      l.close();`;
    const file = await Deno.makeTempFile({ suffix: ".ts" });
    await Deno.writeTextFile(file, code);
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--unstable-net", "--deny-ffi", file],
      stdout: "piped",
      stderr: "piped",
    }).output().finally(() => Deno.remove(file));
    const text = new TextDecoder().decode(out.stdout);
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    assert.match(text, /^warning hot restart: cannot steer .*the C library cannot be used/m);
    assert.match(text, /^pins 0$/m);
  },
});
