import assert from "node:assert/strict";
import { loadYamlBounded, YAML_LIMITS, YamlAliasLimitError } from "./yaml_limits.ts";
import { loadBootstrap } from "./bootstrap.ts";
import { parseArgs } from "./args.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const BOMB = "fixtures/bootstrap/alias_bomb.yaml";

Deno.test("YAML aliases within the limits load as shared values", () => {
  const v = loadYamlBounded("t: &t {a: 1, b: [x, y]}\nu: *t\nv: [*t, *t]\n") as Record<
    string,
    unknown
  >;
  assert.deepEqual(v.u, { a: 1, b: ["x", "y"] });
  assert.deepEqual(v.v, [v.t, v.t]);
});

Deno.test("YAML alias expansion over the size limit is a load error naming the alias and its place", () => {
  const text = "a: &a [x, x, x, x]\nb: &b [*a, *a, *a, *a]\nc: &c [*b, *b, *b, *b]\n";
  assert.doesNotThrow(() => loadYamlBounded(text, { maxExpansion: 1000 }));
  assert.throws(
    () => loadYamlBounded(text, { maxExpansion: 30 }),
    (e) =>
      e instanceof YamlAliasLimitError && /^alias \*b \(3:\d+\): .*expansion limit/.test(e.message),
  );
});

Deno.test("YAML alias count over the limit is a load error", () => {
  const text = "a: &a 1\nl: [" + Array(20).fill("*a").join(", ") + "]\n";
  assert.throws(
    () => loadYamlBounded(text, { maxAliases: 10 }),
    /alias \*a \(2:\d+\): more than 10 aliases/,
  );
  assert.equal(YAML_LIMITS.maxAliases, 10_000);
});

Deno.test("an alias of a long string counts for its length", () => {
  const text = `s: &s "${"x".repeat(6400)}"\nl: [*s, *s, *s]\n`;
  assert.throws(() => loadYamlBounded(text, { maxExpansion: 250 }), YamlAliasLimitError);
});

Deno.test("a 600-byte billion-laughs bomb in node.metadata is a load error with its location", () => {
  const size = Deno.statSync(ROOT + BOMB).size;
  assert.ok(size < 700, `${size} bytes`);
  const r = loadBootstrap(parseArgs(["-c", ROOT + BOMB]));
  assert.equal(r.errors.length, 1);
  assert.match(r.errors[0].message, /alias \*[a-j] \(\d+:\d+\): .*YAML alias expansion limit/);
});

async function run(args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", ROOT + "mod.ts", ...args],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
}

Deno.test("the alias bomb is refused by --mode validate and by serve alike, exit 1", async () => {
  const modes = ["validate", "serve"];
  const runs = await Promise.all(modes.map((mode) => run(["--mode", mode, "-c", BOMB])));
  for (const [i, mode] of modes.entries()) {
    const r = runs[i];
    assert.equal(r.code, 1, `${mode}: ${r.stderr}`);
    assert.match(r.stderr, /alias \*[a-j] \(\d+:\d+\)/);
  }
});
