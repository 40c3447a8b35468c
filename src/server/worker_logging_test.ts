import assert from "node:assert/strict";
import {
  listenerPort,
  proxyBootstrap,
  requestOnce,
  startProxyProcess,
  statsOf,
  waitFor,
} from "./testing_proxy_process.ts";

const post = async (url: string) => {
  const r = await fetch(url, { method: "POST" });
  await r.body?.cancel();
  return r.status;
};

/** The router's `match for URL '<path>'` debug lines of `file` (none when it does not exist). */
async function routed(file: string, path: string): Promise<number> {
  const text = await Deno.readTextFile(file).catch(() => "");
  return text.split("\n").filter((l) =>
    l.startsWith("[router][debug]") && l.endsWith(`match for URL '${path}'`)
  ).length;
}

Deno.test("admin.endpoints.logging admin.endpoints.reopen_logs cli.options.log-path: with --concurrency 2, /logging reaches both workers, their debug lines go to --log-path, and /reopen_logs moves them to a new file", async () => {
  const origin = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("ok\n"),
  );
  const dir = await Deno.makeTempDir({ prefix: "proxyspec_wlog_" });
  const file = `${dir}/proxy.log`;
  const p = await startProxyProcess(proxyBootstrap(origin.addr.port), [
    "--concurrency",
    "2",
    "--log-path",
    file,
    "--file-flush-interval-msec",
    "50",
    "--log-format",
    "[%n][%l] %v",
  ]);
  try {
    const port = await listenerPort(p.admin);
    // Nothing is logged per request at the default level.
    assert.equal(await requestOnce(port, "/quiet"), 200);
    assert.equal(await post(`${p.admin}/logging?router=debug`), 200);
    const N = 40;
    const statuses = await Promise.all(Array.from({ length: N }, () => requestOnce(port, "/a")));
    assert.deepEqual(statuses, new Array(N).fill(200));
    const stats = await statsOf(p.admin);
    const l = `listener.127.0.0.1_${port}`;
    const w0 = stats.get(`${l}.worker_0.downstream_cx_total`) ?? 0;
    const w1 = stats.get(`${l}.worker_1.downstream_cx_total`) ?? 0;
    assert.ok(w0 > 0 && w1 > 0, `both workers served: ${w0} and ${w1}`);
    // Every request is logged, whichever worker served it.
    await waitFor(async () => (await routed(file, "/a")) === N || undefined, 10_000, "N lines");
    assert.equal(await routed(file, "/quiet"), 0);
    // Log rotation: the file is moved away, /reopen_logs opens a new one in every worker.
    await Deno.rename(file, `${file}.1`);
    assert.equal(await post(`${p.admin}/reopen_logs`), 200);
    const M = 20;
    const again = await Promise.all(Array.from({ length: M }, () => requestOnce(port, "/b")));
    assert.deepEqual(again, new Array(M).fill(200));
    await waitFor(async () => (await routed(file, "/b")) === M || undefined, 10_000, "M lines");
    assert.equal(await routed(`${file}.1`, "/b"), 0);
  } finally {
    await p.stop();
    await origin.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
