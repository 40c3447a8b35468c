/**
 * Cases for `cli.log_format`: one `--mode validate` run on an invalid bootstrap (so the binary
 * logs its critical "error initializing configuration" line) with a `--log-format` that wraps
 * every flag of every row in a marker; each row then checks what its flags rendered to. The
 * expected forms below restate the meaning column of the specification's flag table as patterns.
 *
 * @example
 * ```ts
 * import { allRules } from "../../spec/mod.ts";
 * import { logFormatCases } from "./log_format.ts";
 * const cases = logFormatCases({ rules: allRules(), variant: "new" });
 * ```
 * @module
 */
import { LOG_FLAGS } from "../../spec/mod.ts";
import type { LogFlagRow } from "../../spec/mod.ts";
import { NotApplicable } from "../types.ts";
import type { Case, CaseContext } from "../types.ts";
import type { CommandResult } from "../command_client.ts";
import { baseCluster, writeBootstrap } from "./bootstrap_files.ts";
import { existing, expect } from "./util.ts";
import type { BuildInput } from "./util.ts";

const DAYS = "Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday";
const MONTHS = "January|February|March|April|May|June|July|August|September|October|November|" +
  "December";
const H24 = "(?:[01]\\d|2[0-3])";
const H12 = "(?:0[1-9]|1[0-2])";
const MS = "[0-5]\\d";

/** What each flag renders to, as a full-match pattern. */
const PATTERNS: Record<string, string> = {
  "%v": "[\\s\\S]+",
  "%_": "[^\\n]+",
  "%t": "\\d+",
  "%P": "\\d+",
  "%n": "\\S+",
  "%l": "trace|debug|info|warning|error|critical|off",
  "%L": "[TDIWECO]",
  "%a": DAYS.split("|").map((d) => d.slice(0, 3)).join("|"),
  "%A": DAYS,
  "%b": MONTHS.split("|").map((m) => m.slice(0, 3)).join("|"),
  "%B": MONTHS,
  "%c": `.*\\d.*${H24}:${MS}:${MS}.*`,
  "%C": "\\d{2}",
  "%Y": "\\d{4}",
  "%D": "\\d{2}/\\d{2}/\\d{2}",
  "%x": "\\d{2}/\\d{2}/\\d{2}",
  "%m": "0[1-9]|1[0-2]",
  "%d": "0[1-9]|[12]\\d|3[01]",
  "%H": H24,
  "%I": H12,
  "%M": MS,
  "%S": "[0-5]\\d|60",
  "%e": "\\d{3}",
  "%f": "\\d{6}",
  "%F": "\\d{9}",
  "%p": "AM|PM",
  "%r": `${H12}:${MS}:${MS} (?:AM|PM)`,
  "%R": `${H24}:${MS}`,
  "%T": `${H24}:${MS}:${MS}`,
  "%X": `${H24}:${MS}:${MS}`,
  "%z": "[+-]\\d{2}:\\d{2}",
  "%%": "%",
  "%@": "\\S+:\\d+",
  "%s": "[^/\\s]+",
  "%g": "\\S+",
  "%#": "\\d+",
  "%!": "\\S*",
};

/** Checks `%j`: the text is the body of a JSON string. */
function jsonEscaped(s: string): boolean {
  try {
    return typeof JSON.parse(`"${s}"`) === "string" && s !== "";
  } catch {
    return false;
  }
}

const memo = new Map<string, Promise<CommandResult>>();

/** The rendered text of each `row.flag` marker, from one memoised run. */
async function rendered(
  ctx: CaseContext,
  rows: readonly LogFlagRow[],
): Promise<Map<string, string>> {
  const format = rows.flatMap((r, i) => r.flags.map((f, j) => `<<${i}.${j}|${f}|>>`)).join("");
  const key = `${ctx.command.key}|${ctx.variant}|${format}`;
  let p = memo.get(key);
  if (!p) {
    p = (async () => {
      const file = await writeBootstrap(ctx, {
        static_resources: { clusters: [{ ...baseCluster(), lb_policy: "CONFORMANCE_BOGUS" }] },
      });
      return await ctx.command.run(["--mode", "validate", "-c", file, "--log-format", format]);
    })();
    memo.set(key, p);
    p.catch(() => memo.delete(key));
  }
  const r = await p;
  ctx.command.log.push(r.line);
  const out = new Map<string, string>();
  for (const m of (r.stderr + r.stdout).matchAll(/<<(\d+)\.(\d+)\|([\s\S]*?)\|>>/g)) {
    if (!out.has(`${m[1]}.${m[2]}`)) out.set(`${m[1]}.${m[2]}`, m[3]);
  }
  if (out.size === 0) {
    throw new NotApplicable("the binary logged no line in the given --log-format on a bad config");
  }
  return out;
}

/**
 * Builds one case per log-format row.
 *
 * @param input every rule and the variant
 * @returns the cases
 */
export function logFormatCases(input: BuildInput): Case[] {
  const rows = (LOG_FLAGS as readonly LogFlagRow[]).filter((r) =>
    input.variant === "new" || r.variant === "both"
  );
  return rows.map((row, i): Case => ({
    id: `log-format:${row.id}`,
    title: row.statement,
    rules: existing(input.rules, row.id),
    target: "command",
    phase: "read",
    run: async (ctx) => {
      const got = await rendered(ctx, rows);
      row.flags.forEach((flag, j) => {
        const text = got.get(`${i}.${j}`);
        expect(text !== undefined, `${flag} left no rendered marker in the log line`);
        const ok = flag === "%j"
          ? jsonEscaped(text)
          : new RegExp(`^(?:${PATTERNS[flag] ?? "[\\s\\S]*"})$`).test(text);
        expect(ok, `${flag} rendered ${JSON.stringify(text)}`);
      });
    },
  })).filter((c) => c.rules.length > 0);
}
