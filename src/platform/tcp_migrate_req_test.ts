import assert from "node:assert/strict";
import { join } from "node:path";
import { tcpMigrateReq } from "./tcp_migrate_req.ts";

Deno.test("cli.options.restart-epoch: net.ipv4.tcp_migrate_req is read as on (1), off (0), or unknown (no such file, or another value)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = join(dir, "tcp_migrate_req");
    await Deno.writeTextFile(file, "1\n");
    assert.equal(tcpMigrateReq(file), true);
    await Deno.writeTextFile(file, "0\n");
    assert.equal(tcpMigrateReq(file), false);
    await Deno.writeTextFile(file, "x\n");
    assert.equal(tcpMigrateReq(file), null);
    assert.equal(tcpMigrateReq(join(dir, "missing")), null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
