import assert from "node:assert/strict";
import { CLIENT_PORTS, ORIGIN_PORTS, PROXY_PORT } from "./testing_original_dst.ts";

/** Whether `cmd` runs here (`unshare` and `iptables` need root and the Debian packages). */
async function runs(cmd: string, args: string[]): Promise<boolean> {
  try {
    const o = await new Deno.Command(cmd, { args, stdout: "null", stderr: "null" }).output();
    return o.success;
  } catch {
    return false;
  }
}

const script = new URL("./testing_original_dst.ts", import.meta.url).pathname;
const rule = `iptables -t nat -A OUTPUT -p tcp -d 127.0.0.1 --sport ${CLIENT_PORTS} ` +
  `-m multiport --dports ${ORIGIN_PORTS.join(",")} -j REDIRECT --to-ports ${PROXY_PORT}`;
// CI installs iptables (tools/install_test_deps.sh) and runs as root: there the test must run.
const usable = Deno.env.get("CI") === "true" ||
  (await runs("unshare", ["-n", "true"]) && await runs("iptables", ["--version"]));

Deno.test({
  name:
    "cluster.enums.discovery-type: ORIGINAL_DST behind the original_dst listener filter reaches the destination a netfilter-redirected client addressed (SO_ORIGINAL_DST), in a network namespace",
  ignore: !usable,
  async fn() {
    const out = await new Deno.Command("unshare", {
      args: [
        "-n",
        "sh",
        "-c",
        `ip link set lo up && ${rule} && exec "${Deno.execPath()}" run -A "${script}"`,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const err = new TextDecoder().decode(out.stderr);
    assert.ok(out.success, `the scenario failed: ${err}`);
    const r = JSON.parse(new TextDecoder().decode(out.stdout).trim().split("\n").at(-1)!);
    // Each client reached the origin it addressed, through the proxy (which saw the original
    // destination as its local address), and the cluster made one host per destination.
    assert.deepEqual(r.bodies, ["o8000", "o8001", "o8000", "o8001"]);
    assert.deepEqual(r.hosts, ["127.0.0.1:8000", "127.0.0.1:8001"]);
    assert.deepEqual(r.log, [
      "127.0.0.1:8000",
      "127.0.0.1:8001",
      "127.0.0.1:8000",
      "127.0.0.1:8001",
    ]);
  },
});
