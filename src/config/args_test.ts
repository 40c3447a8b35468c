import assert from "node:assert/strict";
import fc from "fast-check";
import { OPTION_CONSTRAINTS, OPTIONS } from "../../spec/cli/options.ts";
import type { OptionRow } from "../../spec/rule.ts";
import {
  CommandLineError,
  type ConstraintId,
  optionKey,
  parseArgs,
  parseCommandLine,
  requireConfig,
} from "./args.ts";
import { hardwareThreads } from "../platform/cpu_count.ts";
import { loadBootstrap } from "./bootstrap.ts";

const ROWS = OPTIONS as readonly OptionRow[];

/** A valid value (argv items after the flag) and the parsed value, per option row. */
function sample(row: OptionRow): { argv: string[]; value: unknown } {
  switch (row.arg) {
    case "none":
      return { argv: [], value: true };
    case "integer":
      return row.long === "--bootstrap-version"
        ? { argv: ["3"], value: 3 }
        : { argv: ["7"], value: 7 };
    case "level":
      return { argv: ["debug"], value: "debug" };
    case "component-levels":
      return {
        argv: ["upstream:debug,connection:trace"],
        value: "upstream:debug,connection:trace",
      };
    case "octal":
      return { argv: ["644"], value: 0o644 };
    case "list":
      return { argv: ["a/b,c/d"], value: ["a/b", "c/d"] };
    case "yaml":
      return { argv: ["{node: {id: x}}"], value: "{node: {id: x}}" };
    default:
      if (row.choices) {
        const c = row.choices[row.choices.length - 1];
        return { argv: [c], value: c };
      }
      return { argv: ["/tmp/some value"], value: "/tmp/some value" };
  }
}

/** Extra items an option needs to be accepted alone. */
const NEEDS: Record<string, string[]> = { "--socket-mode": ["--socket-path", "/tmp/proxy.sock"] };

function expectError(argv: string[], rule: string, message: string, variant: "new" | "v2" = "new") {
  assert.throws(() => parseArgs(argv, { variant }), (e: unknown) => {
    assert.ok(e instanceof CommandLineError, String(e));
    assert.equal(e.rule, rule);
    assert.equal(e.exitCode, 1);
    assert.ok(
      e.text.includes(message),
      `${JSON.stringify(e.text)} lacks ${JSON.stringify(message)}`,
    );
    return true;
  });
}

for (const row of ROWS) {
  Deno.test(`${row.id}: ${row.long} parses its ${row.arg} argument`, () => {
    const s = sample(row);
    const o = parseArgs([row.long, ...s.argv, ...(NEEDS[row.long] ?? [])]) as unknown as Record<
      string,
      unknown
    >;
    if (row.long === "--concurrency") assert.equal(o.concurrency, 7);
    else assert.deepEqual(o[optionKey(row)], s.value);
    if (row.short) {
      const o2 = parseArgs([row.short, ...s.argv]) as unknown as Record<string, unknown>;
      assert.deepEqual(o2[optionKey(row)], s.value);
    }
  });

  Deno.test(`${row.id}: ${row.long} has its default when absent`, () => {
    for (const variant of ["new", "v2"] as const) {
      const o = parseArgs([], { variant }) as unknown as Record<string, unknown>;
      const d = variant === "v2" && row.defaultV2 !== undefined ? row.defaultV2 : row.default;
      const got = o[optionKey(row)];
      if (row.long === "--concurrency") assert.equal(got, hardwareThreads());
      else if (row.arg === "octal") assert.equal(got, parseInt(String(d), 8));
      else if (row.arg === "list") assert.deepEqual(got, []);
      else assert.equal(got, d, `${row.long} (${variant})`);
    }
  });

  if (row.variant === "new") {
    Deno.test(`${row.id}: ${row.long} is an unknown option in the v2 variant`, () => {
      expectError(
        [row.long, ...sample(row).argv],
        "cli.constraints.new-option-in-v2",
        "Couldn't find match for argument",
        "v2",
      );
    });
  }
}

