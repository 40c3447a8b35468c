/**
 * Fuzz target `bootstrap`: mutated bootstrap files through the loader and the whole validator,
 * in process, exactly as `--mode validate` runs them (`loadBootstrap`, then
 * `checkConfiguration`). Seeds are the bootstrap fixtures in YAML, JSON, binary proto and text
 * proto; a mutation either changes bytes (flip, insert, delete, duplicate, truncate) or changes
 * structure (a value at a random path replaced by a value of another kind, a key dropped or
 * renamed, a list element repeated, deep nesting) before the value is written back in the seed's
 * format. Expectations: nothing throws, and every error says where it is (a field path, or for a
 * file that cannot be read a line, column or byte offset).
 *
 * @module
 */
import fc from "fast-check";
// @ts-types="@types/js-yaml"
import yaml from "js-yaml";
import { loadBootstrap } from "../../src/config/bootstrap.ts";
import { parseArgs } from "../../src/config/args.ts";
import type { ConfigError } from "../../src/config/errors.ts";
import type { Json, JsonObject } from "../../src/config/bootstrap_types.ts";
import { checkConfiguration } from "../../src/server/full_configuration_check.ts";
import { BOOTSTRAP } from "../../src/config/bootstrap_schema.ts";
import { encodeBinary, encodeText } from "../../fixtures/bootstrap/make_pb.ts";
import { type FuzzFailure, type FuzzReport, type FuzzTarget, recordFailure } from "./target.ts";
import { PROTOBUF } from "../../src/config/protobuf_module.ts";

// .pb and .pb_text inputs decode with the protobuf runtime, which the command line loads first.
await PROTOBUF.load();

const FIXTURES = new URL("../../fixtures/", import.meta.url);
const SEED_FILES = [
  "bootstrap/valid_v3.yaml",
  "bootstrap/valid_v2.yaml",
  "bootstrap/clusters.yaml",
  "bootstrap/valid.json",
  "bootstrap/valid.pb",
  "bootstrap/clusters.pb",
  "bootstrap/valid.pb_text",
  "bootstrap/clusters.pb_text",
  "default.yaml",
];

interface Seed {
  name: string;
  ext: string;
  bytes: Uint8Array;
  /** The value of a YAML or JSON seed (structure mutations use it). */
  value?: JsonObject;
}

function loadSeeds(): Seed[] {
  return SEED_FILES.map((name) => {
    const bytes = Deno.readFileSync(new URL(name, FIXTURES));
    const ext = name.slice(name.lastIndexOf(".") + 1);
    const text = new TextDecoder().decode(bytes);
    const value = ext === "yaml"
      ? yaml.load(text) as JsonObject
      : ext === "json"
      ? JSON.parse(text) as JsonObject
      : undefined;
    return { name, ext, bytes, value };
  });
}

/** A location an error may give instead of a field path. */
const LOCATED =
  /\(\d+:\d+\)|line \d+|at byte \d+|at position \d+|must be an object|^(?:[^\s"[]+|\[(?:\d+|"(?:[^"\\]|\\.)*")\])+: /;

/**
 * Whether an error says where it is: a field path, or (for an error about the file as a whole)
 * a place in the file.
 */
export function errorIsLocated(e: ConfigError, file: string): boolean {
  if (e.path === "") return false;
  if (e.path !== file) return true;
  return LOCATED.test(e.message) || /no such file/.test(e.message);
}

/** Values of odd kinds and shapes that a structure mutation puts at a random place. */
export const odd: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>(
    null,
    "",
    "NaN",
    "Infinity",
    "-1",
    "1e400",
    "18446744073709551616",
    "5s",
    "-5s",
    "ROUND_ROBBIN",
    "*",
    "(a+)+$",
    "127.0.0.1",
    "::1",
    true,
    0,
    -1,
    4294967296,
    1.5,
    [],
    {},
  ),
  fc.string({ maxLength: 12 }),
  fc.integer(),
  fc.double(),
  fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
);

/** One structure mutation of a JSON value. */
export type Edit =
  | { kind: "set"; pick: number; value: Json }
  | { kind: "drop"; pick: number }
  | { kind: "rename"; pick: number; name: string }
  | { kind: "repeat"; pick: number }
  | { kind: "nest"; pick: number; depth: number };

/** A random structure mutation. */
export const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant("set" as const), pick: fc.nat(), value: odd }),
  fc.record({ kind: fc.constant("drop" as const), pick: fc.nat() }),
  fc.record({
    kind: fc.constant("rename" as const),
    pick: fc.nat(),
    name: fc.constantFrom("bogus", "@type", "typed_config", "name", "cluster", "hosts"),
  }),
  fc.record({ kind: fc.constant("repeat" as const), pick: fc.nat() }),
  fc.record({
    kind: fc.constant("nest" as const),
    pick: fc.nat(),
    depth: fc.integer({ min: 50, max: 300 }),
  }),
);

type Slot = { holder: JsonObject | Json[]; key: string | number };

function slots(v: Json, out: Slot[] = [], depth = 0): Slot[] {
  if (depth > 30) return out;
  if (Array.isArray(v)) {
    v.forEach((c, i) => {
      out.push({ holder: v, key: i });
      slots(c, out, depth + 1);
    });
  } else if (v !== null && typeof v === "object") {
    for (const [k, c] of Object.entries(v)) {
      out.push({ holder: v, key: k });
      slots(c, out, depth + 1);
    }
  }
  return out;
}

