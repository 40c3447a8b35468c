import assert from "node:assert/strict";
import type { TaggedRule } from "../spec/mod.ts";
import { runConformance } from "./cli.ts";
import type { RunnerIo } from "./cli.ts";
import { CommandClient } from "./command_client.ts";
import { HttpClient } from "./http_client.ts";
import { profile } from "./profile.ts";
import type { ProbeResult } from "./probe.ts";
import { planCases, runSuite } from "./runner.ts";
import { CaseFailure, NotApplicable, NotRun } from "./types.ts";
import { summarize } from "./summary.ts";
import type { Case, CaseContext } from "./types.ts";

function rule(id: string, check: TaggedRule["check"] = "black-box"): TaggedRule {
  return {
    id,
    level: "MUST",
    statement: `statement ${id}`,
    cite: { section: "S", quote: "q" },
    check,
    table: "admin.general",
  };
}

function fakeCase(
  id: string,
  rules: string[],
  run: (ctx: CaseContext) => Promise<void>,
  phase: Case["phase"] = "read",
): Case {
  return { id, title: id, rules, target: "http", phase, run };
}

const noProbe: ProbeResult = {
  features: new Set(),
  decided: new Set(["tap"]),
  fixtures: new Set(),
  configDump: "",
};

function options(rules: TaggedRule[], cases: Case[]) {
  return {
    rules,
    cases,
    http: new HttpClient("http://127.0.0.1:9"),
    command: new CommandClient(null),
    profile: profile("seed"),
    variant: "new" as const,
    seed: 1,
    numRuns: 3,
    timeoutMs: 200,
    destructive: false,
    expectations: [],
    probe: noProbe,
  };
}

Deno.test("runner: case outcomes become statuses, and a rule takes the worst of its cases", async () => {
  const undone: string[] = [];
  const cases: Case[] = [
    fakeCase("pass", ["r.pass", "r.mixed"], async () => {}),
    fakeCase(
      "fail",
      ["r.fail", "r.mixed"],
      () => Promise.reject(new CaseFailure("expected 400, got 200", "/x")),
    ),
    fakeCase("error", ["r.error"], () => Promise.reject(new TypeError("boom"))),
    fakeCase(
      "timeout",
      ["r.timeout"],
      (ctx) => new Promise((ok) => ctx.signal.addEventListener("abort", () => ok())),
    ),
    fakeCase("pre", ["r.pre"], () => Promise.reject(new NotApplicable("no profiler"))),
    fakeCase("gated", ["r.gated"], async () => {}, "read"),
    fakeCase("undo", ["r.undo"], (ctx) => {
      ctx.onUndo(() => Promise.resolve(void undone.push("first")));
      ctx.onUndo(() => Promise.resolve(void undone.push("second")));
      return Promise.resolve();
    }, "mutating"),
    fakeCase("destroy", ["r.destroy"], async () => {}, "destructive"),
    {
      ...fakeCase("notrun", ["r.notrun"], (ctx) => ctx.command.run(["--version"]).then(() => {})),
      target: "http",
    },
  ];
  cases[5] = { ...cases[5], requires: "tap" };
  const rules = [
    "r.pass",
    "r.fail",
    "r.mixed",
    "r.error",
    "r.timeout",
    "r.pre",
    "r.gated",
    "r.undo",
    "r.destroy",
    "r.notrun",
    "r.none",
  ]
    .map((id) => rule(id));
  rules.push(rule("r.internal", "internal"));
  const results = await runSuite(options(rules, cases));
  const by = Object.fromEntries(results.map((r) => [r.rule, r]));
  assert.equal(by["r.pass"].status, "PASS");
  assert.equal(by["r.fail"].status, "FAIL");
  assert.equal(by["r.fail"].counterexample, "/x");
  assert.equal(by["r.mixed"].status, "FAIL");
  assert.equal(by["r.error"].status, "ERROR");
  assert.match(by["r.error"].message, /TypeError: boom/);
  assert.equal(by["r.timeout"].status, "TIMEOUT");
  assert.equal(by["r.pre"].status, "NOT_APPLICABLE");
  assert.match(by["r.pre"].message, /no profiler/);
  assert.equal(by["r.gated"].status, "NOT_APPLICABLE");
  assert.equal(by["r.notrun"].status, "NOT_RUN");
  assert.equal(by["r.undo"].status, "PASS");
  assert.deepEqual(undone, ["second", "first"]);
  assert.equal(by["r.destroy"].status, "NOT_RUN");
  assert.match(by["r.destroy"].message, /--destructive/);
  assert.equal(by["r.none"].status, "NOT_RUN");
  assert.equal(by["r.internal"].status, "NOT_RUN");
  assert.deepEqual(results.filter((r) => !r.ok).map((r) => r.rule), [
    "r.fail",
    "r.mixed",
    "r.error",
    "r.timeout",
  ]);
});