Deno.test("cli.options.concurrency: 0 runs one worker in the newer variant and stays 0 in v2", () => {
  assert.equal(parseArgs(["--concurrency", "0"]).concurrency, 1);
  assert.equal(parseArgs(["--concurrency", "0"], { variant: "v2" }).concurrency, 0);
});

Deno.test("cli.options.log-format: the default differs between the variants", () => {
  assert.equal(parseArgs([]).log_format, "[%Y-%m-%d %T.%e][%t][%l][%n] [%g:%#] %v");
  assert.equal(parseArgs([], { variant: "v2" }).log_format, "[%Y-%m-%d %T.%e][%t][%l][%n] %v");
});

Deno.test("cli.options.allow-unknown-fields: alias of --allow-unknown-static-fields with a deprecation warning", () => {
  const r = parseCommandLine(["--allow-unknown-fields"]);
  assert.equal(r.options.allow_unknown_static_fields, true);
  assert.ok(r.warnings.some((w) => w.includes("--allow-unknown-fields is deprecated")));
  const v2 = parseCommandLine(["--allow-unknown-fields"], { variant: "v2" });
  assert.equal(v2.options.allow_unknown_static_fields, true);
  assert.deepEqual(v2.warnings, []);
});

/** One command line per constraint row (a row without a case does not compile). */
const CASES: Record<ConstraintId, { argv: string[]; message: string; variant?: "new" | "v2" }> = {
  "config-required": {
    argv: [],
    message: "At least one of --config-path or --config-yaml should be non-empty",
  },
  "unknown-option": {
    argv: ["--bogus-flag"],
    message: "PARSE ERROR: Argument: --bogus-flag\n             Couldn't find match for argument",
  },
  "new-option-in-v2": {
    argv: ["--drain-strategy", "gradual"],
    message: "Couldn't find match for argument",
    variant: "v2",
  },
  "repeated-option": {
    argv: ["-c", "a.yaml", "--config-path", "b.yaml"],
    message: "Argument: -c (--config-path)\n             Argument already set!",
  },
  "missing-value": { argv: ["--concurrency"], message: "Missing a value for this argument!" },
  "bad-integer": {
    argv: ["--concurrency", "2x"],
    message: "Couldn't read argument value from string '2x'",
  },
  "log-level": { argv: ["-l", "verbose"], message: "error: invalid log level specified 'verbose'" },
  "component-format": {
    argv: ["--component-log-level", "upstream"],
    message: "error: component log level not correctly specified 'upstream'",
  },
  "component-level": {
    argv: ["--component-log-level", "upstream:loud"],
    message: "error: invalid log level specified 'loud'",
  },
  "component-unknown": {
    argv: ["--component-log-level", "nothing:debug"],
    message: "error: invalid component specified 'nothing'",
  },
  "mode": { argv: ["--mode", "check"], message: "error: unknown mode 'check'" },
  "ip-version": {
    argv: ["--local-address-ip-version", "v5"],
    message: "error: unknown IP address version 'v5'",
  },
  "dynamic-base-id-epoch": {
    argv: ["--use-dynamic-base-id", "--restart-epoch", "2"],
    message: "error: cannot use --restart-epoch=2 with --use-dynamic-base-id",
  },
  "socket-mode-octal": {
    argv: ["--socket-path", "/tmp/s", "--socket-mode", "89"],
    message: "error: invalid socket-mode '89'",
  },
  "socket-mode-abstract": {
    argv: ["--socket-path", "@abstract", "--socket-mode", "644"],
    message: "error: --socket-mode is not allowed",
  },
  "drain-strategy": {
    argv: ["--drain-strategy", "slow"],
    message: "error: unknown drain-strategy 'slow'",
  },
  "bootstrap-version": {
    argv: ["--bootstrap-version", "4"],
    message: "error: unknown bootstrap version '4'",
  },
  "ignore-with-reject": {
    argv: ["--ignore-unknown-dynamic-fields", "--reject-unknown-dynamic-fields"],
    message: "has no effect",
  },
  "allow-unknown-fields-deprecated": {
    argv: ["--allow-unknown-fields"],
    message: "--allow-unknown-fields is deprecated, use --allow-unknown-static-fields instead.",
  },
  "concurrency-with-cpuset": {
    argv: ["--concurrency", "2", "--cpuset-threads"],
    message: "Both --concurrency and --cpuset-threads options are set",
  },
  "disabled-extension": {
    argv: [
      "-c",
      "fixtures/bootstrap/valid_v3.yaml",
      "--disable-extensions",
      "envoy.filters.network/envoy.tcp_proxy",
    ],
    message:
      "extension 'proxy.filters.network.tcp_proxy' (proxy.filters.network/proxy.filters.network.tcp_proxy) is disabled by --disable-extensions",
  },
  "disable-extensions-unknown": {
    argv: ["--disable-extensions", "proxy.filters.http/proxy.filters.http.lua"],
    message: "failed to disable unknown extension 'proxy.filters.http/proxy.filters.http.lua'",
  },
  "disable-extensions-invalid": {
    argv: ["--disable-extensions", "router"],
    message: "failed to disable invalid extension name 'router'",
  },
}; // deno-fmt-ignore

