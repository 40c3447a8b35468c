import assert from "node:assert/strict";
import { hotRestartVersion, versionOutput, versionString } from "./version.ts";

/** The reference's regex for Envoy's --version output (PART 1, §1.5). */
const VERSION_RE =
  /^\n\S+ {2}version: [0-9a-f]{40}\/\d+\.\d+\.\d+[^/]*\/(Clean|Modified)\/(RELEASE|DEBUG)\/[^/\s]+\n\n$/;

Deno.test("cli.options.version: the output matches Envoy's five-part format", () => {
  assert.match(versionOutput("proxy"), VERSION_RE);
  assert.equal(versionString().split("/").length, 5);
  assert.equal(versionString().split("/")[4], "rustls");
});

Deno.test("cli.options.version: the revision is the checkout's HEAD and the status reflects the tree", () => {
  const git = (args: string[]) => {
    try {
      const o = new Deno.Command("git", {
        args,
        cwd: new URL("../../", import.meta.url).pathname,
        stdout: "piped",
        stderr: "null",
      })
        .outputSync();
      return o.success ? new TextDecoder().decode(o.stdout) : null;
    } catch {
      return null;
    }
  };
  const head = git(["rev-parse", "HEAD"])?.trim();
  const [rev, , status] = versionString().split("/");
  if (head) {
    assert.equal(rev, head);
    assert.equal(
      status,
      (git(["status", "--porcelain"]) ?? "").trim() === "" ? "Clean" : "Modified",
    );
  } else assert.equal(rev, "0".repeat(40));
});

Deno.test("cli.options.hot-restart-version: disabled with --disable-hot-restart, else <major>.<size>", () => {
  assert.equal(hotRestartVersion({ disable_hot_restart: true }), "disabled");
  assert.match(hotRestartVersion({ disable_hot_restart: false }), /^\d+\.\d+$/);
});
