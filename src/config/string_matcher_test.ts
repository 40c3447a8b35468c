import assert from "node:assert/strict";
import type { Json } from "./bootstrap_types.ts";
import type { Errors } from "./config_values.ts";
import { compileStringMatcher } from "./string_matcher.ts";
import { healthCheckErrors } from "./health_check_rules.ts";

const RULE = "cluster.objects.core.health-check.http-health-check.service-name-matcher";

function compile(v: Json) {
  const errors: Errors = [];
  return { m: compileStringMatcher(v, "m", errors), errors };
}

Deno.test(`${RULE}: every StringMatcher kind, with and without ignore_case`, () => {
  const cases: [Json, string, boolean][] = [
    [{ exact: "Web" }, "Web", true],
    [{ exact: "Web" }, "web", false],
    [{ exact: "Web", ignore_case: true }, "wEB", true],
    [{ exact: "" }, "", true],
    [{ prefix: "we" }, "web-east", true],
    [{ prefix: "WE", ignore_case: true }, "web-east", true],
    [{ prefix: "WE" }, "web-east", false],
    [{ suffix: "east" }, "web-east", true],
    [{ suffix: "EAST", ignore_case: true }, "web-east", true],
    [{ contains: "b-e" }, "web-east", true],
    [{ contains: "B-E" }, "web-east", false],
    [{ safe_regex: { regex: "web-[a-z]+" } }, "web-east", true],
    [{ safe_regex: { regex: "web" } }, "web-east", false],
  ];
  for (const [v, input, want] of cases) {
    const { m, errors } = compile(v);
    assert.deepEqual(errors, [], JSON.stringify(v));
    assert.equal(m!(input), want, `${JSON.stringify(v)} on ${input}`);
  }
});

Deno.test(`${RULE}: a StringMatcher that cannot match is refused at its path`, () => {
  const cases: [Json, string, RegExp][] = [
    ["web", "m", /must be an object/],
    [{}, "m", /exactly one of exact, prefix, suffix, safe_regex, contains/],
    [{ exact: "a", prefix: "b" }, "m", /exactly one of/],
    [{ prefix: "" }, "m.prefix", /must not be empty/],
    [{ exact: 1 }, "m.exact", /must be a string/],
    [{ exact: "a", ignore_case: "yes" }, "m.ignore_case", /must be a boolean/],
    [{ exact: "a", regex: "a" }, "m.regex", /regex is not supported by this build/],
    [{ custom: { name: "x" } }, "m.custom", /not supported by this build/],
    [{ safe_regex: { regex: "(?=a)" } }, "m.safe_regex.regex", /look-around/],
    [{ safe_regex: "a" }, "m.safe_regex", /must be an object/],
  ];
  for (const [v, path, message] of cases) {
    const { m, errors } = compile(v);
    assert.equal(m, null, JSON.stringify(v));
    assert.ok(errors.length > 0, JSON.stringify(v));
    assert.equal(errors[0].path, path, JSON.stringify(v));
    assert.match(errors[0].message, message, JSON.stringify(v));
  }
});

Deno.test(`${RULE}: a health check's bad service_name_matcher names its field path`, () => {
  const errors = healthCheckErrors([{
    timeout: "1s",
    interval: "1s",
    http_health_check: { path: "/", service_name_matcher: { prefix: "a", suffix: "b" } },
  }]);
  assert.equal(errors.length, 1);
  assert.equal(errors[0].path, "health_checks[0].http_health_check.service_name_matcher");
  assert.equal(errors[0].rule, RULE);
});
