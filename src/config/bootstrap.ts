/**
 * Bootstrap loading: reads `--config-path` (`.yaml`/`.yml` as YAML, `.pb` as binary proto3,
 * `.pb_text` as text proto3, anything else as JSON), merges `--config-yaml` over it, checks the
 * described messages for unknown fields and bad values, picks the API version (`--bootstrap-version`,
 * or v2 first and then v3), rejects extensions disabled by `--disable-extensions`, upgrades v2
 * to the internal form, and applies `--service-cluster`,
 * `--service-node` and `--service-zone`. Clusters are checked by `validate_cluster.ts`, listener
 * contents by the proxy core.
 *
 * Nothing here throws on bad input: every problem comes back in `errors`, with its path.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadBootstrap } from "./bootstrap.ts";
 * import { parseArgs } from "./args.ts";
 * const r = loadBootstrap(parseArgs(["--config-yaml", "admin: {profile_path: /tmp/p}"]));
 * assert.deepEqual(r.errors, []);
 * ```
 * @module
 */
import type { Options } from "./options.ts";
import type { Bootstrap, Json, JsonObject } from "./bootstrap_types.ts";
import type { ConfigError } from "./errors.ts";
import { BOOTSTRAP } from "./bootstrap_schema.ts";
import { checkBootstrap } from "./bootstrap_check.ts";
import { upgradeV2 } from "./bootstrap_upgrade.ts";
import { disabledExtensionErrors, parseDisabledExtensions } from "./bootstrap_extensions.ts";
import { mergeProto3Json } from "./merge.ts";
import { decodeBinary, ProtoDecodeError } from "./proto_binary.ts";
import { decodeText } from "./proto_text.ts";
import { PROTOBUF } from "./protobuf_module.ts";
import { isJsonObject as isObj } from "./values.ts";
import { allowsUnknownStaticFields } from "./args.ts";
import { loadYamlBounded } from "./yaml_limits.ts";
import { parseJsonLocated } from "./json_location.ts";

/** What {@linkcode loadBootstrap} returns. */
export interface BootstrapLoad {
  /** The internal (v3-shaped) bootstrap; `{}` when there are errors. */
  bootstrap: Bootstrap;
  /** The bootstrap as read and merged, before checks and upgrade. */
  original: JsonObject;
  /** The API version it was loaded as; `null` when loading failed. */
  version: 2 | 3 | null;
  errors: ConfigError[];
  /** Lines to log at warning level (one per accepted unknown field). */
  warnings: string[];
  /** Paths of accepted unknown static fields: add their count to `server.static_unknown_fields`. */
  unknownFields: string[];
}

/**
 * Which reader a config path uses, by suffix (case-insensitive).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatOf } from "./bootstrap.ts";
 * assert.equal(formatOf("bootstrap.YML"), "yaml");
 * ```
 */
export function formatOf(path: string): "yaml" | "json" | "pb" | "pb_text" {
  const p = path.toLowerCase();
  if (p.endsWith(".pb")) return "pb";
  if (p.endsWith(".pb_text")) return "pb_text";
  if (p.endsWith(".yaml") || p.endsWith(".yml")) return "yaml";
  return "json";
}

function parseYaml(text: string): Json {
  return loadYamlBounded(text) as Json;
}

/**
 * The bytes of the file at `path`, read into one buffer of the file's size (`Deno.readFileSync`
 * grows its buffer as it reads, then copies it: at 5 MB that is a third of the read's time). Any
 * failure is left to `Deno.readFileSync`, which fails as it did (same error, same message).
 */
function readWholeFile(path: string): Uint8Array {
  let file: Deno.FsFile | undefined;
  try {
    file = Deno.openSync(path);
    // One byte more than the size, so that the read that finds the end needs no new buffer.
    let buf = new Uint8Array(file.statSync().size + 1);
    let n = 0;
    for (;;) {
      if (n === buf.length) {
        const bigger = new Uint8Array(buf.length * 2);
        bigger.set(buf);
        buf = bigger;
      }
      const got = file.readSync(buf.subarray(n));
      if (got === null) break;
      n += got;
    }
    return buf.subarray(0, n);
  } catch {
    return Deno.readFileSync(path);
  } finally {
    file?.close();
  }
}

function readConfigFile(path: string): Json {
  const format = formatOf(path);
  const bytes = readWholeFile(path);
  // What the spec tables do not describe, the Envoy descriptor set does (proto_library.ts).
  if (format === "pb") {
    const pb = PROTOBUF.get();
    return withLibrary(() => decodeBinary(bytes, BOOTSTRAP), () => pb.decodeBootstrapBinary(bytes));
  }
  const text = new TextDecoder().decode(bytes);
  if (format === "pb_text") {
    const pb = PROTOBUF.get();
    return withLibrary(() => decodeText(text, BOOTSTRAP), () => pb.decodeBootstrapText(text));
  }
  if (format === "yaml") return parseYaml(text) ?? {};
  return parseJsonLocated(text) as Json;
}

/**
 * The spec tables' decoder first; input it cannot take is tried with the Envoy descriptor set,
 * and when that fails too the tables' error (which says where) stands.
 */
function withLibrary(tables: () => Json, library: () => Json): Json {
  try {
    return tables();
  } catch (e) {
    try {
      return library();
    } catch {
      throw e;
    }
  }
}

