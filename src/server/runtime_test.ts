import assert from "node:assert/strict";
import { LayeredRuntime, readDiskLayer } from "./runtime.ts";
import { Store } from "../stats/store.ts";

Deno.test("admin.resources.runtime.layers: static, disk and admin layers in order; later layers win", async () => {
  const root = await Deno.makeTempDir({ prefix: "proxyspec_rt_" });
  try {
    await Deno.mkdir(`${root}/current/sub/dir`, { recursive: true });
    await Deno.writeTextFile(`${root}/current/sub/top`, "# comment\nfrom disk  \n");
    await Deno.writeTextFile(`${root}/current/sub/dir/key`, "7");
    await Deno.writeTextFile(`${root}/current/sub/shared`, "disk");
    const stats = new Store();
    const rt = LayeredRuntime.fromBootstrap(
      {
        layered_runtime: {
          layers: [
            {
              name: "base",
              static_layer: { shared: "static", n: 1.5, flag: true, deep: { a: { b: "c" } } },
            },
            { name: "disk", disk_layer: { symlink_root: `${root}/current`, subdirectory: "sub" } },
            { name: "admin", admin_layer: {} },
          ],
        },
      },
      "",
      stats.scope("runtime"),
    );
    assert.deepEqual(rt.layerNames(), ["base", "disk", "admin"]);
    assert.equal(rt.get("top"), "from disk");
    assert.equal(rt.get("dir.key"), "7");
    assert.equal(rt.get("n"), "1.5");
    assert.equal(rt.get("flag"), "true");
    assert.equal(rt.get("deep.a.b"), "c");
    assert.deepEqual(rt.entries().get("shared"), {
      layer_values: ["static", "disk", ""],
      final_value: "disk",
    });
    rt.modify([["shared", "admin"]]);
    assert.equal(rt.get("shared"), "admin");
    assert.equal(stats.gauge("runtime.admin_overrides_active").value(), 1);
    rt.modify([["shared", ""]]);
    assert.equal(rt.get("shared"), "disk");
    assert.equal(readDiskLayer(`${root}/missing`).size, 0);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("admin.states.runtime-modify: defaults without layers; one admin layer at most; bad layers name where", () => {
  assert.deepEqual(LayeredRuntime.fromBootstrap({}).layerNames(), ["base", "admin"]);
  const empty = LayeredRuntime.fromBootstrap({ layered_runtime: { layers: [] } });
  assert.deepEqual(empty.layerNames(), [""]);
  assert.ok(empty.hasAdminLayer());
  assert.throws(
    () =>
      LayeredRuntime.fromBootstrap({
        layered_runtime: {
          layers: [{ name: "a", admin_layer: {} }, { name: "b", admin_layer: {} }],
        },
      }),
    /too many admin layers/,
  );
  assert.throws(
    () =>
      LayeredRuntime.fromBootstrap({
        layered_runtime: { layers: [{ name: "a", static_layer: { x: [1] } }] },
      }),
    /layered_runtime\.layers\[0\]\.static_layer\.x: invalid runtime entry value/,
  );
  assert.throws(
    () => LayeredRuntime.fromBootstrap({ layered_runtime: { layers: [{ name: "a" }] } }),
    /layered_runtime\.layers\[0\]: exactly one of/,
  );
  const noAdmin = LayeredRuntime.fromBootstrap({
    layered_runtime: { layers: [{ name: "s", static_layer: {} }] },
  });
  assert.throws(() => noAdmin.modify([["a", "b"]]), /No admin layer specified/);
});
