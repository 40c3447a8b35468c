import assert from "node:assert/strict";
import { parseArgs } from "../config/args.ts";
import { COMPONENT_NAMES, isLevelName } from "../config/log_levels.ts";
import { createLogging, FILE_FLUSH_SIZE, FileSink, type LogSink } from "./logger.ts";

function memorySink(): LogSink & { lines: string[]; reopened: number } {
  const sink = {
    lines: [] as string[],
    reopened: 0,
    write(line: string) {
      sink.lines.push(line);
    },
    reopen() {
      sink.reopened++;
      return Promise.resolve();
    },
    close() {},
  };
  return sink;
}

const FIXED = () => new Date(2021, 0, 1, 0, 0, 0, 0);

Deno.test("cli.options.log-level: every component logger starts at --log-level; lower levels are dropped", () => {
  const sink = memorySink();
  const l = createLogging(parseArgs(["-l", "warn", "--log-format", "%l|%n|%v"]), {
    sink,
    now: FIXED,
  });
  assert.deepEqual(l.loggers().map(([n]) => n), [...COMPONENT_NAMES]);
  assert.ok(l.loggers().every(([, lv]) => lv === "warning"));
  l.log("upstream", "info", "dropped");
  l.log("upstream", "error", "kept");
  l.log("upstream", "warn", "alias");
  assert.deepEqual(sink.lines, ["error|upstream|kept\n", "warning|upstream|alias\n"]);
});

Deno.test("cli.options.component-log-level: pairs set single loggers", () => {
  const sink = memorySink();
  const l = createLogging(
    parseArgs([
      "--component-log-level",
      "upstream:debug,connection:trace",
      "--log-format",
      "%n %v",
    ]),
    {
      sink,
    },
  );
  const levels = new Map(l.loggers());
  assert.equal(levels.get("upstream"), "debug");
  assert.equal(levels.get("connection"), "trace");
  assert.equal(levels.get("admin"), "info");
  l.log("upstream", "debug", "a");
  l.log("admin", "debug", "b");
  assert.deepEqual(sink.lines, ["upstream a\n"]);
});

Deno.test("cli.options.log-level: setAll, set and isLevel implement the LoggingView", () => {
  const l = createLogging(parseArgs([]), { sink: memorySink() });
  l.setAll("error");
  assert.ok(l.loggers().every(([, lv]) => lv === "error"));
  l.set("router", "trace");
  assert.equal(new Map(l.loggers()).get("router"), "trace");
  assert.throws(() => l.set("router", "loud"), /invalid log level/);
  assert.throws(() => l.set("nope", "info"), /unknown logger/);
  assert.equal(l.isLevel("warn"), true);
  assert.equal(l.isLevel("WARN"), false);
  assert.equal(isLevelName("off"), true);
});

Deno.test("cli.options.log-level: off silences a logger", () => {
  const sink = memorySink();
  const l = createLogging(parseArgs(["-l", "off"]), { sink });
  l.log("main", "critical", "x");
  assert.deepEqual(sink.lines, []);
});

Deno.test("cli.options.enable-fine-grain-logging: loggers are named by source file path", () => {
  const sink = memorySink();
  const l = createLogging(parseArgs(["--enable-fine-grain-logging", "--log-format", "%n|%v"]), {
    sink,
  });
  assert.deepEqual(l.loggers(), []);
  l.log("upstream", "info", "hi");
  assert.deepEqual(l.loggers(), [["src/server/logger_test.ts", "info"]]);
  assert.deepEqual(sink.lines, ["src/server/logger_test.ts|hi\n"]);
  l.set("src/server/logger_test.ts", "error");
  l.log("upstream", "info", "dropped");
  assert.equal(sink.lines.length, 1);
  l.set("src/*", "trace"); // a glob: existing and future loggers
  assert.deepEqual(l.loggers(), [["src/server/logger_test.ts", "trace"]]);
  l.log("src/upstream/cluster_manager.ts", "debug", "by path");
  assert.deepEqual(l.loggers()[1], ["src/upstream/cluster_manager.ts", "trace"]);
  assert.equal(sink.lines.at(-1), "src/upstream/cluster_manager.ts|by path\n");
});

