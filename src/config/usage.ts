/**
 * Usage text generated from the `cli.options` table: a brief one-line summary (printed with
 * parse errors) and the full `--help` text, in the style of Envoy's (TCLAP) output.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { usage } from "./usage.ts";
 * assert.ok(usage("proxy").startsWith("\nUSAGE: \n\n   proxy [-c <string>] "));
 * ```
 * @module
 */
import { OPTIONS } from "../../spec/cli/options.ts";
import type { OptionRow, Variant } from "../../spec/rule.ts";

/** The environment variable that selects the older option set (`v2`). */
export const VARIANT_ENV = "PROXYSPEC_VARIANT";

function rowsOf(variant: Variant): readonly OptionRow[] {
  return (OPTIONS as readonly OptionRow[]).filter((r) => variant === "new" || r.variant === "both");
}

/**
 * The value label of an argument kind, as in the usage line (`<uint32_t>`, `<string>`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { argLabel } from "./usage.ts";
 * import { OPTIONS } from "../../spec/cli/options.ts";
 * assert.equal(argLabel(OPTIONS[0]), "<string>");
 * ```
 */
export function argLabel(row: OptionRow): string {
  if (row.arg === "none") return "";
  return row.arg === "integer" ? "<uint32_t>" : "<string>";
}

/** Wraps words into lines of at most `width` characters, each starting with `indent`. */
function wrap(text: string, indent: string, split: RegExp = /\s+/, width = 100): string[] {
  const lines: string[] = [];
  let line = indent;
  for (const word of text.split(split).filter((w) => w !== "")) {
    if (line.length > indent.length && line.length + 1 + word.length > width) {
      lines.push(line);
      line = indent;
    }
    line += (line.length > indent.length ? " " : "") + word;
  }
  if (line.length > indent.length) lines.push(line);
  return lines;
}

function synopsis(row: OptionRow): string {
  const label = argLabel(row);
  const name = row.short ?? row.long;
  return label ? `[${name} ${label}]` : `[${name}]`;
}

/**
 * The one-line usage summary: `<argv0>  [--opt <type>] ... [--] [--version] [-h]`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { briefUsage } from "./usage.ts";
 * // "proxy  [-c <string>] [--config-yaml <string>] ... [--] [--version] [-h]"
 * assert.ok(briefUsage("proxy").startsWith("proxy  [-c <string>] [--config-yaml <string>] "));
 * assert.ok(briefUsage("proxy").endsWith(" [--] [--version] [-h]"));
 * ```
 */
export function briefUsage(argv0 = "proxy", variant: Variant = "new"): string {
  const parts = rowsOf(variant).filter((r) => r.long !== "--version").map(synopsis);
  return `${argv0}  ${parts.join(" ")} [--] [--version] [-h]`;
}

/**
 * The full `--help` text (stdout, exit 0), generated from the option rows.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { usage } from "./usage.ts";
 * assert.equal(usage("proxy", "v2").includes("--drain-strategy"), false);
 * ```
 */
export function usage(argv0 = "proxy", variant: Variant = "new"): string {
  const lines = [
    "",
    "USAGE: ",
    "",
    ...wrap(briefUsage(argv0, variant), "   ", / +(?=\[)/),
    "",
    "",
    "Where: ",
    "",
  ];
  for (const row of rowsOf(variant)) {
    const names = row.short
      ? `${row.short} ${argLabel(row)},  ${row.long} ${argLabel(row)}`
      : `${row.long} ${argLabel(row)}`;
    lines.push(`   ${names.trimEnd()}`);
    const def = variant === "v2" && row.defaultV2 !== undefined ? row.defaultV2 : row.default;
    const meaning = variant === "v2" && row.meaningV2 ? row.meaningV2 : row.statement;
    let text = meaning;
    if (row.choices) text += ` One of: ${row.choices.join(", ")}.`;
    if (def !== null && def !== "" && def !== false) text += ` Default: ${def}.`;
    lines.push(...wrap(text, "     "), "");
  }
  lines.push(
    "   --,  --ignore_rest",
    "     Ignores the rest of the labeled arguments following this flag.",
    "",
  );
  lines.push("   --version", "     Displays version information and exits.", "");
  lines.push("   -h,  --help", "     Displays usage information and exits.", "");
  lines.push(
    ...wrap(
      `Environment: ${VARIANT_ENV}=v2 selects the older option set (options marked (new) are then unknown); PROXYSPEC_DEBUG=1 reports a DEBUG build in --version.`,
      "   ",
    ),
    "",
    `   ${argv0}`,
    "",
  );
  return lines.join("\n");
}