/** Applies `edits` to a copy of `value`. */
export function applyEdits(value: JsonObject, edits: Edit[]): JsonObject {
  const root = structuredClone(value);
  const ordered = [
    ...edits.filter((e) => e.kind !== "nest"),
    ...edits.filter((e) => e.kind === "nest"),
  ];
  for (const e of ordered) {
    const all = slots(root);
    if (all.length === 0) break;
    const s = all[e.pick % all.length];
    const h = s.holder as Record<string | number, Json>;
    if (e.kind === "set") h[s.key] = e.value;
    else if (e.kind === "drop") {
      if (Array.isArray(s.holder)) s.holder.splice(s.key as number, 1);
      else delete h[s.key];
    } else if (e.kind === "rename" && !Array.isArray(s.holder)) {
      h[e.name] = h[s.key];
      delete h[s.key];
    } else if (e.kind === "repeat" && Array.isArray(s.holder)) {
      s.holder.push(structuredClone(s.holder[s.key as number]));
    } else if (e.kind === "nest") {
      let v: Json = h[s.key];
      for (let i = 0; i < e.depth; i++) v = { fields: { a: { struct_value: v } } } as Json;
      h[s.key] = v;
    }
  }
  return root;
}

/** One byte-level mutation. */
export type ByteOp = {
  at: number;
  op: "flip" | "insert" | "delete" | "dup" | "truncate";
  byte: number;
};

/** Applies byte-level mutations to a copy of `bytes`. */
export function mutateBytes(bytes: Uint8Array, ops: ByteOp[]): Uint8Array {
  const b = Array.from(bytes);
  for (const m of ops) {
    const at = b.length === 0 ? 0 : m.at % b.length;
    if (m.op === "flip") b[at] = m.byte;
    else if (m.op === "insert") b.splice(at, 0, m.byte);
    else if (m.op === "delete") b.splice(at, 1);
    else if (m.op === "dup") b.splice(at, 0, ...b.slice(at, at + 16));
    else b.length = at;
  }
  return Uint8Array.from(b);
}

/** One to four random byte-level mutations. */
export const byteOps = fc.array(
  fc.record({
    at: fc.nat(),
    op: fc.constantFrom("flip", "insert", "delete", "dup", "truncate") as fc.Arbitrary<
      ByteOp["op"]
    >,
    byte: fc.oneof(
      fc.constantFrom(0x0a, 0x20, 0x3a, 0x7b, 0x7d, 0x22, 0x2d, 0x26, 0x2a, 0x80, 0xff, 0x00),
      fc.integer({ min: 0, max: 255 }),
    ),
  }),
  { minLength: 1, maxLength: 4 },
);

const input = fc.record({
  seed: fc.nat(),
  structural: fc.boolean(),
  edits: fc.array(edit, { minLength: 1, maxLength: 3 }),
  ops: byteOps,
  as: fc.constantFrom("same", "yaml", "json", "pb", "pb_text"),
});

function encode(value: JsonObject, ext: string): Uint8Array {
  if (ext === "json") return new TextEncoder().encode(JSON.stringify(value));
  if (ext === "pb") return encodeBinary(value, BOOTSTRAP);
  if (ext === "pb_text") return new TextEncoder().encode(encodeText(value, BOOTSTRAP));
  return new TextEncoder().encode(yaml.dump(value, { noRefs: true }));
}

async function run(runs: number, seed: number): Promise<FuzzReport> {
  const seeds = loadSeeds();
  const dir = await Deno.makeTempDir({ prefix: "proxyspec-fuzz-" });
  const failures: FuzzFailure[] = [];
  let total = 0, uncaught = 0, unlocated = 0, accepted = 0, refused = 0;
  try {
    await fc.assert(
      fc.asyncProperty(input, async (i) => {
        const s = seeds[i.seed % seeds.length];
        let ext = s.ext;
        let bytes: Uint8Array;
        if (i.structural && s.value) {
          const value = applyEdits(s.value, i.edits);
          ext = i.as === "same" ? s.ext : i.as;
          // Deep values only as JSON or text proto: the YAML and binary writers of the test
          // fixtures take seconds on them (the readers do not).
          if (i.edits.some((e) => e.kind === "nest") && ext !== "pb_text") ext = "json";
          try {
            bytes = encode(value, ext);
          } catch {
            try {
              ext = "json";
              bytes = encode(value, ext);
            } catch {
              return true; // not writable in any format
            }
          }
        } else bytes = mutateBytes(s.bytes, i.ops);
        const file = `${dir}/bootstrap.${ext}`;
        await Deno.writeFile(file, bytes);
        total++;
        const shown = `${s.name} as .${ext}: ${
          JSON.stringify(new TextDecoder().decode(bytes.subarray(0, 600)))
        }`;
        try {
          const options = parseArgs(["-c", file]);
          const load = loadBootstrap(options);
          let errors = load.errors;
          if (errors.length === 0) errors = checkConfiguration(options, load.bootstrap).errors;
          if (errors.length === 0) accepted++;
          else refused++;
          const bad = errors.find((e) => !errorIsLocated(e, file));
          if (bad) {
            unlocated++;
            recordFailure(
              failures,
              shown,
              new Error(`error without a location: ${bad.path}: ${bad.message}`),
            );
          }
        } catch (e) {
          uncaught++;
          recordFailure(failures, shown, e);
        }
        return true;
      }),
      { seed, numRuns: runs, endOnFailure: true },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  return {
    target: "bootstrap",
    runs,
    seed,
    figures: {
      "mutated bootstraps": total,
      uncaught,
      "errors without a location": unlocated,
      accepted,
      refused,
    },
    failures,
  };
}

/** The `bootstrap` fuzz target. */
export const BOOTSTRAP_TARGET: FuzzTarget = {
  describe: "mutated YAML, JSON, .pb and .pb_text bootstraps through the loader and validator",
  run,
};
