import assert from "node:assert/strict";
// @ts-types="@types/js-yaml"
import yaml from "js-yaml";
import fc from "fast-check";
import { NOT_SUBSET, readBlockSubset } from "./yaml_block_subset.ts";

/**
 * The reader's one promise: for any text it either declines or gives what `js-yaml` gives
 * (same value, same key order), and it never accepts a text `js-yaml` refuses.
 */
function agrees(text: string, schema: yaml.Schema = yaml.CORE_SCHEMA): boolean {
  const got = readBlockSubset(text, schema);
  if (got === NOT_SUBSET) return true;
  let want: unknown;
  try {
    want = yaml.load(text, { schema });
  } catch (e) {
    throw new Error(`accepted a text js-yaml refuses (${(e as Error).message}):\n${text}`);
  }
  assert.deepEqual(got, want, text);
  assert.deepEqual(JSON.stringify(got), JSON.stringify(want), text);
  return true;
}

Deno.test("yaml block subset: reads a bootstrap of block mappings and sequences as js-yaml does", () => {
  const text = [
    "# a comment",
    "admin:",
    "  address:",
    "    socket_address: {address: 1}".replace(" {address: 1}", ""),
    "      address: 127.0.0.1   # trailing comment",
    "      port_value: 9901",
    "static_resources:",
    "  clusters:",
    "  - name: a",
    "    connect_timeout: 0.25s",
    "    '@type': 'x y'",
    '    "k": "v#w"',
    "    hosts: []",
    "    meta: {}",
    "    weights:",
    "      - 1",
    "      - -2.5e3",
    "      - 0x1F",
    "      - ~",
    "      -",
    "      - true",
    "      - .inf",
    "      - null",
    "      - url: http://a.b/c#d",
    "        n: 1",
    "  -   name: b",
    "      empty:",
    "  - plain text",
    "1: one",
    "true: yes",
  ].join("\n");
  assert(readBlockSubset(text, yaml.CORE_SCHEMA) !== NOT_SUBSET);
  agrees(text);
  agrees(text, yaml.JSON_SCHEMA);
});

Deno.test("yaml block subset: declines what it does not read, so js-yaml answers", () => {
  for (
    const text of [
      "",
      "# only a comment\n",
      "a: &x 1\nb: *x\n",
      "a: !!str 1\n",
      "a: |\n  text\n",
      "a: >\n  text\n",
      "a: [1, 2]\n",
      "a: {b: 1}\n",
      "a: b\n  c\n",
      "a: 'it''s'\n",
      'a: "x\\ty"\n',
      "a: 1\na: 2\n",
      "--- \na: 1\n",
      "%YAML 1.2\n---\na: 1\n",
      "a: 1\n---\nb: 2\n",
      "a:\tb\n",
      "a: b\r\n",
      "  a: 1\n",
      "- - a\n",
      "a: b: c\n",
      "a: 1\n- b\n",
      "__proto__: 1\n",
      "? a\n: b\n",
      "a:\n  b\n",
      "'a: 1\n",
      "a: 'b\n",
    ]
  ) {
    assert.deepEqual(readBlockSubset(text, yaml.CORE_SCHEMA), NOT_SUBSET, JSON.stringify(text));
  }
});

/** Scalars chosen to meet the implicit types and the indicators at their edges. */
const TRICKY = [
  "null",
  "Null",
  "~",
  "true",
  "False",
  "yes",
  "1",
  "-1",
  "+1",
  "0x1f",
  "0o17",
  "017",
  "1_000",
  "1.5",
  ".5",
  "1e3",
  "-.inf",
  ".NaN",
  "0.25s",
  "a b",
  "a:b",
  "a #b",
  "a# b",
  "-",
  "- a",
  "?",
  ":",
  "a:",
  "'",
  '"',
  "''",
  "#",
  "&a",
  "*a",
  "!a",
  "|",
  ">",
  "%",
  "@",
  "`",
  "[",
  "]",
  "{",
  "}",
  ",",
  "",
  " ",
  " a",
  "a ",
  "-a",
  "---",
  "...",
  "http://x:1/y",
  "é",
  "__proto__",
  "<<",
];

const scalar = fc.oneof(
  fc.constantFrom(...TRICKY),
  fc.string({ maxLength: 6 }),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.boolean(),
  fc.constant(null),
);
const key = fc.oneof(fc.constantFrom(...TRICKY), fc.string({ maxLength: 5 }));
const { tree } = fc.letrec((tie) => ({
  tree: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    scalar,
    fc.array(tie("tree"), { maxLength: 4 }),
    fc.dictionary(key, tie("tree"), { maxKeys: 4 }),
  ),
}));

Deno.test("yaml block subset: agrees with js-yaml on js-yaml's own dumps", () => {
  fc.assert(
    fc.property(
      tree,
      fc.record({
        indent: fc.constantFrom(1, 2, 4),
        noArrayIndent: fc.boolean(),
        flowLevel: fc.constantFrom(-1, 1, 2),
      }),
      (value, options) => {
        const text = yaml.dump({ root: value }, { ...options, schema: yaml.CORE_SCHEMA });
        return agrees(text);
      },
    ),
    { numRuns: 2000 },
  );
});

Deno.test("yaml block subset: never accepts what js-yaml refuses or reads otherwise (mutated texts)", () => {
  const base = yaml.dump({
    a: { b: [1, "x", { c: null, d: "0.25s" }], e: "" },
    f: [[], {}, "'q'"],
  });
  const pieces = fc.constantFrom(
    " ",
    "  ",
    "\n",
    "-",
    "- ",
    ":",
    ": ",
    "#",
    " #",
    "'",
    '"',
    "{}",
    "[]",
    "a",
    "1",
    "&",
    "*",
    "|",
    "\n  ",
    "\n- ",
  );
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.nat(), fc.nat(3), pieces), { minLength: 1, maxLength: 4 }),
      (edits) => {
        let text = base;
        for (const [at, drop, piece] of edits) {
          const i = at % (text.length + 1);
          text = text.slice(0, i) + piece + text.slice(i + drop);
        }
        return agrees(text);
      },
    ),
    { numRuns: 5000 },
  );
});