function describe(e: unknown): string {
  if (e instanceof ProtoDecodeError) return e.path ? `${e.path}: ${e.message}` : e.message;
  if (e instanceof Deno.errors.NotFound) return "no such file";
  if (e instanceof Error) {
    return e.message.split("\n")[0].replace(/^Unexpected token/, "invalid JSON: unexpected token");
  }
  return String(e);
}

/**
 * Applies `--service-cluster`, `--service-node` and `--service-zone` to `node`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { applyNodeOverrides } from "./bootstrap.ts";
 * import { parseArgs } from "./args.ts";
 * assert.deepEqual(
 *   applyNodeOverrides({}, parseArgs(["--service-node", "n1"])),
 *   { node: { id: "n1" } },
 * );
 * ```
 */
export function applyNodeOverrides(b: JsonObject, o: Options): JsonObject {
  if (!o.service_cluster && !o.service_node && !o.service_zone) return b;
  const node: JsonObject = isObj(b.node) ? { ...b.node } : {};
  if (o.service_cluster) node.cluster = o.service_cluster;
  if (o.service_node) node.id = o.service_node;
  if (o.service_zone) {
    node.locality = { ...(isObj(node.locality) ? node.locality : {}), zone: o.service_zone };
  }
  return { ...b, node };
}

interface Attempt {
  version: 2 | 3;
  value: JsonObject;
  errors: ConfigError[];
  unknown: string[];
}

function attempt(raw: Json, version: 2 | 3, allowUnknown: boolean): Attempt {
  const unknown: string[] = [];
  const r = checkBootstrap(raw, { version, allowUnknown, onUnknown: (p) => unknown.push(p) });
  return { version, value: r.value, errors: r.errors, unknown };
}

/**
 * Loads the bootstrap named by the command line; never throws on bad input.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadBootstrap } from "./bootstrap.ts";
 * import { parseArgs } from "./args.ts";
 * const { bootstrap, errors } = loadBootstrap(parseArgs(["--config-yaml", "node: {id: n1}"]));
 * assert.deepEqual(errors, []);
 * assert.deepEqual(bootstrap.node, { id: "n1" });
 * ```
 */
export function loadBootstrap(options: Options): BootstrapLoad {
  const fail = (errors: ConfigError[], original: JsonObject = {}): BootstrapLoad => ({
    bootstrap: {},
    original,
    version: null,
    errors,
    warnings: [],
    unknownFields: [],
  });
  if (options.config_path === "" && options.config_yaml === "") {
    return fail([{
      path: "(command line)",
      rule: "cli.constraints.config-required",
      message: "At least one of --config-path or --config-yaml should be non-empty",
    }]);
  }
  let raw: Json = {};
  if (options.config_path !== "") {
    try {
      raw = readConfigFile(options.config_path);
    } catch (e) {
      return fail([{
        path: options.config_path,
        rule: "cli.options.config-path",
        message: describe(e),
      }]);
    }
    if (!isObj(raw)) {
      return fail([{
        path: options.config_path,
        rule: "cli.options.config-path",
        message: `the bootstrap must be an object, got ${
          raw === null ? "null" : Array.isArray(raw) ? "a list" : typeof raw
        }`,
      }]);
    }
  }
  if (options.config_yaml !== "") {
    let over: Json;
    try {
      over = parseYaml(options.config_yaml) ?? {};
    } catch (e) {
      return fail([{
        path: "--config-yaml",
        rule: "cli.options.config-yaml",
        message: describe(e),
      }]);
    }
    if (!isObj(over)) {
      return fail([{
        path: "--config-yaml",
        rule: "cli.options.config-yaml",
        message: "the bootstrap must be an object",
      }]);
    }
    raw = mergeProto3Json(raw, over);
  }
  const original = raw as JsonObject;
  const allowUnknown = allowsUnknownStaticFields(options);
  const requested = options.variant === "v2" ? 2 : options.bootstrap_version;
  let chosen: Attempt;
  if (requested === 2 || requested === 3) chosen = attempt(raw, requested, allowUnknown);
  else {
    const v2 = attempt(raw, 2, allowUnknown);
    chosen = v2;
    if (v2.errors.length > 0) {
      const v3 = attempt(raw, 3, allowUnknown);
      if (v3.errors.length < v2.errors.length) chosen = v3;
    }
  }
  if (chosen.errors.length > 0) return fail(chosen.errors, original);
  // --disable-extensions (its warnings are the command line's, logged at start-up).
  const { disabled } = parseDisabledExtensions(options.disable_extensions);
  const extensionErrors = disabledExtensionErrors(chosen.value, disabled);
  if (extensionErrors.length > 0) return fail(extensionErrors, original);
  const upgraded = chosen.version === 2 ? upgradeV2(chosen.value) : chosen.value;
  const bootstrap = applyNodeOverrides(upgraded, options) as Bootstrap;
  const unknownFields = [...new Set(chosen.unknown)];
  const flag = options.allow_unknown_static_fields
    ? "--allow-unknown-static-fields"
    : "--allow-unknown-fields";
  return {
    bootstrap,
    original,
    version: chosen.version,
    errors: [],
    warnings: unknownFields.map((p) =>
      `unknown field '${p}' in static configuration accepted (${flag})`
    ),
    unknownFields,
  };
}
