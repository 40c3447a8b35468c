import assert from "node:assert/strict";
import fc from "fast-check";
import { cpuListSize, cpusetSize, hardwareThreads } from "../platform/cpu_count.ts";
import { parseArgs, parseCommandLine } from "./args.ts";

Deno.test("cli.options.cpuset-threads: a Linux CPU list is counted", () => {
  assert.equal(cpuListSize("0"), 1);
  assert.equal(cpuListSize("0-3,8,10-11\n"), 7);
  assert.equal(cpuListSize("1,1,0-1"), 2);
  for (const bad of ["", "a", "3-1", "1,,2", "-1"]) assert.equal(cpuListSize(bad), null, bad);
  fc.assert(
    fc.property(fc.uniqueArray(fc.nat(300), { minLength: 1, maxLength: 40 }), (cpus) => {
      assert.equal(cpuListSize(cpus.join(",")), cpus.length);
    }),
  );
});

Deno.test("cli.options.concurrency: unset, it is the number of hardware threads", () => {
  assert.ok(hardwareThreads() >= 1);
  assert.equal(parseArgs([]).concurrency, hardwareThreads());
  assert.ok(cpusetSize() >= 1 && cpusetSize() <= hardwareThreads());
});

Deno.test("cli.options.cpuset-threads: with --concurrency unset, the cpuset size is the worker count", async () => {
  assert.equal(parseArgs(["--cpuset-threads"]).concurrency, cpusetSize());
  // In a child pinned to one CPU, the cpuset has one CPU while the hardware threads stay.
  let taskset = true;
  try {
    await new Deno.Command("taskset", { args: ["--version"], stdout: "null", stderr: "null" })
      .output();
  } catch {
    taskset = false;
  }
  if (!taskset || Deno.build.os !== "linux") return;
  const script = new URL("./args.ts", import.meta.url).href;
  const code = `import { parseArgs } from "${script}";
const a = parseArgs(["--cpuset-threads"]).concurrency;
const b = parseArgs([]).concurrency;
console.log(JSON.stringify([a, b]));`;
  const out = await new Deno.Command("taskset", {
    args: ["-c", "0", Deno.execPath(), "eval", "--quiet", code],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const [pinned, all] = JSON.parse(new TextDecoder().decode(out.stdout));
  assert.equal(pinned, 1);
  assert.equal(all, hardwareThreads());
});

Deno.test("cli.constraints.concurrency-with-cpuset: --concurrency wins over --cpuset-threads", () => {
  const r = parseCommandLine(["--concurrency", "3", "--cpuset-threads"]);
  assert.equal(r.options.concurrency, 3);
  assert.ok(r.warnings.some((w) => w.includes("not applying --cpuset-threads")));
});
