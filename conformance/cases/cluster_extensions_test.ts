/**
 * The cases of `cluster_extensions.ts` can fail: against a binary that accepts every bootstrap
 * the rejection halves fail, and against one that rejects every bootstrap naming the field under
 * test the acceptance halves fail; against this implementation they pass.
 */
import assert from "node:assert/strict";
import { allRules, CLUSTER_FIELDS, CLUSTER_OBJECTS } from "../../spec/mod.ts";
import type { FieldRow } from "../../spec/mod.ts";
import { fakeBinarySource, statuses } from "../testing.ts";
import { clusterExtensionCases } from "./cluster_extensions.ts";

const root = new URL("../../", import.meta.url).pathname;

const RULES = [
  "cluster.fields.extension-protocol-options",
  "cluster.fields.typed-extension-protocol-options",
  "cluster.objects.custom-cluster-type.typed-config",
  "cluster.objects.eds-cluster-config.service-name",
];

/** A fake binary: prints a version, and exits 1 on a bootstrap holding one of `markers`. */
function fakeSource(markers: string[]): string {
  return fakeBinarySource([
    `const i = a.indexOf("-c");`,
    `const text = i >= 0 ? Deno.readTextFileSync(a[i + 1]) : "";`,
    `const bad = ${JSON.stringify(markers)}.some((m) => text.includes(m));`,
    `if (bad) console.error("error: rejected");`,
    `else console.log("OK");`,
    `Deno.exit(bad ? 1 : 0);`,
  ]);
}

function statusesOf(command: string, dir: string): Promise<Map<string, string>> {
  return statuses(["--command", command, "--seed", "7", "--num-runs", "2", ...RULES], dir);
}

async function withFake(markers: string[], fn: (cmd: string, dir: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "cluster-extensions-" });
  try {
    await Deno.writeTextFile(`${dir}/fake.ts`, fakeSource(markers));
    await fn(`${Deno.execPath()} run -A ${dir}/fake.ts`, dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test(
  "cluster.fields.extension-protocol-options, cluster.fields.typed-extension-protocol-options, cluster.objects.custom-cluster-type.typed-config, cluster.objects.eds-cluster-config.service-name: one case each",
  () => {
    const cases = clusterExtensionCases({ rules: allRules(), variant: "new" });
    for (const id of RULES) {
      assert.ok(cases.some((c) => c.rules.includes(id)), `no case names ${id}`);
    }
  },
);

Deno.test(
  "cluster.fields.extension-protocol-options, cluster.objects.eds-cluster-config.service-name: a binary accepting everything fails the cases",
  async () => {
    await withFake([], async (cmd, dir) => {
      const s = await statusesOf(cmd, dir);
      assert.equal(s.get("exit"), "1");
      for (const id of RULES) assert.equal(s.get(id), "FAIL", id);
    });
  },
);

Deno.test(
  "cluster.fields.typed-extension-protocol-options, cluster.objects.custom-cluster-type.typed-config: a binary rejecting the field fails the cases",
  async () => {
    await withFake(
      ["extension_protocol_options", "typed_config", "service_name"],
      async (cmd, dir) => {
        const s = await statusesOf(cmd, dir);
        assert.equal(s.get("exit"), "1");
        for (const id of RULES) assert.equal(s.get(id), "FAIL", id);
      },
    );
  },
);

Deno.test(
  "cluster.fields.extension-protocol-options, cluster.objects.eds-cluster-config.service-name: this implementation passes the cases",
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "cluster-extensions-" });
    try {
      const s = await statusesOf(`${Deno.execPath()} run -A ${root}mod.ts`, dir);
      // A field this build refuses (its row's support column) cannot be shown accepted: the
      // suite reports the missing feature, not a failure.
      const rows = [...CLUSTER_FIELDS, ...CLUSTER_OBJECTS] as readonly FieldRow[];
      for (const id of RULES) {
        const refused = rows.find((r) => r.id === id)?.support === "refused";
        assert.equal(s.get(id), refused ? "NOT_APPLICABLE" : "PASS", id);
      }
      assert.equal(s.get("exit"), "0");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);
