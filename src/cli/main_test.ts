import assert from "node:assert/strict";

const ROOT = new URL("../../", import.meta.url).pathname;
const MOD = ROOT + "mod.ts";
const FIX = "fixtures/bootstrap/";

async function run(args: string[], env: Record<string, string> = {}) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", MOD, ...args],
    cwd: ROOT,
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test("errors.validate-ok: --mode validate with a valid configuration prints OK and exits 0, binding nothing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const files = ["valid_v2.yaml", "valid_v3.yaml", "valid.json", "valid.pb", "valid.pb_text"];
    // Independent processes: they run side by side.
    const runs = await Promise.all(
      files.map((f) =>
        run(["--mode", "validate", "-c", FIX + f, "--admin-address-path", `${dir}/admin`])
      ),
    );
    for (const [i, f] of files.entries()) {
      const r = runs[i];
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, `configuration '${FIX + f}' OK\n`);
    }
    // The admin address file is written only once the admin listener is bound: never in validate mode.
    await assert.rejects(() => Deno.stat(`${dir}/admin`), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("errors.validate-errors: --mode validate with configuration errors prints them and exits 1", async () => {
  const cases: [string, RegExp][] = [
    [
      "unknown_field.yaml",
      /static_resources\.listeners\[0\]\.foo: unknown field \[errors\.unknown-static-fields\]/,
    ],
    ["bad_duration.yaml", /stats_flush_interval: invalid duration/],
    ["bad_cluster.yaml", /static_resources\.clusters\[0\]\.lb_policy/],
    ["undescribed.pb", /envoy\.api\.v2\.auth\.UpstreamTlsContext is not described/],
  ];
  const runs = await Promise.all(cases.map(([f]) => run(["--mode", "validate", "-c", FIX + f])));
  for (const [i, [f, re]] of cases.entries()) {
    const r = runs[i];
    assert.equal(r.code, 1, f);
    assert.equal(r.stdout, "");
    assert.match(
      r.stderr,
      new RegExp(`\\[critical\\]\\[main\\] .*error initializing configuration '${FIX + f}': `),
    );
    assert.match(r.stderr, re);
  }
});

Deno.test("cli.options.allow-unknown-static-fields: the flag turns the unknown field into a warning", async () => {
  const r = await run([
    "--mode",
    "validate",
    "-c",
    FIX + "unknown_field.yaml",
    "--allow-unknown-static-fields",
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /\[warning\]\[config\].*static_resources\.listeners\[0\]\.foo/);
});

Deno.test("cli.options.config-yaml: validate with --config-yaml only prints an empty path", async () => {
  const r = await run(["--mode", "validate", "--config-yaml", "admin: {profile_path: /tmp/p}"]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, "configuration '' OK\n");
});

Deno.test("cli.options.mode: init_only loads, validates and exits 0", async () => {
  const r = await run(["--mode", "init_only", "-c", FIX + "valid_v2.yaml"]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, "");
});

Deno.test("cli.options.version, versioning.version-string: --version prints to stdout and exits 0", async () => {
  const [r, debug] = await Promise.all([
    run(["--version"]),
    run(["--version"], { PROXYSPEC_DEBUG: "1" }),
  ]);
  assert.equal(r.code, 0);
  assert.match(
    r.stdout,
    /^\nproxy {2}version: [0-9a-f]{40}\/\d+\.\d+\.\d+[^/]*\/(Clean|Modified)\/(RELEASE|DEBUG)\/rustls\n\n$/,
  );
  assert.match(debug.stdout, /\/DEBUG\/rustls\n\n$/);
});

Deno.test("cli.options.hot-restart-version, versioning.hot-restart-version: printed to stderr without newline, exit 0", async () => {
  const [r, d] = await Promise.all([
    run(["--hot-restart-version"]),
    run(["--hot-restart-version", "--disable-hot-restart"]),
  ]);
  assert.equal(r.code, 0);
  assert.equal(r.stdout, "");
  assert.match(r.stderr, /^\d+\.\d+$/);
  assert.equal(d.stderr, "disabled");
});

Deno.test("cli.constraints.unknown-option: a parse error goes to stderr with a usage summary, exit 1", async () => {
  const r = await run(["--bogus-flag"]);
  assert.equal(r.code, 1);
  assert.equal(r.stdout, "");
  assert.match(
    r.stderr,
    /^PARSE ERROR: Argument: --bogus-flag\n {13}Couldn't find match for argument\n\nBrief USAGE: \n {3}proxy {2}\[/,
  );
  assert.match(r.stderr, /--bogus-flag -- Couldn't find match for argument\n$/);
});

Deno.test("cli.constraints.config-required: no configuration is exit 1", async () => {
  const r = await run([]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /At least one of --config-path or --config-yaml should be non-empty/);
});

Deno.test("cli.constraints.new-option-in-v2: PROXYSPEC_VARIANT=v2 selects the older option set", async () => {
  const [r, bad] = await Promise.all([
    run(["--drain-strategy", "gradual", "-c", "x.yaml"], { PROXYSPEC_VARIANT: "v2" }),
    run(["--version"], { PROXYSPEC_VARIANT: "v9" }),
  ]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /Argument: --drain-strategy/);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /PROXYSPEC_VARIANT must be 'new' or 'v2'/);
});

Deno.test("cli.options.log-level: --help prints the usage generated from the table and exits 0", async () => {
  const r = await run(["--help"]);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /-c <string>, {2}--config-path <string>/);
  assert.match(r.stdout, /PROXYSPEC_VARIANT=v2/);
});
