import assert from "node:assert/strict";
import fc from "fast-check";
import {
  baseIdIsFree,
  bindHotRestartSocket,
  denoSocketPath,
  hotRestartSocketName,
  NO_DYNAMIC_BASE_ID,
  pickDynamicBaseId,
} from "./hot_restart_socket.ts";

const unique = () => `proxyspec_test_${Deno.pid}_${crypto.randomUUID().slice(0, 8)}`;

Deno.test("cli.options.socket-path: the suffix _{role}_{id} uses the scaled base ID and the epoch modulo 3", () => {
  assert.equal(
    hotRestartSocketName("@proxy_domain_socket", "child", 0, 0),
    "@proxy_domain_socket_child_0",
  );
  assert.equal(hotRestartSocketName("@s", "parent", 5, 1), "@s_parent_51");
  assert.equal(hotRestartSocketName("/run/hr", "child", 2, 4), "/run/hr_child_21");
  fc.assert(
    fc.property(fc.nat(0x0fffffff), fc.nat(1000), (id, epoch) => {
      const name = hotRestartSocketName("@p", "child", id, epoch);
      assert.equal(name, `@p_child_${id * 10 + (epoch % 3)}`);
    }),
  );
});

Deno.test("cli.options.socket-path: a leading @ is the abstract namespace, written with a leading NUL", () => {
  assert.equal(denoSocketPath("@proxy_domain_socket_child_0"), "\0proxy_domain_socket_child_0");
  assert.equal(denoSocketPath("/tmp/x_child_0"), "/tmp/x_child_0");
  if (Deno.build.os !== "linux") return;
  const name = `@${unique()}_child_0`;
  const s = bindHotRestartSocket(name, null);
  try {
    assert.throws(() => bindHotRestartSocket(name, null), Deno.errors.AddrInUse);
    // No file named after it appears in the working directory.
    assert.throws(() => Deno.lstatSync(name), Deno.errors.NotFound);
  } finally {
    s.close();
  }
  bindHotRestartSocket(name, null).close(); // released: it can be bound again
});

Deno.test("cli.options.socket-mode: a filesystem socket is created with the --socket-mode permission", async () => {
  const dir = await Deno.makeTempDir();
  try {
    for (const mode of [0o600, 0o644, 0o640]) {
      const name = hotRestartSocketName(`${dir}/hr`, "parent", mode, 0);
      const s = bindHotRestartSocket(name, mode);
      try {
        const st = Deno.statSync(name);
        assert.equal((st.mode ?? 0) & 0o777, mode);
        assert.throws(() => bindHotRestartSocket(name, mode), Deno.errors.AddrInUse);
      } finally {
        s.close();
      }
      assert.throws(() => Deno.statSync(name), Deno.errors.NotFound);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cli.options.use-dynamic-base-id: an ID whose sockets are in use is skipped", () => {
  if (Deno.build.os !== "linux") return;
  const path = `@${unique()}`;
  const taken = bindHotRestartSocket(hotRestartSocketName(path, "parent", 42, 0), null);
  try {
    assert.equal(baseIdIsFree(path, 42, null), false);
    assert.equal(baseIdIsFree(path, 43, null), true);
    const tries = [42, 42, 43];
    const picked = pickDynamicBaseId(path, null, () => tries.shift() ?? 99);
    assert.equal(picked, 43);
    assert.throws(() => pickDynamicBaseId(path, null, () => 42), { message: NO_DYNAMIC_BASE_ID });
  } finally {
    taken.close();
  }
  // The probe released its sockets: the ID is free again.
  assert.equal(baseIdIsFree(path, 43, null), true);
  assert.ok(pickDynamicBaseId(path) < 0x10000000);
});

Deno.test("cli.options.socket-path: a socket that cannot be bound is an error naming it", () => {
  const name = "/nonexistent-proxyspec-dir/hr_child_0";
  assert.throws(() => bindHotRestartSocket(name, 0o600), {
    message: /^cannot bind hot restart socket '\/nonexistent-proxyspec-dir\/hr_child_0': /,
  });
  assert.throws(() => pickDynamicBaseId("/nonexistent-proxyspec-dir/hr"), /cannot bind/);
});
