import assert from "node:assert/strict";
import { call, testContext } from "./testing_context.ts";

function ctx(dir: string) {
  return testContext({ bootstrap: { admin: { profile_path: `${dir}/proxy.prof` } } });
}

Deno.test("admin.endpoints.cpuprofiler, admin.general.config-profile-path: the CPU profile is written to admin.profile_path", async () => {
  const dir = await Deno.makeTempDir({ prefix: "proxyspec_prof_" });
  try {
    const c = ctx(dir);
    const bad = await call(c, "POST", "/cpuprofiler");
    assert.equal(bad.status, 400);
    assert.equal(await bad.text(), "?enable=<y|n>\n");
    assert.equal((await call(c, "POST", "/cpuprofiler?enable=maybe")).status, 400);
    assert.equal(await (await call(c, "POST", "/cpuprofiler?enable=y")).text(), "OK\n");
    let x = 0;
    for (let i = 0; i < 1e5; i++) x += i;
    assert.ok(x > 0);
    assert.equal(await (await call(c, "POST", "/cpuprofiler?enable=n")).text(), "OK\n");
    const profile = JSON.parse(await Deno.readTextFile(`${dir}/proxy.prof`));
    assert.ok(Array.isArray(profile.nodes) && profile.nodes.length > 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("admin.endpoints.heapprofiler: start, double start, stop, double stop", async () => {
  const dir = await Deno.makeTempDir({ prefix: "proxyspec_prof_" });
  try {
    const c = ctx(dir);
    assert.equal(
      await (await call(c, "POST", "/heapprofiler?enable=y")).text(),
      "Starting heap profiler",
    );
    const again = await call(c, "POST", "/heapprofiler?enable=y");
    assert.equal(again.status, 400);
    assert.equal(await again.text(), "Fail to start heap profiler: already started");
    const stop = await call(c, "POST", "/heapprofiler?enable=n");
    assert.equal(stop.status, 200);
    assert.ok(
      (await stop.text()).startsWith(
        `Heap profiler stopped and data written to ${dir}/proxy.prof.heapprofile.`,
      ),
    );
    assert.ok("head" in JSON.parse(await Deno.readTextFile(`${dir}/proxy.prof.heapprofile`)));
    const none = await call(c, "POST", "/heapprofiler?enable=n");
    assert.equal(none.status, 400);
    assert.equal(await none.text(), "Fail to stop heap profiler: not started");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