for (const row of OPTION_CONSTRAINTS) {
  const id = row.id.slice("cli.constraints.".length) as ConstraintId;
  const c = CASES[id];
  const severity = "severity" in row ? row.severity : "error";
  Deno.test(`${row.id}: ${severity === "warning" ? "warns" : "is rejected with exit code 1"}: ${row.message}`, () => {
    if (id === "config-required") {
      assert.throws(() => requireConfig(parseArgs(c.argv)), (e: unknown) => {
        assert.ok(e instanceof CommandLineError);
        assert.equal(e.exitCode, 1);
        assert.ok(e.text.includes(c.message));
        return true;
      });
      requireConfig(parseArgs(["--config-yaml", "{}"]));
    } else if (id === "disabled-extension") {
      // Accepted by the parser; the bootstrap that uses the extension fails to load.
      const errors = loadBootstrap(parseArgs(c.argv)).errors;
      assert.deepEqual(errors.map((e) => [e.rule, e.message]), [[row.id, c.message]]);
    } else if (severity === "warning") {
      const r = parseCommandLine(c.argv, { variant: c.variant });
      assert.ok(r.warnings.some((w) => w.includes(c.message)), JSON.stringify(r.warnings));
    } else expectError(c.argv, row.id, c.message, c.variant);
  });
}

Deno.test("cli.constraints.socket-mode-abstract: also rejected when --socket-path is unset", () => {
  expectError(
    ["--socket-mode", "644"],
    "cli.constraints.socket-mode-abstract",
    "--socket-mode is not allowed",
  );
});

Deno.test("cli.constraints.bad-integer: negative, fractional and too large numbers are rejected", () => {
  for (const v of ["-1", "1.5", "4294967296", "x", ""]) {
    expectError(
      ["--concurrency", v],
      "cli.constraints.bad-integer",
      `Couldn't read argument value from string '${v}'`,
    );
  }
});

Deno.test("cli.constraints.unknown-option: a stray positional argument is rejected; '' and '-' are ignored", () => {
  expectError(["stray"], "cli.constraints.unknown-option", "Argument: stray");
  assert.equal(parseArgs(["", "-", "-c", "x.yaml"]).config_path, "x.yaml");
  assert.equal(parseArgs(["-c", "x.yaml", "--", "--bogus"]).config_path, "x.yaml");
});

