/**
 * The runner's command line. Both `--flag value` and `--flag=value` are accepted; anything that
 * does not start with `--` is a rule-ID selector.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseRunnerArgs } from "./args.ts";
 * const a = parseRunnerArgs(["--base-url", "http://127.0.0.1:9901", "admin.endpoints.*"]);
 * assert.deepEqual(a.selectors, ["admin.endpoints.*"]);
 * ```
 * @module
 */
import type { ProfileName } from "./profile.ts";

/** Report formats the runner writes. */
export type ReportFormat = "text" | "json" | "junit" | "md" | "html";

/** Parsed runner arguments. */
export interface RunnerArgs {
  baseUrl: string | null;
  command: string | null;
  variant: "new" | "v2";
  profile: ProfileName;
  seed: number;
  numRuns: number;
  timeoutMs: number;
  destructive: boolean;
  /** A not-checked rule that the expectations file does not list is a failure. */
  strict: boolean;
  /** How many independent read-only cases run at once. */
  concurrency: number;
  expectations: string | null;
  updateExpectations: boolean;
  reports: ReportFormat[];
  reportDir: string;
  list: boolean;
  help: boolean;
  selectors: string[];
}

/** A usage error: the runner prints it with the usage text and exits 2. */
export class UsageError extends Error {
  /** @param message what is wrong */
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** The usage text. */
export const USAGE = `Usage: deno task conformance -- [options] [SELECTOR...]

Runs the proxyspec conformance suite against an implementation.

Targets (either or both):
  --base-url URL          the admin interface to test (e.g. http://127.0.0.1:9901)
  --command "CMD ARGS"    the binary, for command-line and configuration rules

Options:
  --variant new|v2        the option set the target implements (default new)
  --profile seed|envoy    visible names: proxy.* (seed, default) or envoy.* (real Envoy)
  --seed N                seed of the property tests (default: random, printed)
  --num-runs N            runs per property test (default 20)
  --timeout MS            longest a case may take (default 30000)
  --destructive           also run /quitquitquit and full /drain_listeners (last)
  --strict                a rule not checked (NOT_APPLICABLE, NOT_RUN) that FILE does not list
                          fails the run (internal rules excepted)
  --concurrency N         independent read-only cases run at once (default 8)
  --expectations FILE     expected non-passing results (conformance/expectations/<impl>.yaml)
  --update-expectations   rewrite FILE from this run's results
  --report LIST           text,json,junit,md,html (default text)
  --report-dir DIR        where report files go (default reports/conformance)
  --list                  print what would run, and why the rest would not, then exit
  -h, --help              this text

SELECTOR is a rule-ID glob such as 'admin.endpoints.*' or 'cli.options.mode'.
Statuses: PASS, FAIL, ERROR, TIMEOUT (the rule was checked), NOT_APPLICABLE (it does not apply
to this target: a feature or fixture it lacks), NOT_RUN (not checked by this run: internal rule,
no case yet, no --base-url/--command/--destructive). The totals say how many were checked.
Exit status: 0 every result matched its expectation; 1 some did not; 2 usage or connection
error, or a selector that matches no rule.`;

const VALUE_FLAGS = new Set([
  "--base-url",
  "--command",
  "--variant",
  "--profile",
  "--seed",
  "--num-runs",
  "--timeout",
  "--concurrency",
  "--expectations",
  "--report",
  "--report-dir",
]);

function int(name: string, v: string, min: number): number {
  if (!/^\d+$/.test(v) || Number(v) < min || !Number.isSafeInteger(Number(v))) {
    throw new UsageError(`${name}: expected a whole number of at least ${min}, got '${v}'`);
  }
  return Number(v);
}

/**
 * Parses the runner's arguments.
 *
 * @param argv the arguments after the script name
 * @returns the parsed arguments
 * @throws {UsageError} on anything malformed
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseRunnerArgs } from "./args.ts";
 * assert.equal(parseRunnerArgs(["--command", "envoy", "--seed=3"]).seed, 3);
 * ```
 */
export function parseRunnerArgs(argv: readonly string[]): RunnerArgs {
  const a: RunnerArgs = {
    baseUrl: null,
    command: null,
    variant: "new",
    profile: "seed",
    seed: Math.floor(Math.random() * 2 ** 31),
    numRuns: 20,
    timeoutMs: 30_000,
    destructive: false,
    strict: false,
    concurrency: 8,
    expectations: null,
    updateExpectations: false,
    reports: ["text"],
    reportDir: "reports/conformance",
    list: false,
    help: false,
    selectors: [],
  };
  const seen = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    let arg = argv[i];
    let value: string | undefined;
    if (arg === "--") continue;
    if (arg.startsWith("--") && arg.includes("=")) {
      value = arg.slice(arg.indexOf("=") + 1);
      arg = arg.slice(0, arg.indexOf("="));
    }
    if (!arg.startsWith("-")) {
      a.selectors.push(arg);
      continue;
    }
    if (VALUE_FLAGS.has(arg)) {
      if (value === undefined) {
        if (i + 1 >= argv.length) throw new UsageError(`${arg}: missing value`);
        value = argv[++i];
      }
      if (seen.has(arg)) throw new UsageError(`${arg}: given twice`);
      seen.add(arg);
    } else if (value !== undefined) {
      throw new UsageError(`${arg}: takes no value`);
    }
    switch (arg) {
      case "--base-url": {
        let u: URL;
        try {
          u = new URL(value!);
        } catch {
          throw new UsageError(`--base-url: not a URL: '${value}'`);
        }
        if (u.protocol !== "http:" && u.protocol !== "https:") {
          throw new UsageError(`--base-url: expected an http or https URL, got '${value}'`);
        }
        a.baseUrl = value!;
        break;
      }
      case "--command":
        if (value!.trim() === "") throw new UsageError("--command: empty command");
        a.command = value!;
        break;
      case "--variant":
        if (value !== "new" && value !== "v2") {
          throw new UsageError(`--variant: expected new or v2, got '${value}'`);
        }
        a.variant = value;
        break;
      case "--profile":
        if (value !== "seed" && value !== "envoy") {
          throw new UsageError(`--profile: expected seed or envoy, got '${value}'`);
        }
        a.profile = value;
        break;
      case "--seed":
        a.seed = int(arg, value!, 0);
        break;
      case "--num-runs":
        a.numRuns = int(arg, value!, 1);
        break;
      case "--timeout":
        a.timeoutMs = int(arg, value!, 1);
        break;
      case "--expectations":
        a.expectations = value!;
        break;
      case "--report-dir":
        a.reportDir = value!;
        break;
      case "--report": {
        const list = value!.split(",").map((s) => s.trim()).filter((s) => s !== "");
        const ok = ["text", "json", "junit", "md", "html"];
        for (const f of list) {
          if (!ok.includes(f)) {
            throw new UsageError(`--report: unknown format '${f}' (one of ${ok.join(", ")})`);
          }
        }
        if (list.length === 0) throw new UsageError("--report: no format given");
        a.reports = list as ReportFormat[];
        break;
      }
      case "--destructive":
        a.destructive = true;
        break;
      case "--strict":
        a.strict = true;
        break;
      case "--concurrency":
        a.concurrency = int(arg, value!, 1);
        break;
      case "--update-expectations":
        a.updateExpectations = true;
        break;
      case "--list":
        a.list = true;
        break;
      case "-h":
      case "--help":
        a.help = true;
        break;
      default:
        throw new UsageError(`unknown option '${arg}'`);
    }
  }
  if (a.updateExpectations && a.expectations === null) {
    throw new UsageError("--update-expectations needs --expectations FILE");
  }
  if (!a.help && !a.list && a.baseUrl === null && a.command === null) {
    throw new UsageError("give --base-url, --command, or both");
  }
  return a;
}
