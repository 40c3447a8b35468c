/**
 * A small demo origin for `deno task start`: answers every request with which origin it is,
 * the method and path it saw, and the forwarding headers the proxy added.
 *
 * Run: `deno run -A tools/demo_origin.ts <port> [name]`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { serveDemoOrigin } from "./demo_origin.ts";
 * const srv = serveDemoOrigin(0, "origin-1"); // `deno task start` uses 10001 and up
 * const res = await fetch(`http://127.0.0.1:${srv.addr.port}/a?b`);
 * assert.match(await res.text(), /^hello from origin-1 .*\nGET \/a\?b\n/);
 * await srv.shutdown();
 * ```
 * @module
 */

/** Starts an origin on 127.0.0.1:`port` that names itself `name`. */
export function serveDemoOrigin(port: number, name: string): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve({ hostname: "127.0.0.1", port, onListen() {} }, (req) => {
    const url = new URL(req.url);
    const lines = [
      `hello from ${name} (127.0.0.1:${port})`,
      `${req.method} ${url.pathname}${url.search}`,
      `x-forwarded-for: ${req.headers.get("x-forwarded-for") ?? "-"}`,
      `x-request-id: ${req.headers.get("x-request-id") ?? "-"}`,
    ];
    return new Response(lines.join("\n") + "\n", {
      headers: { "content-type": "text/plain", "x-origin": name },
    });
  });
}

if (import.meta.main) {
  const port = Number(Deno.args[0]);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) {
    console.error("usage: demo_origin.ts <port> [name]");
    Deno.exit(2);
  }
  const srv = serveDemoOrigin(port, Deno.args[1] ?? `origin-${port}`);
  console.error(`demo origin ${Deno.args[1] ?? port} on 127.0.0.1:${port}`);
  Deno.addSignalListener("SIGTERM", () => srv.shutdown().then(() => Deno.exit(0)));
  await srv.finished;
}
