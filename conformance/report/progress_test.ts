import assert from "node:assert/strict";
import { sectionLines } from "./progress.ts";
import type { Case, CaseResult, Status } from "../types.ts";

const c = (id: string, section: string): Case => ({
  id,
  title: id,
  rules: [`${section}.rule`],
  target: "http",
  phase: "read",
  run: async () => {},
});
const r = (id: string, status: Status): CaseResult => ({
  caseId: id,
  title: id,
  status,
  message: "",
  durationMs: 0,
  repro: [],
});

Deno.test("progress off a terminal: one line per section, written when its last case finishes", () => {
  const lines: string[] = [];
  let clock = 1000;
  const p = sectionLines((l) => lines.push(l), (x) => x.rules[0].split(".")[0], () => clock);
  const plan = [c("a1", "a"), c("b1", "b"), c("a2", "a"), c("b2", "b"), c("b3", "b")];
  p.start(plan);
  assert.deepEqual(lines, ["conformance: 5 case(s) in 2 section(s)"]);
  p.update(1, 5, plan[1], r("b1", "PASS"));
  p.update(2, 5, plan[0], r("a1", "FAIL"));
  assert.equal(lines.length, 1, "no section finished yet");
  clock = 3500;
  p.update(3, 5, plan[2], { ...r("a2", "PASS"), durationMs: 1200 });
  p.update(4, 5, plan[3], r("b2", "NOT_APPLICABLE"));
  clock = 11_000;
  p.update(5, 5, plan[4], { ...r("b3", "PASS"), durationMs: 7000 });
  p.stop();
  assert.deepEqual(lines.slice(1), [
    "conformance: a: 2 case(s) done: FAIL 1, PASS 1 [3/5] at 2.5 s, cases 1.2 s",
    "conformance: b: 3 case(s) done: PASS 2, NOT_APPLICABLE 1 [5/5] at 10.0 s, cases 7.0 s",
    "conformance: 5 case(s) in 10.0 s; slowest: b3 7.0 s, a2 1.2 s, b1 0.0 s, a1 0.0 s, b2 0.0 s",
  ]);
});

Deno.test("progress off a terminal: section lines come in plan order when a later section finishes first", () => {
  const lines: string[] = [];
  const p = sectionLines((l) => lines.push(l), (x) => x.rules[0].split(".")[0], () => 0);
  const plan = [c("a1", "a"), c("b1", "b"), c("c1", "c")];
  p.start(plan);
  p.update(1, 3, plan[2], r("c1", "PASS"));
  p.update(2, 3, plan[1], r("b1", "PASS"));
  assert.equal(lines.length, 1, "c and b wait for a");
  p.update(3, 3, plan[0], r("a1", "PASS"));
  assert.deepEqual(lines.slice(1).map((l) => l.split(":")[1].trim()), ["a", "b", "c"]);
  assert.match(lines[3], /\[1\/3\]/, "each line keeps the count at which its section ended");
});
