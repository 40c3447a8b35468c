import assert from "node:assert/strict";
import { CommandClient } from "../command_client.ts";
import { CaseFailure } from "../types.ts";
import type { CaseContext } from "../types.ts";
import { baseCluster } from "./bootstrap_files.ts";
import type { Obj } from "./bootstrap_files.ts";
import { accepted, validatePlanned } from "./cluster_validate.ts";

/**
 * A stand-in binary for `--mode validate`: it counts its runs in `count` and rejects (exit 1,
 * naming `static_resources.clusters[i]`) every cluster marked `bad`, and any reference (`refers`)
 * to a cluster the bootstrap does not hold.
 */
const VALIDATOR = `
const file = Deno.args[Deno.args.indexOf("-c") + 1];
const count = Deno.args[Deno.args.indexOf("--count") + 1];
await Deno.writeTextFile(count, "run\\n", { append: true });
const clusters = JSON.parse(await Deno.readTextFile(file)).static_resources.clusters;
const names = new Set(clusters.map((c) => c.name));
const errors = clusters.flatMap((c, i) => [
  ...(c.bad ? [\`static_resources.clusters[\${i}].bad: refused\`] : []),
  ...(c.refers && !names.has(c.refers) ? [\`static_resources.clusters[\${i}].refers: unknown\`] : []),
]);
if (errors.length > 0) console.error(errors.join("\\n"));
Deno.exit(errors.length > 0 ? 1 : 0);
`;

Deno.test("conformance validatePlanned: sets rehearsed cases expect to be accepted are validated together, a rejection is traced to its set, and the cases then get each set's own answer", async () => {
  const dir = await Deno.makeTempDir({ prefix: "conformance-planned-" });
  try {
    const script = `${dir}/validator.ts`;
    const count = `${dir}/count.txt`;
    await Deno.writeTextFile(script, VALIDATOR);
    await Deno.writeTextFile(count, "");
    const runs = async () => (await Deno.readTextFile(count)).split("\n").length - 1;
    const command = new CommandClient([Deno.execPath(), "run", "-A", script, "--count", count]);
    const ctxOf = (c: CommandClient) =>
      ({ command: c, tempDir: () => Promise.resolve(dir) }) as unknown as CaseContext;
    const set = (i: number, extra: Obj = {}): Obj[] => [{ ...baseCluster(`c${i}`), ...extra }];
    const good = Array.from({ length: 8 }, (_, i) => set(i));
    const bad = [set(8, { bad: true }), set(9, { bad: true })];
    const linked = [baseCluster("x"), { ...baseCluster("y"), refers: "x" }];
    const all = [...good, ...bad, linked];

    // The rehearsal runs nothing and answers as a conforming target would.
    const rehearsal = ctxOf(command.fork(undefined, true));
    for (const s of all) await accepted(rehearsal, s, "a set");
    assert.equal(await runs(), 0);

    // One run of the ten sets the renaming keeps intact names the two bad ones; the eight
    // others pass together; each bad one is run alone. The linked set is left to its case.
    await validatePlanned(ctxOf(command.fork()), 1);
    assert.equal(await runs(), 4);

    const real = ctxOf(command.fork());
    for (const s of good) await accepted(real, s, "a good set");
    for (const s of bad) {
      await assert.rejects(accepted(real, s, "a bad set"), CaseFailure);
    }
    assert.equal(await runs(), 4, "every planned set was answered from the runs ahead");
    await accepted(real, linked, "the linked set");
    assert.equal(await runs(), 5);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
