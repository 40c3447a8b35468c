import assert from "node:assert/strict";
import { compileRe2 } from "./safe_regex.ts";
import { CONFIG_REGEX_MAX_LENGTH } from "../platform/re2.ts";

type Err = { path: string; rule: string; message: string };

Deno.test("route safe_regex runs on a linear-time engine: a catastrophic pattern answers at once", () => {
  const errors: Err[] = [];
  const re = compileRe2("(a+)+$", "m.safe_regex.regex", errors);
  assert.deepEqual(errors, []);
  assert.equal(re?.test("a".repeat(50_000) + "!"), false);
  assert.equal(re?.test("aaaa"), true);
  const alt = compileRe2("(.|.|.|.|.|.|.|.)*Z", "m", errors);
  assert.equal(alt?.test("x".repeat(10_000)), false);
});

Deno.test("route safe_regex keeps RE2 syntax: (?i), \\z, full match", () => {
  const errors: Err[] = [];
  assert.equal(compileRe2("(?i)/API/v[0-9]+\\z", "p", errors)?.test("/api/v2"), true);
  assert.equal(compileRe2("/v[0-9]+", "p", errors)?.test("/v2/x"), false);
  assert.deepEqual(errors, []);
});

Deno.test("route safe_regex over the configuration length limit is an error with its path and the limit", () => {
  const errors: Err[] = [];
  const re = compileRe2(
    "a".repeat(CONFIG_REGEX_MAX_LENGTH + 1),
    "r.match.safe_regex.regex",
    errors,
  );
  assert.equal(re, null);
  assert.equal(errors[0].path, "r.match.safe_regex.regex");
  assert.match(errors[0].message, new RegExp(`the limit is ${CONFIG_REGEX_MAX_LENGTH}`));
  assert.ok(errors[0].message.length < 200);
});