Deno.test("cli.options.enable-fine-grain-logging: globs match without backtracking (many stars, ?, no match)", () => {
  const sink = memorySink();
  const l = createLogging(parseArgs(["--enable-fine-grain-logging", "--log-format", "%n|%v"]), {
    sink,
  });
  l.log("upstream", "info", "hi");
  l.set(`${"*s".repeat(40)}*!`, "error");
  assert.deepEqual(l.loggers(), [["src/server/logger_test.ts", "info"]]);
  l.set("src/?erver/*_test.ts", "debug");
  assert.deepEqual(l.loggers(), [["src/server/logger_test.ts", "debug"]]);
  l.set("*.ts", "warning");
  assert.deepEqual(l.loggers(), [["src/server/logger_test.ts", "warning"]]);
});

Deno.test("cli.log-format.source-line: the default newer format shows the caller's file and line", () => {
  const sink = memorySink();
  const l = createLogging(parseArgs([]), { sink, now: FIXED });
  l.log("main", "info", "located");
  assert.match(
    sink.lines[0],
    /^\[2021-01-01 00:00:00\.000\]\[\d+\]\[info\]\[main\] \[src\/server\/logger_test\.ts:\d+\] located\n$/,
  );
});

Deno.test("cli.log-format.source-line: forComponent() reports its caller's line, not its own", () => {
  const sink = memorySink();
  const l = createLogging(parseArgs(["--log-format", "%n %g:%# %v"]), { sink });
  const log = l.forComponent("upstream");
  log("info", "bound");
  assert.match(sink.lines[0], /^upstream src\/server\/logger_test\.ts:\d+ bound\n$/);
});

Deno.test("cli.options.log-path: lines go to the file, which reopen() opens again", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/proxy.log`;
    const l = createLogging(parseArgs(["--log-path", path, "--log-format", "%v"]));
    l.log("main", "info", "one");
    await Deno.rename(path, `${path}.1`);
    await l.reopen();
    l.log("main", "info", "two");
    l.close();
    assert.equal(await Deno.readTextFile(`${path}.1`), "one\n");
    assert.equal(await Deno.readTextFile(path), "two\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cli.options.file-flush-interval-msec: the log file is buffered and written when full, on close and on critical lines", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/proxy.log`;
    const args = ["--log-path", path, "--log-format", "%v", "--file-flush-interval-msec"];
    const l = createLogging(parseArgs([...args, "3600000"]));
    l.log("main", "info", "one");
    assert.equal(await Deno.readTextFile(path), "", "buffered until the interval elapses");
    const big = "x".repeat(1000);
    const n = Math.ceil(FILE_FLUSH_SIZE / 1001);
    for (let i = 0; i < n; i++) l.log("main", "info", big);
    const written = await Deno.readTextFile(path);
    assert.ok(
      written.startsWith("one\n") && written.length >= FILE_FLUSH_SIZE,
      "a full buffer is written",
    );
    l.log("main", "info", "two");
    l.flush();
    assert.ok((await Deno.readTextFile(path)).endsWith("two\n"), "flush() writes the buffer out");
    l.log("main", "critical", "fatal");
    assert.ok(
      (await Deno.readTextFile(path)).endsWith("two\nfatal\n"),
      "a critical line is written at once",
    );
    l.log("main", "info", "three");
    l.close();
    const all = await Deno.readTextFile(path);
    assert.ok(all.endsWith("fatal\nthree\n"), "close writes the rest");
    assert.equal(all.split("\n").length - 1, n + 4, "no line is lost");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cli.options.file-flush-interval-msec: the buffer is written when the interval elapses", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/proxy.log`;
    const sink = new FileSink(path, 5);
    try {
      sink.write("tick\n");
      assert.equal(sink.buffered, 5);
      // Wait for the timer (no assertion on how long it takes).
      for (let i = 0; i < 2000 && sink.buffered > 0; i++) {
        await new Promise((r) => setTimeout(r, 5));
      }
      assert.equal(sink.buffered, 0);
      assert.equal(await Deno.readTextFile(path), "tick\n");
    } finally {
      sink.close();
    }
    // Interval 0: every line is written at once.
    const eager = new FileSink(path, 0);
    eager.write("now\n");
    assert.equal(await Deno.readTextFile(path), "tick\nnow\n");
    eager.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cli.options.file-flush-interval-msec: buffered lines are written when the process exits", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/proxy.log`;
    const logger = new URL("./logger.ts", import.meta.url).href;
    const args = new URL("../config/args.ts", import.meta.url).href;
    const code = `import { createLogging } from "${logger}";
import { parseArgs } from "${args}";
const l = createLogging(parseArgs(["--log-path", ${JSON.stringify(path)}, "--log-format", "%v"]));
l.log("main", "info", "before exit");
Deno.exit(0);`;
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["eval", "--quiet", code],
      stdout: "null",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    assert.equal(await Deno.readTextFile(path), "before exit\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
