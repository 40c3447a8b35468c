/**
 * The whole suite against our own proxy: `mod.ts` serving `fixtures/conformance/bootstrap.yaml`
 * on free ports (admin address read from `--admin-address-path`), and `mod.ts` as `--command`,
 * with the expectations file `expectations/proxyspec.yaml`, `--destructive` and `--strict`. A
 * proxy that exits or does not write its admin address in time fails the test.
 */
import assert from "node:assert/strict";
import { runConformance } from "./cli.ts";
import { selfTargetArgs, startSelfTarget } from "./self_target.ts";

const seed = Deno.env.get("CONFORMANCE_SEED") ?? "20261121";

Deno.test("conformance suite against proxyspec (mod.ts), --strict, with its expectations file", async () => {
  const dir = await Deno.makeTempDir({ prefix: "conformance-self-" });
  const target = await startSelfTarget(dir, 30_000);
  try {
    const address = target.address;
    assert.ok(address !== null, `the proxy did not start: ${target.failure}`);
    const out: string[] = [];
    const code = await runConformance([
      ...selfTargetArgs(address, seed),
      "--destructive",
      "--strict",
      // A case's own time limit; a test never asserts on time, and this machine may be loaded.
      "--timeout",
      "180000",
      "--report",
      "text,json",
      "--report-dir",
      dir,
    ], { out: (s) => void out.push(s), err: (s) => void out.push(s), progress: false });
    assert.equal(code, 0, `the suite found results that do not match:\n${out.join("\n")}`);
    const j = JSON.parse(await Deno.readTextFile(`${dir}/report.json`));
    assert.ok(j.summary.PASS > 300, `only ${j.summary.PASS} rules passed`);
    assert.equal(j.summary.checked, j.summary.PASS, "every checked rule passed");
  } finally {
    await target.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
