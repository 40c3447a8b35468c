import assert from "node:assert/strict";
import type { TaggedRule } from "../spec/mod.ts";
import { runConformance } from "./cli.ts";
import type { RunnerIo } from "./cli.ts";
import { CommandClient } from "./command_client.ts";
import { HttpClient } from "./http_client.ts";
import { profile } from "./profile.ts";
import type { ProbeResult } from "./probe.ts";
import { planCases, runSuite } from "./runner.ts";
import { CaseFailure, Precondition } from "./types.ts";
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
    fakeCase("pre", ["r.pre"], () => Promise.reject(new Precondition("no profiler"))),
    fakeCase("gated", ["r.gated"], async () => {}, "read"),
    fakeCase("undo", ["r.undo"], (ctx) => {
      ctx.onUndo(() => Promise.resolve(void undone.push("first")));
      ctx.onUndo(() => Promise.resolve(void undone.push("second")));
      return Promise.resolve();
    }, "mutating"),
    fakeCase("destroy", ["r.destroy"], async () => {}, "destructive"),
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
  assert.equal(by["r.pre"].status, "PRECONDITION_FAILED");
  assert.equal(by["r.gated"].status, "PRECONDITION_FAILED");
  assert.equal(by["r.undo"].status, "PASS");
  assert.deepEqual(undone, ["second", "first"]);
  assert.equal(by["r.destroy"].status, "SKIP");
  assert.match(by["r.destroy"].message, /--destructive/);
  assert.equal(by["r.none"].status, "SKIP");
  assert.equal(by["r.internal"].status, "SKIP");
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
    assert.equal(r.status, "PRECONDITION_FAILED");
  },
);
