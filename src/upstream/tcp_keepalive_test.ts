import assert from "node:assert/strict";
import { libc } from "../platform/libc.ts";
import { applyTcpKeepalive, tcpOption } from "./tcp_keepalive.ts";
import { socketDescriptor } from "../platform/socket_descriptor.ts";

const usable = Deno.build.os === "linux" && libc() !== null;

Deno.test({
  name:
    "cluster.fields.upstream-connection-options: tcp_keepalive time, interval and probes reach the socket",
  ignore: !usable,
  async fn() {
    const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const accepted = l.accept();
    const c = await Deno.connect({ hostname: "127.0.0.1", port: l.addr.port });
    const s = await accepted;
    try {
      const r = applyTcpKeepalive(c, { time: 37, interval: 11, probes: 5 });
      assert.deepEqual(r, { tuned: true });
      const fd = socketDescriptor(c.localAddr, c.remoteAddr);
      assert.ok(fd >= 0);
      assert.equal(tcpOption(fd, "time"), 37);
      assert.equal(tcpOption(fd, "interval"), 11);
      assert.equal(tcpOption(fd, "probes"), 5);
      // The accepted side is a different socket: it keeps the kernel's defaults.
      const other = socketDescriptor(s.localAddr as Deno.NetAddr, s.remoteAddr as Deno.NetAddr);
      assert.ok(other >= 0 && other !== fd);
      assert.notEqual(tcpOption(other, "time"), 37);
    } finally {
      c.close();
      s.close();
      l.close();
    }
  },
});

Deno.test("cluster.fields.upstream-connection-options: a socket that is not open has no descriptor", () => {
  const fd = socketDescriptor(
    { transport: "tcp", hostname: "127.0.0.1", port: 1 },
    { transport: "tcp", hostname: "127.0.0.1", port: 2 },
  );
  assert.equal(fd, -1);
});