Deno.test("cli.options.concurrency: a flag and its value in one argv item are accepted, as TCLAP does", () => {
  assert.equal(parseArgs(["--concurrency 2"]).concurrency, 2);
  assert.equal(parseArgs(["--service-node a=b"]).service_node, "a=b");
  expectError(
    ["--concurrency 2 3"],
    "cli.constraints.bad-integer",
    "Couldn't read argument value from string '2 3'",
  );
});

Deno.test("cli.constraints.missing-value: a value that looks like a flag is still the value", () => {
  assert.equal(parseArgs(["--service-node", "-c"]).service_node, "-c");
});

Deno.test("cli.constraints.unknown-option: -h and --help are built in", () => {
  assert.equal(parseCommandLine(["-h"]).help, true);
  assert.equal(parseCommandLine(["--help", "-l", "nonsense"]).help, true);
});

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

/** Valid argv groups: one per option (sample value), --socket-mode with its socket path. */
const GROUPS: string[][] = ROWS.filter((r) => r.long !== "--socket-path" && r.long !== "--version")
  .map((r) =>
    r.long === "--restart-epoch" // epoch 0: compatible with --use-dynamic-base-id
      ? [r.long, "0"]
      : [r.long, ...sample(r).argv, ...(NEEDS[r.long] ?? [])]
  );

Deno.test("cli.options: any permutation of valid options parses to the same Options", () => {
  fc.assert(
    fc.property(fc.shuffledSubarray(GROUPS), (groups) => {
      const sorted = [...groups].sort((a, b) => a[0].localeCompare(b[0]));
      assert.deepEqual(parseArgs(groups.flat()), parseArgs(sorted.flat()));
    }),
    { numRuns: 200 },
  );
});

/** A value generator per value-taking row. */
function valueArb(row: OptionRow): fc.Arbitrary<string> {
  if (row.choices) return fc.constantFrom(...row.choices);
  switch (row.arg) {
    case "integer":
      return row.long === "--bootstrap-version"
        ? fc.constantFrom("2", "3")
        : fc.integer({ min: 0, max: 4294967295 }).map(String);
    case "level":
      return fc.constantFrom(
        "trace",
        "debug",
        "info",
        "warning",
        "warn",
        "error",
        "critical",
        "off",
      );
    case "component-levels":
      return fc.constantFrom("", "upstream:debug", "admin:info,router:trace");
    case "octal":
      return fc.integer({ min: 0, max: 0o777 }).map((n) => n.toString(8));
    default:
      return fc.string();
  }
}

Deno.test("cli.options: --x=v parses the same as --x v", () => {
  const rows = ROWS.filter((r) => r.arg !== "none");
  fc.assert(
    fc.property(
      fc.constantFrom(...rows).chain((r) => fc.tuple(fc.constant(r), valueArb(r))),
      ([row, v]) => {
        const extra = NEEDS[row.long] ?? [];
        assert.deepEqual(
          parseArgs([`${row.long}=${v}`, ...extra]),
          parseArgs([row.long, v, ...extra]),
        );
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("cli.constraints.unknown-option: unknown options are always rejected", () => {
  const known = new Set<string>([
    "--help",
    "-h",
    "--",
    "--ignore_rest",
    ...ROWS.flatMap((r) => [r.long, r.short ?? ""]),
  ]);
  const name = fc.stringMatching(/^--?[a-z][a-z0-9_-]{0,20}$/).filter((n) => !known.has(n));
  fc.assert(
    fc.property(
      name,
      fc.option(fc.string()),
      fc.constantFrom("new" as const, "v2" as const),
      (n, v, variant) => {
        const token = v === null ? n : `${n}=${v}`;
        assert.throws(() => parseArgs(["-c", "x.yaml", token], { variant }), (e: unknown) => {
          assert.ok(e instanceof CommandLineError);
          assert.ok(
            ["cli.constraints.unknown-option", "cli.constraints.new-option-in-v2"].includes(e.rule),
          );
          assert.ok(e.text.startsWith(`PARSE ERROR: Argument: ${token}\n`));
          return true;
        });
      },
    ),
    { numRuns: 300 },
  );
});
