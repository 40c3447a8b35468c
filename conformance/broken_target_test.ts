/**
 * Proof that the suite can fail: it runs against deliberately broken targets (an HTTP server that
 * answers 200 `ok` to everything, a "binary" that exits 0 whatever it is given) and must report
 * the right failures, with exit code 1.
 */
import assert from "node:assert/strict";
import { runConformance } from "./cli.ts";
import { FAKE_VERSION_PRINT, QUIET as quiet, runForReport } from "./testing.ts";

/** What a server answering 200 `ok` to everything fails (the first is selected as `admin.mutation.*`). */
const FAILING = [
  "admin.mutation.get-returns-400",
  "admin.endpoints.ready",
  "admin.endpoints.server_info",
  "admin.endpoints.stats-format-json",
  "admin.general.unknown-path-404",
  "admin.general.nosniff",
  "admin.resources.server_info.version",
  "admin.states.server-live-ready",
];

Deno.test(
  "admin.mutation.get-returns-400, admin.endpoints.ready, admin.endpoints.server_info: a server answering 200 ok to everything fails them",
  async () => {
    const ac = new AbortController();
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, signal: ac.signal, onListen: () => {} },
      () => new Response("ok"),
    );
    const dir = await Deno.makeTempDir({ prefix: "broken-target-" });
    try {
      const { code, results: r } = await runForReport(
        [
          "--base-url",
          `http://127.0.0.1:${server.addr.port}`,
          "--seed",
          "7",
          "--num-runs",
          "3",
          "admin.mutation.*",
          ...FAILING.slice(1),
        ],
        dir,
        "json,junit",
      );
      assert.equal(code, 1, "a broken target must fail the run");
      for (const id of FAILING) {
        assert.equal(r.get(id)?.status, "FAIL", `${id}: ${JSON.stringify(r.get(id))}`);
      }
      assert.match(r.get("admin.mutation.get-returns-400")!.message, /expected HTTP 400, got 200/);
      assert.match(r.get("admin.endpoints.ready")!.message, /Content-Type|server state/);
      const xml = await Deno.readTextFile(`${dir}/junit.xml`);
      assert.match(xml, /name="admin\.mutation\.get-returns-400"[^>]*>\s*<failure/);

      // --update-expectations records the failures; the next run then matches them (exit 0).
      const exp = `${dir}/broken.yaml`;
      await Deno.writeTextFile(exp, "[]\n");
      const base = ["--base-url", `http://127.0.0.1:${server.addr.port}`, "--seed", "7"];
      const sel = ["admin.mutation.*", "admin.endpoints.ready"];
      assert.equal(
        await runConformance(
          [...base, "--expectations", exp, "--update-expectations", ...sel],
          quiet,
        ),
        0,
      );
      assert.match(
        await Deno.readTextFile(exp),
        /rule: admin\.mutation\.get-returns-400\n\s+status: FAIL/,
      );
      assert.equal(await runConformance([...base, "--expectations", exp, ...sel], quiet), 0);
    } finally {
      ac.abort();
      await server.finished;
      await Deno.remove(dir, { recursive: true });
    }
  },
);

Deno.test(
  "cluster.enums.lb-policy, cli.constraints.mode, errors.validate-errors: a binary that accepts everything fails them",
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "broken-command-" });
    try {
      const fake = `${dir}/fake.ts`;
      await Deno.writeTextFile(
        fake,
        `${FAKE_VERSION_PRINT}\n`,
      );
      const { code, results: r } = await runForReport([
        "--command",
        `${Deno.execPath()} run -A ${fake}`,
        "--seed",
        "7",
        "--num-runs",
        "2",
        "cluster.enums.lb-policy",
        "cluster.fields.lb-policy",
        "cli.constraints.mode",
        "errors.validate-errors",
      ], dir);
      assert.equal(code, 1);
      for (
        const id of ["cluster.enums.lb-policy", "cli.constraints.mode", "errors.validate-errors"]
      ) {
        assert.equal(r.get(id)?.status, "FAIL", `${id}: ${JSON.stringify(r.get(id))}`);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);
