import assert from "node:assert/strict";
import { startAdminListener } from "./admin_listener.ts";
import { createAdminRouter } from "./router.ts";
import { ADMIN_HANDLERS } from "./handlers.ts";
import { testContext } from "./testing_context.ts";

/** Sends raw bytes and returns the status code of the first answer. */
async function statusOf(port: number, head: string): Promise<number> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  await conn.write(Uint8Array.from(head, (c) => c.charCodeAt(0)));
  const chunks: number[] = [];
  const buf = new Uint8Array(4096);
  while (chunks.length < 12) {
    const n = await conn.read(buf);
    if (n === null) break;
    chunks.push(...buf.subarray(0, n));
  }
  conn.close();
  return Number(String.fromCharCode(...chunks.slice(9, 12)));
}

Deno.test("admin.general.query-parameters-only: malformed admin requests over a socket answer 4xx or 2xx, never 5xx", async () => {
  const ctx = testContext({ features: ["tap"] });
  const admin = await startAdminListener(
    { address: { socket_address: { address: "127.0.0.1", port_value: 0 } } },
    createAdminRouter(ctx, { handlers: ADMIN_HANDLERS }),
    "",
  );
  try {
    const cases: [string, string][] = [
      ["POST /tap#frag", "Content-Length: 2\r\n\r\n{}"],
      [
        "POST /tap",
        "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 2\r\n\r\n{}",
      ],
      ["POST /config_dump?%%%zz&&==&mask=%ff", "Content-Length: 0\r\n\r\n"],
      ["POST /config_dump?\xff\xfe", "Content-Length: 0\r\n\r\n"],
      ["POST /config_dump?{}|^`\\", "Content-Length: 0\r\n\r\n"],
      ["POST /config_dump?x#y", "Content-Length: 0\r\n\r\n"],
      [`GET /config_dump?name_regex=${"a".repeat(33_000)}`, "\r\n"],
      ["GET /stats?filter=(.|.|.|.|.|.|.|.)*Z", "\r\n"],
    ];
    for (const [line, rest] of cases) {
      const status = await statusOf(admin!.port, `${line} HTTP/1.1\r\nHost: 127.0.0.1\r\n${rest}`);
      assert.ok(status >= 200 && status < 500, `${line.slice(0, 60)}: ${status}`);
    }
  } finally {
    await admin!.close();
  }
});