Deno.test("runner: expectations turn a known failure into a match and an unexpected pass into a mismatch", async () => {
  const cases = [
    fakeCase("a", ["r.a"], () => Promise.reject(new CaseFailure("no"))),
    fakeCase("b", ["r.b"], async () => {}),
  ];
  const opts = options([rule("r.a"), rule("r.b")], cases);
  const results = await runSuite({
    ...opts,
    expectations: [
      { rule: "r.a", status: "FAIL", reason: "known" },
      { rule: "r.b", status: "FAIL", reason: "was broken" },
    ],
  });
  assert.deepEqual(results.map((r) => [r.rule, r.status, r.expected, r.ok]), [
    ["r.a", "FAIL", "FAIL", true],
    ["r.b", "PASS", "FAIL", false],
  ]);
});

Deno.test("runner: read-only cases run first, mutating next, destructive last, quitquitquit at the end", () => {
  const c = (id: string, phase: Case["phase"]) => fakeCase(id, ["r"], async () => {}, phase);
  const plan = planCases(
    [
      c("d1", "destructive"),
      c("quitquitquit", "mutating"),
      c("m1", "mutating"),
      c("r1", "read"),
      c("x", "read"),
    ],
    new Set(["r"]),
  );
  assert.deepEqual(plan.map((p) => p.id), ["r1", "x", "m1", "quitquitquit", "d1"]);
});

function captureIo(): RunnerIo & { text: () => string } {
  const out: string[] = [];
  return {
    out: (t) => void out.push(t),
    err: (t) => void out.push(t),
    progress: false,
    text: () => out.join("\n"),
  };
}

Deno.test("runner exit codes: usage errors, unknown selectors and unreachable targets exit 2", async () => {
  let io = captureIo();
  assert.equal(await runConformance(["--bogus"], io), 2);
  assert.match(io.text(), /unknown option '--bogus'/);
  io = captureIo();
  assert.equal(await runConformance(["admin.*"], io), 2);
  assert.match(io.text(), /give --base-url, --command, or both/);
  io = captureIo();
  assert.equal(await runConformance(["--base-url", "http://127.0.0.1:1", "no.such.rule.*"], io), 2);
  assert.match(io.text(), /no rule matches no\.such\.rule\.\*/);
  assert.equal(await runConformance(["--num-runs", "0", "--list"], captureIo()), 2);
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  io = captureIo();
  assert.equal(
    await runConformance(["--base-url", `http://127.0.0.1:${port}`, "admin.endpoints.ready"], io),
    2,
  );
  assert.match(io.text(), /cannot connect/);
  io = captureIo();
  assert.equal(await runConformance(["--command", "/nonexistent/proxy-binary", "cli.*"], io), 2);
  assert.match(io.text(), /cannot run the --command/);
});

Deno.test("runner --list and --help exit 0 and say what would run", async () => {
  const io = captureIo();
  assert.equal(await runConformance(["--list", "--command", "x", "admin.mutation.*"], io), 0);
  assert.match(io.text(), /admin\.mutation\.get-returns-400 \[black-box\] .*needs --base-url/);
  const help = captureIo();
  assert.equal(await runConformance(["--help"], help), 0);
  assert.match(help.text(), /^Usage: deno task conformance/);
});

