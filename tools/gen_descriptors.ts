/**
 * `deno task proto:gen`: builds `spec/proto/envoy.binpb`, the protobuf descriptor set of Envoy's
 * v3 API that the proxy loads at run time (`src/config/proto_registry.ts`). The `.proto` files
 * are the ones `@grpc/grpc-js-xds` ships (`deps/envoy-api`, `deps/xds`, `deps/googleapis`,
 * `deps/protoc-gen-validate`); the `buf` binary comes from the `@bufbuild/buf` npm package. Both
 * are installed with `npm` into `node_modules/.cache/proxyspec-protogen` at the pinned versions
 * below. The bundled `validate/validate.proto` predates the Envoy protos that use it, so
 * `StringRules.ignore_empty` (field 26, as upstream protoc-gen-validate numbers it) is added
 * to the copy that is built. Files that import protos the package does not ship (OpenCensus,
 * OpenTelemetry, metrics and trace services) are left out; v2 files are left out (incomplete).
 *
 * Usage: `deno run -A tools/gen_descriptors.ts [--check]`; `--check` rebuilds into memory and
 * exits 1 when the committed file differs (buf's output is deterministic).
 *
 * @example Not run: it installs npm packages and runs buf.
 * ```ts ignore
 * import { buildDescriptorSet } from "./gen_descriptors.ts";
 * const bytes = await buildDescriptorSet();
 * console.log(bytes.length);
 * ```
 * @module
 */
import { join } from "node:path";

/** The pinned sources. */
export const PROTO_PACKAGES = {
  xds: "@grpc/grpc-js-xds@1.14.1",
  buf: "@bufbuild/buf@1.75.0",
} as const;

/** Where the descriptor set is written. */
export const DESCRIPTORS_URL = new URL("../spec/proto/envoy.binpb", import.meta.url);

/** Files (relative to `deps/envoy-api`) that import protos the npm package does not ship. */
const LEFT_OUT = [
  /opencensus/,
  /^envoy\/config\/trace\/v3\/trace\.proto$/,
  /^envoy\/service\/trace\/v3\//,
  /^envoy\/service\/metrics\/v3\//,
  /open_telemetry\/v3\/logs_service\.proto$/,
];

const CACHE = new URL("../node_modules/.cache/proxyspec-protogen/", import.meta.url).pathname;

async function run(cmd: string, args: string[], cwd: string): Promise<void> {
  const out = await new Deno.Command(cmd, { args, cwd, stdout: "piped", stderr: "piped" })
    .output();
  if (!out.success) {
    const err = new TextDecoder().decode(out.stderr) + new TextDecoder().decode(out.stdout);
    throw new Error(`${cmd} ${args.slice(0, 3).join(" ")} ... failed:\n${err.slice(0, 4000)}`);
  }
}

function exists(p: string): boolean {
  try {
    Deno.statSync(p);
    return true;
  } catch {
    return false;
  }
}

/** Installs the pinned packages into the cache folder (once). */
async function install(): Promise<{ deps: string; buf: string }> {
  const stamp = join(CACHE, "installed.txt");
  const want = `${PROTO_PACKAGES.xds} ${PROTO_PACKAGES.buf}`;
  const deps = join(CACHE, "node_modules/@grpc/grpc-js-xds/deps");
  const buf = join(CACHE, "node_modules/.bin/buf");
  if (!exists(stamp) || Deno.readTextFileSync(stamp) !== want || !exists(buf)) {
    Deno.mkdirSync(CACHE, { recursive: true });
    await run("npm", [
      "install",
      "--no-save",
      "--no-audit",
      "--no-fund",
      "--ignore-scripts",
      "--prefix",
      CACHE,
      PROTO_PACKAGES.xds,
      PROTO_PACKAGES.buf,
    ], CACHE);
    Deno.writeTextFileSync(stamp, want);
  }
  return { deps, buf };
}

function* walk(dir: string, rel = ""): Generator<string> {
  for (const e of Deno.readDirSync(join(dir, rel))) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory) yield* walk(dir, p);
    else if (e.name.endsWith(".proto")) yield p;
  }
}

/** Builds the descriptor set and returns its bytes. */
export async function buildDescriptorSet(): Promise<Uint8Array> {
  const { deps, buf } = await install();
  const work = await Deno.makeTempDir({ prefix: "protogen-" });
  try {
    for (const d of ["envoy-api", "googleapis", "xds", "protoc-gen-validate"]) {
      await run("cp", ["-r", join(deps, d), join(work, d)], work);
    }
    const validate = join(work, "protoc-gen-validate/validate/validate.proto");
    const text = Deno.readTextFileSync(validate);
    const strings = text.slice(text.indexOf("message StringRules {"));
    if (!/ignore_empty/.test(strings.slice(0, strings.search(/\n\}/)))) {
      Deno.writeTextFileSync(
        validate,
        text.replace(
          /^message StringRules \{\r?\n/m,
          (m) => `${m}    optional bool ignore_empty = 26;\n`,
        ),
      );
    }
    Deno.removeSync(join(work, "protoc-gen-validate/tests"), { recursive: true });
    Deno.removeSync(join(work, "protoc-gen-validate/java"), { recursive: true });
    Deno.writeTextFileSync(
      join(work, "buf.yaml"),
      "version: v2\nmodules:\n  - path: envoy-api\n  - path: googleapis\n  - path: xds\n" +
        "  - path: protoc-gen-validate\n",
    );
    const files = [...walk(join(work, "envoy-api"))]
      .filter((f) => /\/v3\//.test(f) && !LEFT_OUT.some((r) => r.test(f)))
      .sort();
    const out = join(work, "out.binpb");
    await run(buf, [
      "build",
      "--exclude-source-info",
      "-o",
      out,
      ...files.flatMap((f) => ["--path", `envoy-api/${f}`]),
    ], work);
    return Deno.readFileSync(out);
  } finally {
    Deno.removeSync(work, { recursive: true });
  }
}

if (import.meta.main) {
  const bytes = await buildDescriptorSet();
  if (Deno.args.includes("--check")) {
    let old = new Uint8Array();
    try {
      old = Deno.readFileSync(DESCRIPTORS_URL);
    } catch { /* absent: stale */ }
    const same = old.length === bytes.length && old.every((b, i) => b === bytes[i]);
    if (!same) {
      console.error("spec/proto/envoy.binpb is stale: run `deno task proto:gen`");
      Deno.exit(1);
    }
    console.log("spec/proto/envoy.binpb is up to date");
  } else {
    Deno.mkdirSync(new URL(".", DESCRIPTORS_URL), { recursive: true });
    Deno.writeFileSync(DESCRIPTORS_URL, bytes);
    console.log(`wrote spec/proto/envoy.binpb (${bytes.length} bytes)`);
  }
}
