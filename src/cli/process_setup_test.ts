import assert from "node:assert/strict";
import { parseArgs } from "../config/args.ts";
import { setUpProcess, writeBaseIdFile } from "./process_setup.ts";
import { bindHotRestartSocket, hotRestartSocketName } from "../server/hot_restart_socket.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const FIX = "fixtures/bootstrap/valid_v2.yaml";

async function run(args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", ROOT + "mod.ts", ...args],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

const readOrNull = (p: string) => {
  try {
    return Deno.readTextFileSync(p);
  } catch {
    return null;
  }
};

Deno.test("cli.options.base-id-path: the base ID is written in decimal at start-up, not in validate mode", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const p = `${dir}/base_id`;
    // No hot restart, no base ID file (as Envoy): its own path, so it runs beside validate.
    const q = `${dir}/none`;
    const [v, d] = await Promise.all([
      run(["--mode", "validate", "-c", FIX, "--base-id", "7", "--base-id-path", p]),
      run(["--mode", "init_only", "-c", FIX, "--disable-hot-restart", "--base-id-path", q]),
    ]);
    assert.equal(v.code, 0, v.stderr);
    assert.equal(readOrNull(p), null);
    const s = await run(["--mode", "init_only", "-c", FIX, "--base-id", "7", "--base-id-path", p]);
    assert.equal(s.code, 0, s.stderr);
    assert.equal(readOrNull(p), "7");
    assert.equal(d.code, 0, d.stderr);
    assert.equal(readOrNull(q), null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cli.options.use-dynamic-base-id: a free base ID is picked, stored in the options and written", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const p = `${dir}/base_id`;
    const r = await run([
      "--mode",
      "init_only",
      "-c",
      FIX,
      "--use-dynamic-base-id",
      "--base-id-path",
      p,
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(readOrNull(p) ?? "", /^\d+$/);
    assert.ok(Number(readOrNull(p)) < 0x10000000);

    // In process, with a filesystem --socket-path: an ID in use is skipped.
    const path = `${dir}/hr`;
    const o = parseArgs([
      "-c",
      FIX,
      "--use-dynamic-base-id",
      "--socket-path",
      path,
      "--base-id-path",
      p,
    ]);
    const held = bindHotRestartSocket(hotRestartSocketName(path, "child", 11, 0), 0o600);
    const logs: string[] = [];
    try {
      const ids = [11, 12];
      setUpProcess(o, (l, m) => logs.push(`${l} ${m}`), { random: () => ids.shift() ?? 13 });
    } finally {
      held.close();
    }
    assert.equal(o.base_id, 12);
    assert.equal(readOrNull(p), "12");
    assert.ok(logs.includes("info dynamic base id: 12"));
    // The probe left no socket files behind.
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["base_id"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cli.options.base-id-path: an unwritable path is logged at critical level, not fatal", () => {
  const logs: string[] = [];
  assert.equal(
    writeBaseIdFile("/nonexistent-dir/x/base_id", 3, (l, m) => logs.push(`${l} ${m}`)),
    false,
  );
  assert.deepEqual(logs, [
    "critical cannot open base id output file /nonexistent-dir/x/base_id for writing.",
  ]);
});

Deno.test("cli.options.enable-core-dump: a serving process with the option is dumpable", async () => {
  if (Deno.build.os !== "linux") return;
  const r = await run([
    "--mode",
    "init_only",
    "-c",
    FIX,
    "--enable-core-dump",
    "-l",
    "info",
    "--log-format",
    "%v",
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /^core dump enabled/m);
});
