/**
 * The write-or-check step of the generators in `tools/`: without `--check` the file is
 * (re)written; with it, a file that differs from what the tables give is reported as stale
 * (exit code 1) so `deno task ok` catches a table changed without regenerating.
 *
 * @example Not run: it writes (or checks) a file in the repository and exits the process.
 * ```ts ignore
 * import { writeOrCheck } from "./generated_file.ts";
 * import { SPEC_DOC_URL, toSpecMarkdown } from "./spec_doc.ts";
 * const md = toSpecMarkdown();
 * const named = { name: "docs/SPEC.md", task: "spec:doc", summary: "" };
 * Deno.exit(writeOrCheck(SPEC_DOC_URL, md, named));
 * ```
 * @module
 */

/** How a generated file is named in messages. */
export interface GeneratedFile {
  /** Its path as people know it (`docs/SPEC.md`). */
  name: string;
  /** The `deno task` that writes it. */
  task: string;
  /** What the written file holds, for the `wrote ...` line. */
  summary: string;
}

/**
 * Writes `text` to `url` (creating the folder), or with `--check` in `args` compares them.
 *
 * @returns the exit code: 1 when checking found the file stale or missing, else 0
 */
export function writeOrCheck(
  url: URL,
  text: string,
  file: GeneratedFile,
  args: readonly string[] = Deno.args,
): number {
  if (args.includes("--check")) {
    let old = "";
    try {
      old = Deno.readTextFileSync(url);
    } catch { /* absent: stale */ }
    if (old !== text) {
      console.error(`${file.name} is stale: run \`deno task ${file.task}\``);
      return 1;
    }
    console.log(`${file.name} is up to date`);
    return 0;
  }
  Deno.mkdirSync(new URL(".", url), { recursive: true });
  Deno.writeTextFileSync(url, text);
  console.log(`wrote ${file.name} (${file.summary})`);
  return 0;
}
