import assert from "node:assert/strict";
import { LOG_FLAGS } from "../../spec/cli/log_format.ts";
import { cEscape, compileLogFormat, currentThreadId, type LogRecord } from "./log_format.ts";

type FlagId = (typeof LOG_FLAGS)[number]["id"];

const REC: LogRecord = {
  time: new Date(2020, 1, 3, 14, 5, 9, 42), // Monday 3 February 2020, 14:05:09.042 local time
  subMillisNanos: 123456,
  level: "warning",
  logger: "upstream",
  message: 'hello\n"world"',
  file: "src/upstream/cluster_manager.ts",
  line: 42,
  func: "addCluster",
  threadId: 7,
  pid: 1234,
};

/**
 * The rendering of each flag for REC (a fixed local time, so nothing depends on the clock), keyed
 * by row ID: a row without an entry does not compile. `%z` depends on the time zone; computed.
 */
const EXPECTED: Record<FlagId, Record<string, string>> = {
  "cli.log-format.message": { "%v": 'hello\n"world"' },
  "cli.log-format.message-escaped": { "%_": 'hello\\n"world"' },
  "cli.log-format.message-json": { "%j": 'hello\\n\\"world\\"' },
  "cli.log-format.thread-id": { "%t": "7" },
  "cli.log-format.process-id": { "%P": "1234" },
  "cli.log-format.logger-name": { "%n": "upstream" },
  "cli.log-format.level": { "%l": "warning" },
  "cli.log-format.short-level": { "%L": "W" },
  "cli.log-format.weekday": { "%a": "Mon", "%A": "Monday" },
  "cli.log-format.month-name": { "%b": "Feb", "%B": "February" },
  "cli.log-format.date-time": { "%c": "Mon Feb  3 14:05:09 2020" },
  "cli.log-format.year-2": { "%C": "20" },
  "cli.log-format.year-4": { "%Y": "2020" },
  "cli.log-format.date": { "%D": "02/03/20", "%x": "02/03/20" },
  "cli.log-format.month": { "%m": "02" },
  "cli.log-format.day": { "%d": "03" },
  "cli.log-format.hour-24": { "%H": "14" },
  "cli.log-format.hour-12": { "%I": "02" },
  "cli.log-format.minute": { "%M": "05" },
  "cli.log-format.second": { "%S": "09" },
  "cli.log-format.millis": { "%e": "042" },
  "cli.log-format.micros": { "%f": "042123" },
  "cli.log-format.nanos": { "%F": "042123456" },
  "cli.log-format.am-pm": { "%p": "PM" },
  "cli.log-format.clock-12": { "%r": "02:05:09 PM" },
  "cli.log-format.hour-minute": { "%R": "14:05" },
  "cli.log-format.time": { "%T": "14:05:09", "%X": "14:05:09" },
  "cli.log-format.utc-offset": { "%z": "<offset>" },
  "cli.log-format.percent": { "%%": "%" },
  "cli.log-format.source-location": { "%@": "src/upstream/cluster_manager.ts:42" },
  "cli.log-format.source-basename": { "%s": "cluster_manager.ts" },
  "cli.log-format.source-path": { "%g": "src/upstream/cluster_manager.ts" },
  "cli.log-format.source-line": { "%#": "42" },
  "cli.log-format.source-function": { "%!": "addCluster" },
};

