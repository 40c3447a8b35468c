import assert from "node:assert/strict";
import {
  attachProgram,
  detachProgram,
  groupSize,
  listeningDescriptors,
  pinGroup,
  pinProgram,
  spreadProgram,
} from "./reuseport_steering.ts";
import { libc } from "./libc.ts";

const linux = Deno.build.os === "linux" && libc() !== null;

/** Opens `n` connections to `port` and says how many each listener of `group` accepted. */
async function spread(group: Deno.TcpListener[], port: number, host: string, n: number) {
  const counts = group.map(() => 0);
  const loops = group.map(async (l, i) => {
    for await (const c of l) {
      counts[i]++;
      c.close();
    }
  });
  for (let k = 0; k < n; k++) {
    const c = await Deno.connect({ hostname: host, port });
    c.close();
  }
  // Let the accept loops take what waits in their queues.
  await new Promise((r) => setTimeout(r, 100));
  for (const l of group) l.close();
  await Promise.allSettled(loops);
  return counts;
}

function bindGroup(host: string, n: number): { group: Deno.TcpListener[]; port: number } {
  const first = Deno.listen({ hostname: host, port: 0, reusePort: true });
  const port = (first.addr as Deno.NetAddr).port;
  const group = [first];
  for (let i = 1; i < n; i++) group.push(Deno.listen({ hostname: host, port, reusePort: true }));
  return { group, port };
}

Deno.test("the programs are the classic BPF instructions the kernel expects", () => {
  const p = new DataView(spreadProgram(3, 2).buffer);
  assert.deepEqual(
    [0, 8, 16, 24].map((o) => [p.getUint16(o, true), p.getUint32(o + 4, true)]),
    [[0x20, 0xfffff038], [0x94, 2], [0x04, 3], [0x16, 0]],
  );
  const pin = new DataView(pinProgram(5).buffer);
  assert.deepEqual([pin.getUint16(0, true), pin.getUint32(4, true)], [0x06, 5]);
  assert.throws(() => spreadProgram(1, 0), /count 0/);
});

for (const host of ["127.0.0.1", "::1"]) {
  Deno.test({
    name: `a steering program sends every new connection on ${host} to the chosen sockets`,
    ignore: !linux,
    fn: async () => {
      const { group, port } = bindGroup(host, 3);
      assert.equal(listeningDescriptors(host, port).length, 3);
      assert.equal(groupSize(host, port), 3);
      const [fd] = listeningDescriptors(host, port);
      assert.deepEqual(attachProgram(fd, spreadProgram(1, 2)), { ok: true });
      const counts = await spread(group, port, host, 40);
      assert.equal(counts[0], 0, `counts ${counts}`);
      assert.ok(counts[1] > 0 && counts[2] > 0, `counts ${counts}`);
      assert.equal(counts[1] + counts[2], 40);
    },
  });
}

Deno.test({
  name: "a pinned group sends everything to one socket; detached, the hash spreads again",
  ignore: !linux,
  fn: async () => {
    const a = bindGroup("127.0.0.1", 2);
    assert.deepEqual(pinGroup({ address: "127.0.0.1", port: a.port, index: 1 }), { ok: true });
    assert.deepEqual(await spread(a.group, a.port, "127.0.0.1", 20), [0, 20]);
    const b = bindGroup("127.0.0.1", 2);
    const [fd] = listeningDescriptors("127.0.0.1", b.port);
    assert.deepEqual(attachProgram(fd, pinProgram(1)), { ok: true });
    assert.deepEqual(detachProgram(fd), { ok: true });
    const counts = await spread(b.group, b.port, "127.0.0.1", 40);
    assert.ok(counts[0] > 0 && counts[1] > 0, `counts ${counts}`);
  },
});

Deno.test({
  name: "steering a socket that is not in a reuseport group fails with a reason",
  ignore: !linux,
  fn: () => {
    const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const [fd] = listeningDescriptors("127.0.0.1", (l.addr as Deno.NetAddr).port);
    const r = attachProgram(fd, pinProgram(0));
    l.close();
    assert.equal(r.ok, false);
    assert.match(!r.ok ? r.reason : "", /SO_ATTACH_REUSEPORT_CBPF\): errno 22/);
    assert.equal(pinGroup({ address: "127.0.0.1", port: 1, index: 0 }).ok, false);
  },
});