Deno.test(
  "admin.mutation.get-returns-400, admin.endpoints.tap: a case naming an unselected fixture rule is still gated by its fixture",
  async () => {
    let ran = false;
    const cases = [
      fakeCase(
        "get-on-mutating:/tap",
        ["admin.mutation.get-returns-400", "admin.endpoints.tap"],
        () => {
          ran = true;
          return Promise.reject(new CaseFailure("GET /tap answered 404"));
        },
      ),
    ];
    const [r] = await runSuite(options([rule("admin.mutation.get-returns-400")], cases));
    assert.equal(ran, false, "the case ran although the target has no tap fixture");
    assert.equal(r.status, "NOT_APPLICABLE");
  },
);

Deno.test("runner --strict: an unlisted not-checked rule is unexpected, a listed one and an internal one match", async () => {
  const cases = [
    fakeCase("pass", ["r.pass"], async () => {}),
    fakeCase("na", ["r.na"], () => Promise.reject(new NotApplicable("no EDS server"))),
    fakeCase("listed", ["r.listed"], () => Promise.reject(new NotApplicable("no EDS server"))),
    fakeCase("destroy", ["r.destroy"], async () => {}, "destructive"),
  ];
  const rules = ["r.pass", "r.na", "r.listed", "r.destroy", "r.none"].map((id) => rule(id));
  rules.push(rule("r.internal", "internal"));
  const expectations = [{ rule: "r.listed", status: "NOT_APPLICABLE" as const, reason: "no EDS" }];
  const lax = await runSuite({ ...options(rules, cases), expectations });
  assert.deepEqual(lax.filter((r) => !r.ok).map((r) => r.rule), []);
  const strict = await runSuite({ ...options(rules, cases), expectations, strict: true });
  assert.deepEqual(strict.filter((r) => !r.ok).map((r) => r.rule), [
    "r.na",
    "r.destroy",
    "r.none",
  ]);
  const s = summarize(strict);
  assert.equal(s.selected, 6);
  assert.equal(s.checked, 1);
  assert.deepEqual(s.counts, {
    PASS: 1,
    FAIL: 0,
    ERROR: 0,
    TIMEOUT: 0,
    NOT_APPLICABLE: 2,
    NOT_RUN: 3,
  });
  assert.deepEqual(s.notChecked.map((g) => [g.status, g.reason, g.count]), [
    ["NOT_APPLICABLE", "no EDS server", 2],
    ["NOT_RUN", "internal: the rule cannot be checked from outside an implementation", 1],
    ["NOT_RUN", "no conformance case checks this rule yet", 1],
    ["NOT_RUN", "not run: destructive, needs --destructive", 1],
  ]);
});

Deno.test("runner concurrency: read-only cases overlap up to the bound; mutating and destructive ones run alone, in order, after them", async () => {
  const events: string[] = [];
  let inFlight = 0;
  let most = 0;
  const tick = () => new Promise((r) => setTimeout(r, 5));
  const body = (id: string) => async () => {
    events.push(`start ${id}`);
    inFlight++;
    most = Math.max(most, inFlight);
    await tick();
    await tick();
    inFlight--;
    events.push(`end ${id}`);
  };
  const reads = Array.from({ length: 12 }, (_, i) => fakeCase(`r${i}`, ["r"], body(`r${i}`)));
  const cases = [
    fakeCase("m1", ["r"], body("m1"), "mutating"),
    ...reads.slice(0, 6),
    fakeCase("d1", ["r"], body("d1"), "destructive"),
    fakeCase("m2", ["r"], body("m2"), "mutating"),
    ...reads.slice(6),
  ];
  const [res] = await runSuite({
    ...options([rule("r")], cases),
    destructive: true,
    concurrency: 3,
  });
  assert.equal(res.status, "PASS");
  assert.equal(most, 3, "read-only cases did not overlap up to the bound of 3");
  const lastRead = Math.max(...reads.map((c) => events.indexOf(`end ${c.id}`)));
  const tail = events.slice(lastRead + 1);
  assert.deepEqual(tail, ["start m1", "end m1", "start m2", "end m2", "start d1", "end d1"]);
  assert.equal(events.length, 30);
});

