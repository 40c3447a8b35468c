import assert from "node:assert/strict";
import fc from "fast-check";
import { join } from "node:path";
import { Store } from "../stats/store.ts";
import { DynamicFieldPolicy } from "./dynamic_fields.ts";
import {
  type DiscoveryResponse,
  FilesystemSubscription,
  parseDiscoveryResponse,
  SubscriptionError,
} from "./subscription.ts";
import { versionHash, xxHash64 } from "./subscription_hash.ts";

Deno.test("subscription: a DiscoveryResponse is parsed from JSON and YAML", () => {
  const j = parseDiscoveryResponse('{"versionInfo":"1","resources":[{"@type":"t/x"}]}', "a.json");
  assert.deepEqual(j, { version_info: "1", resources: [{ "@type": "t/x" }] });
  const y = parseDiscoveryResponse("version_info: '2'\nresources: []\n", "a.yml");
  assert.deepEqual(y, { version_info: "2", resources: [] });
});

Deno.test("subscription: bad text fails with the file's path, never throws anything else", () => {
  fc.assert(fc.property(fc.string(), (text) => {
    try {
      parseDiscoveryResponse(text, "f.json");
    } catch (e) {
      assert.ok(e instanceof SubscriptionError);
      assert.ok(e.message.startsWith("f.json: "));
    }
  }));
  assert.throws(() => parseDiscoveryResponse('{"resources":[1]}', "f.json"), /resources\[0\]/);
});

Deno.test("errors.unknown-dynamic-fields: unknown DiscoveryResponse fields follow the policy", () => {
  const store = new Store();
  const warn = new DynamicFieldPolicy("warn", store, () => {});
  parseDiscoveryResponse('{"version_info":"1","extra":1}', "f.json", warn);
  assert.equal(store.counter("server.dynamic_unknown_fields").value(), 1);
  const reject = new DynamicFieldPolicy("reject", store, () => {});
  assert.throws(
    () => parseDiscoveryResponse('{"extra":1}', "f.json", reject),
    (e) => e instanceof SubscriptionError && e.rejected,
  );
});

Deno.test("subscription: the version gauge is xxHash64 of version_info", () => {
  assert.equal(xxHash64("").toString(16), "ef46db3751d8e999");
  assert.equal(xxHash64("abc").toString(16), "44bc2cf5ad770999");
  assert.equal(versionHash("a"), Number(0xd24ec4f1a98c6e5bn));
});

Deno.test("subscription: counts attempts, successes, rejections and failures", async () => {
  const dir = await Deno.makeTempDir();
  const file = join(dir, "s.json");
  const store = new Store();
  const seen: DiscoveryResponse[] = [];
  const sub = new FilesystemSubscription(file, store.scope("sub"), {
    onConfigUpdate: (r) => {
      if (r.version_info === "bad") throw new Error("refused");
      seen.push(r);
    },
    onConfigUpdateFailed: () => {},
  }, { watch: false });
  try {
    await sub.start(); // missing file
    await Deno.writeTextFile(file, '{"version_info":"1"}');
    await sub.refresh();
    await Deno.writeTextFile(file, '{"version_info":"bad"}');
    await sub.refresh();
    const c = (n: string) => store.counter(`sub.${n}`).value();
    assert.deepEqual(
      [c("update_attempt"), c("update_success"), c("update_rejected"), c("update_failure")],
      [3, 1, 1, 1],
    );
    assert.equal(seen.length, 1);
    assert.equal(store.textReadout("sub.version_text").value(), "1");
  } finally {
    await sub.close();
    await Deno.remove(dir, { recursive: true });
  }
});
