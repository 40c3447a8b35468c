import assert from "node:assert/strict";
import { Store } from "../stats/store.ts";
import { SdsUpdates } from "./sds_stats.ts";

const SECRET = "type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.Secret";
const file = (version: string, ...names: string[]) =>
  JSON.stringify({
    version_info: version,
    resources: names.map((name) => ({ "@type": SECRET, name })),
  });

Deno.test("SDS stats: each secret is counted once per changed file, whatever number of chains use it", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const a = `${dir}/a.json`;
    const b = `${dir}/b.json`;
    Deno.writeTextFileSync(a, file("1", "cert"));
    Deno.writeTextFileSync(b, file("1", "ca"));
    let accept = true;
    const reloads: string[] = [];
    const chain = (id: string, secrets: { name: string; file: string }[]) => ({
      secrets,
      reload: () => (reloads.push(id), accept),
    });
    const store = new Store();
    const u = new SdsUpdates(store, [
      chain("x", [{ name: "cert", file: a }, { name: "ca", file: b }]),
      chain("y", [{ name: "cert", file: a }]),
    ]);
    const get = (n: string) =>
      ["update_attempt", "update_success", "update_rejected", "update_failure"]
        .map((s) => store.counter(`sds.${n}.${s}`).value());
    assert.deepEqual(get("cert"), [1, 1, 0, 0]);
    assert.deepEqual(get("ca"), [1, 1, 0, 0]);
    u.changed();
    assert.deepEqual(reloads, []);
    Deno.writeTextFileSync(a, file("2", "cert"));
    u.changed();
    assert.deepEqual(reloads, ["x", "y"]);
    assert.deepEqual(get("cert"), [2, 2, 0, 0]);
    assert.deepEqual(get("ca"), [1, 1, 0, 0]);
    assert.equal(store.gauge("sds.cert.version").value() !== 0, true);
    accept = false;
    Deno.writeTextFileSync(b, file("2", "ca"));
    u.changed();
    assert.deepEqual(get("ca"), [2, 1, 1, 0]);
    Deno.writeTextFileSync(b, "{");
    u.changed();
    assert.deepEqual(get("ca"), [3, 1, 1, 1]);
    assert.deepEqual(get("cert"), [2, 2, 0, 0]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("SDS stats: two secrets of one file both get the file's version at start-up", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const f = `${dir}/both.json`;
    Deno.writeTextFileSync(f, file("v7", "cert", "ca"));
    const store = new Store();
    new SdsUpdates(store, [{
      secrets: [{ name: "cert", file: f }, { name: "ca", file: f }],
      reload: () => true,
    }]);
    for (const n of ["cert", "ca"]) {
      assert.equal(store.textReadout(`sds.${n}.version_text`).value(), "v7", n);
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