for (const row of LOG_FLAGS) {
  Deno.test(`${row.id}: ${row.flags.join(" and ")} render the ${row.meaning}`, () => {
    for (const flag of row.flags) {
      const out = compileLogFormat(`<${flag}>`)(REC);
      const body = out.slice(1, -1);
      if (flag === "%z") {
        const off = -REC.time.getTimezoneOffset();
        const sign = off < 0 ? "-" : "+";
        const a = Math.abs(off);
        assert.equal(
          body,
          `${sign}${String(Math.floor(a / 60)).padStart(2, "0")}:${
            String(a % 60).padStart(2, "0")
          }`,
        );
      } else assert.equal(body, EXPECTED[row.id][flag], flag);
      if (row.pattern) {
        assert.match(body, new RegExp(`^(?:${row.pattern})$`, "s"), `${flag} vs pattern`);
      }
    }
  });
  if (row.variant === "new") {
    Deno.test(`${row.id}: ${row.flags.join(" and ")} print literally in the v2 variant`, () => {
      for (const flag of row.flags) {
        assert.equal(compileLogFormat(`<${flag}>`, { variant: "v2" })(REC), `<${flag}>`);
      }
    });
  }
}

Deno.test("cli.log-format.message: an unknown flag and a trailing % print literally", () => {
  assert.equal(compileLogFormat("%q %y %v %")(REC), '%q %y hello\n"world" %');
});

Deno.test("cli.options.log-format: the default formats render a whole line", () => {
  const line = compileLogFormat("[%Y-%m-%d %T.%e][%t][%l][%n] [%g:%#] %v")({
    ...REC,
    message: "m",
  });
  assert.equal(
    line,
    "[2020-02-03 14:05:09.042][7][warning][upstream] [src/upstream/cluster_manager.ts:42] m",
  );
  assert.equal(
    compileLogFormat("[%l][%n] %v", { variant: "v2" })({ ...REC, message: "m" }),
    "[warning][upstream] m",
  );
});

Deno.test("cli.options.log-format-escaped: C-style escapes in the message, trailing whitespace kept", () => {
  const fmt = compileLogFormat("%v", { escaped: true });
  assert.equal(fmt({ ...REC, message: "a\tb\nc\\d\u0001\n" }), "a\\tb\\nc\\\\d\\001\n");
  assert.equal(cEscape(`'"`), `\\'\\"`);
});

Deno.test("cli.options.log-format-escaped: the whole line is escaped, only its trailing whitespace is kept", () => {
  const fmt = compileLogFormat("[%n] %v|", { escaped: true });
  // The message's newline is not trailing in the line, so it is escaped.
  assert.equal(fmt({ ...REC, logger: "a\tb", message: "x\n" }), "[a\\tb] x\\n|");
  const plain = compileLogFormat("[%n] %v|");
  assert.equal(plain({ ...REC, logger: "a\tb", message: "x\n" }), "[a\tb] x\n|");
});

Deno.test("cli.log-format.thread-id: %t without a given id is the kernel thread id (gettid)", async () => {
  const { threadId: _, ...rec } = REC;
  const tid = currentThreadId();
  assert.equal(compileLogFormat("%t")(rec), String(tid));
  if (Deno.build.os !== "linux") return;
  // A worker runs on a thread of its own, so its %t differs.
  assert.ok(Number.isInteger(tid) && tid > 0);
  const url = new URL("./log_format.ts", import.meta.url).href;
  const src = `import { currentThreadId } from "${url}";
self.postMessage(currentThreadId());
self.close();`;
  const blob = URL.createObjectURL(new Blob([src], { type: "application/javascript" }));
  const w = new Worker(blob, { type: "module" });
  try {
    const workerTid = await new Promise<number>((resolve, reject) => {
      w.onmessage = (e) => resolve(e.data as number);
      w.onerror = (e) => {
        e.preventDefault();
        reject(new Error(e.message));
      };
    });
    assert.ok(Number.isInteger(workerTid) && workerTid > 0);
    assert.notEqual(workerTid, tid);
  } finally {
    w.terminate();
    URL.revokeObjectURL(blob);
  }
});

Deno.test("cli.log-format.source-path: a format says whether it needs the source location", () => {
  assert.equal(compileLogFormat("[%g:%#] %v").needsSource, true);
  assert.equal(compileLogFormat("[%l] %v").needsSource, false);
  assert.equal(compileLogFormat("[%g] %v", { variant: "v2" }).needsSource, false);
});
