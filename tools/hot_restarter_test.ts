import assert from "node:assert/strict";
import { pickDynamicBaseId } from "../src/server/hot_restart_socket.ts";
import { waitFor } from "../src/server/testing_proxy_process.ts";

const ROOT = new URL("../", import.meta.url).pathname;

async function epochOf(dir: string): Promise<number | undefined> {
  const address = await Deno.readTextFile(`${dir}/admin`).catch(() => "");
  if (!address) return undefined;
  try {
    const text = await (await fetch(`http://${address}/stats?filter=hot_restart_epoch`)).text();
    const m = /server\.hot_restart_epoch: (\d+)/.exec(text);
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

Deno.test("cli.options.restart-epoch: the hot-restarter starts epoch 0, SIGHUP starts the next epoch (which replaces the parent), SIGTERM stops every child and the wrapper exits 0", async () => {
  const dir = await Deno.makeTempDir({ prefix: "proxyspec_restarter_" });
  const wrapper = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      `${ROOT}tools/hot_restarter.ts`,
      "--",
      Deno.execPath(),
      "run",
      "-A",
      `${ROOT}mod.ts`,
      "-c",
      `${ROOT}fixtures/admin/basic.yaml`,
      "--concurrency",
      "1",
      "--base-id",
      String(pickDynamicBaseId("@proxy_domain_socket")),
      "--drain-time-s",
      "1",
      "--parent-shutdown-time-s",
      "2",
      "--admin-address-path",
      `${dir}/admin`,
    ],
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const stderr = (async () => {
    let text = "";
    for await (const c of wrapper.stderr.pipeThrough(new TextDecoderStream())) text += c;
    return text;
  })();
  try {
    assert.equal(await waitFor(() => epochOf(dir), 30_000, "epoch 0"), 0);
    await Deno.remove(`${dir}/admin`);
    wrapper.kill("SIGHUP");
    assert.equal(await waitFor(() => epochOf(dir), 30_000, "epoch 1"), 1);
    wrapper.kill("SIGTERM");
    const status = await wrapper.status;
    assert.equal(status.code, 0);
    const log = await stderr;
    assert.match(log, /started epoch 0 as pid \d+/);
    assert.match(log, /started epoch 1 as pid \d+/);
    assert.match(log, /no child left: exiting/);
    const exits = log.match(/exited with code 0/g) ?? [];
    assert.equal(exits.length, 2, log);
  } finally {
    try {
      wrapper.kill("SIGKILL");
    } catch { /* ended */ }
    await wrapper.status;
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
