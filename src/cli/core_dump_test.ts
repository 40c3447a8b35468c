import assert from "node:assert/strict";
import { enableCoreDump } from "./core_dump.ts";

const dec = new TextDecoder();

/** Runs code in a child Deno (all permissions) and returns its stdout as JSON. */
async function child(code: string): Promise<Record<string, unknown>> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--quiet", code],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, dec.decode(out.stderr));
  return JSON.parse(dec.decode(out.stdout));
}

const LIBC = new URL("../platform/libc.ts", import.meta.url).href;
const CORE = new URL("./core_dump.ts", import.meta.url).href;

Deno.test("cli.options.enable-core-dump: the process becomes dumpable with an unlimited core size", async () => {
  if (Deno.build.os !== "linux") {
    assert.equal(enableCoreDump().applied, false);
    return;
  }
  const r = await child(`
import { libc, getRlimit, setRlimit, RLIMIT_CORE, PR_SET_DUMPABLE, PR_GET_DUMPABLE } from "${LIBC}";
import { enableCoreDump } from "${CORE}";
const c = libc();
// Start from a process that may not dump core: not dumpable, core size 0.
c.symbols.prctl(PR_SET_DUMPABLE, 0n, 0n, 0n, 0n);
const hard = getRlimit(RLIMIT_CORE)[1];
setRlimit(RLIMIT_CORE, 0n, hard);
const before = c.symbols.prctl(PR_GET_DUMPABLE, 0n, 0n, 0n, 0n);
const limitBefore = getRlimit(RLIMIT_CORE)[0];
const res = enableCoreDump();
const after = c.symbols.prctl(PR_GET_DUMPABLE, 0n, 0n, 0n, 0n);
const limits = Deno.readTextFileSync("/proc/self/limits").split("\\n")
  .find((l) => l.startsWith("Max core file size")) ?? "";
console.log(JSON.stringify({ before, after, applied: res.applied, limitBefore: String(limitBefore),
  limit: String(res.coreLimit), hard: String(hard), limits }));
`);
  assert.equal(r.before, 0);
  assert.equal(r.limitBefore, "0");
  assert.equal(r.applied, true);
  assert.equal(r.after, 1);
  // The soft limit is raised to the hard limit (unlimited when the hard limit allows it).
  assert.equal(r.limit, r.hard);
  if (r.hard === "18446744073709551615") assert.match(String(r.limits), /unlimited\s+unlimited/);
});