Deno.test("runner output: totals print whatever the report formats, a line per section off a terminal, --strict exits 1 on an unlisted not-checked rule", async () => {
  const ac = new AbortController();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: ac.signal, onListen: () => {} },
    () => new Response("ok"),
  );
  const dir = await Deno.makeTempDir({ prefix: "runner-output-" });
  try {
    // One rule no case checks yet, and one a server answering 200 to everything passes.
    const base = [
      "--base-url",
      `http://127.0.0.1:${server.addr.port}`,
      "--report",
      "json",
      "--report-dir",
      dir,
      "cli.constraints.new-option-in-v2",
      "admin.general.read-only-any-method",
    ];
    let io = captureIo();
    assert.equal(await runConformance(base, io), 0);
    const text = io.text();
    assert.match(text, /checked 1 of 2 selected rules \(50%\); 1 not checked/);
    assert.match(text, /PASS 1, FAIL 0, ERROR 0, TIMEOUT 0, NOT_APPLICABLE 0, NOT_RUN 1/);
    assert.match(text, /1 NOT_RUN: no conformance case checks this rule yet/);
    assert.match(
      text,
      /^conformance: admin\.general: \d+ case\(s\) done: PASS \d+ \[\d+\/\d+\] at \d+\.\d s, cases \d+\.\d s$/m,
    );
    io = captureIo();
    assert.equal(await runConformance([...base, "--strict"], io), 1);
    assert.match(io.text(), /1 result\(s\) did not match their expectation \(--strict/);
    const exp = `${dir}/exp.yaml`;
    await Deno.writeTextFile(
      exp,
      "- {rule: cli.constraints.new-option-in-v2, status: NOT_RUN, reason: no case yet}\n",
    );
    io = captureIo();
    assert.equal(await runConformance([...base, "--strict", "--expectations", exp], io), 0);
  } finally {
    ac.abort();
    await server.finished;
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runner concurrency: command-line cases run in their own bounded pool beside the server's cases; mutating ones stay alone; what may end the server waits for all", async () => {
  const events: string[] = [];
  const running = new Set<string>();
  const overlaps: string[] = [];
  let commandsAtOnce = 0;
  const tick = () => new Promise((r) => setTimeout(r, 3));
  const body = (id: string, ticks: number) => async () => {
    for (const other of running) overlaps.push(`${id}|${other}`);
    running.add(id);
    events.push(`start ${id}`);
    commandsAtOnce = Math.max(commandsAtOnce, [...running].filter((x) => x[0] === "c").length);
    for (let i = 0; i < ticks; i++) await tick();
    running.delete(id);
    events.push(`end ${id}`);
  };
  const command = (id: string): Case => ({
    ...fakeCase(id, ["r"], body(id, 6)),
    target: "command",
  });
  const cases: Case[] = [
    ...Array.from({ length: 8 }, (_, i) => command(`c${i}`)),
    ...Array.from({ length: 4 }, (_, i) => fakeCase(`h${i}`, ["r"], body(`h${i}`, 1))),
    fakeCase("m1", ["r"], body("m1", 1), "mutating"),
    fakeCase("m2", ["r"], body("m2", 1), "mutating"),
    fakeCase("quitquitquit-get", ["r"], body("quitquitquit-get", 1), "mutating"),
    fakeCase("d1", ["r"], body("d1", 1), "destructive"),
  ];
  const [res] = await runSuite({
    ...options([rule("r")], cases),
    command: new CommandClient(["/bin/true"]),
    destructive: true,
    concurrency: 4,
    commandConcurrency: 2,
  });
  assert.equal(res.status, "PASS");
  assert.equal(commandsAtOnce, 2, "command-line cases did not fill their pool of 2");
  const pair = (a: string, b: string) =>
    overlaps.includes(`${a}|${b}`) || overlaps.includes(`${b}|${a}`);
  assert.ok(
    ["h0", "h1", "h2", "h3", "m1", "m2"].some((h) => ["c0", "c1", "c2"].some((c) => pair(h, c))),
    "no server case ran beside a command-line case",
  );
  for (const m of ["m1", "m2"]) {
    for (const h of ["h0", "h1", "h2", "h3", "m1", "m2"].filter((x) => x !== m)) {
      assert.equal(pair(m, h), false, `${m} overlapped ${h}`);
    }
  }
  assert.ok(events.indexOf("start m1") < events.indexOf("start m2"));
  const lastCommand = Math.max(...events.map((e, i) => e.startsWith("end c") ? i : -1));
  assert.deepEqual(events.slice(lastCommand + 1).filter((e) => !e.includes(" m")), [
    "start quitquitquit-get",
    "end quitquitquit-get",
    "start d1",
    "end d1",
  ]);
  assert.equal(overlaps.filter((o) => o.includes("quitquitquit") || o.includes("d1")).length, 0);
});

Deno.test("runner concurrency: cases that serve traffic run in a pool of their own beside the other command-line cases, each pool bounded", async () => {
  const running = new Set<string>();
  let servingAtOnce = 0;
  let commandsAtOnce = 0;
  let mixed = false;
  const body = (id: string) => async () => {
    running.add(id);
    const ids = [...running];
    servingAtOnce = Math.max(servingAtOnce, ids.filter((x) => x[0] === "s").length);
    commandsAtOnce = Math.max(commandsAtOnce, ids.filter((x) => x[0] === "c").length);
    if (ids.some((x) => x[0] === "s") && ids.some((x) => x[0] === "c")) mixed = true;
    for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 3));
    running.delete(id);
  };
  const command = (id: string, serves: boolean): Case => ({
    ...fakeCase(id, ["r"], body(id)),
    target: "command",
    ...(serves ? { serves } : {}),
  });
  const cases = [
    ...Array.from({ length: 6 }, (_, i) => command(`c${i}`, false)),
    ...Array.from({ length: 6 }, (_, i) => command(`s${i}`, true)),
  ];
  const [res] = await runSuite({
    ...options([rule("r")], cases),
    command: new CommandClient(["/bin/true"]),
    concurrency: 8,
    commandConcurrency: 2,
  });
  assert.equal(res.status, "PASS");
  assert.equal(res.cases.length, 12);
  assert.equal(servingAtOnce, 2, "serving cases did not fill their pool of 2, or overfilled it");
  assert.equal(commandsAtOnce, 2, "other command-line cases did not fill their pool of 2");
  assert.ok(mixed, "the serving cases waited for the other command-line cases");
});

Deno.test("runner rehearsal: with prepare, the command-line cases first run against clients that reach nothing, then prepare runs, then the cases run for real", async () => {
  const seen: string[] = [];
  const cmd = (id: string): Case => ({
    id,
    title: id,
    rules: ["admin.general.a"],
    target: "command",
    phase: "read",
    run: async (ctx) => {
      seen.push(`${id} ${ctx.command.rehearsal ? "rehearsal" : "real"}`);
      await ctx.command.run(["--version"]);
    },
  });
  const results = await runSuite({
    ...options([rule("admin.general.a")], [cmd("c1"), cmd("c2")]),
    command: new CommandClient([Deno.execPath(), "--version"]),
    timeoutMs: 20_000,
    prepare: (command) => {
      assert.equal(command.rehearsal, false);
      seen.push("prepare");
      return Promise.resolve();
    },
  });
  assert.deepEqual(seen.slice(0, 3), ["c1 rehearsal", "c2 rehearsal", "prepare"]);
  assert.deepEqual(seen.slice(3).sort(), ["c1 real", "c2 real"]);
  // The rehearsal's NotRun is not the outcome: the real runs pass.
  assert.equal(results[0].status, "PASS");
});

Deno.test("runner rehearsal: a rehearsal's client runs and starts nothing", async () => {
  const c = new CommandClient([Deno.execPath(), "--version"]).fork(undefined, true);
  assert.equal(c.rehearsal, true);
  assert.equal(c.fork().rehearsal, true);
  await assert.rejects(c.run(["--version"]), NotRun);
  assert.throws(() => c.spawn([]), NotRun);
});
