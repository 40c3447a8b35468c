/**
 * Request throughput through the proxy with RING_HASH (route `hash_policy` on a header) versus
 * ROUND_ROBIN, over the same four origin ports, in one run: `wrk` against two proxies started
 * from `mod.ts`, interleaved rounds, with the ratio. The origins run in their own process.
 *
 * Run: `deno task bench lb_proxy [--duration 5] [--rounds 3] [--connections 32]`.
 *
 * @example
 * ```sh
 * deno run -A bench/lb_proxy_bench.ts --duration 3 --rounds 2
 * ```
 * @module
 */

import { waitPort } from "./wrk_runs.ts";
import { argNumber } from "./bench_args.ts";

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const p = l.addr.port;
  l.close();
  return p;
}

const ORIGIN = `
const ports = JSON.parse(Deno.args[0]);
for (const port of ports) {
  Deno.serve({ hostname: "127.0.0.1", port, onListen() {} }, () => new Response("x".repeat(512)));
}
`;

function bootstrap(listen: number, origins: number[], policy: string): string {
  const route: Record<string, unknown> = { cluster: "origin" };
  if (policy === "RING_HASH") route.hash_policy = [{ header: { header_name: "x-user" } }];
  return JSON.stringify({
    admin: { address: { socket_address: { address: "127.0.0.1", port_value: 0 } } },
    static_resources: {
      listeners: [{
        name: "bench",
        address: { socket_address: { address: "127.0.0.1", port_value: listen } },
        filter_chains: [{
          filters: [{
            name: "envoy.filters.network.http_connection_manager",
            typed_config: {
              "@type":
                "type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager",
              stat_prefix: "bench",
              generate_request_id: false,
              route_config: {
                virtual_hosts: [{
                  name: "all",
                  domains: ["*"],
                  routes: [{ match: { prefix: "/" }, route }],
                }],
              },
              http_filters: [{ name: "envoy.filters.http.router" }],
            },
          }],
        }],
      }],
      clusters: [{
        name: "origin",
        type: "STATIC",
        connect_timeout: "1s",
        lb_policy: policy,
        load_assignment: {
          cluster_name: "origin",
          endpoints: [{
            lb_endpoints: origins.map((port) => ({
              endpoint: { address: { socket_address: { address: "127.0.0.1", port_value: port } } },
            })),
          }],
        },
      }],
    },
  });
}

/** wrk with a Lua script giving each request its own x-user value. */
async function wrk(port: number, seconds: number, conns: number, script: string): Promise<number> {
  const o = await new Deno.Command("wrk", {
    args: ["-t1", `-c${conns}`, `-d${seconds}s`, "-s", script, `http://127.0.0.1:${port}/`],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(o.stdout);
  const m = /Requests\/sec:\s+([\d.]+)/.exec(text);
  if (!m) throw new Error(`wrk: ${text}${new TextDecoder().decode(o.stderr)}`);
  return Number(m[1]);
}

const hasWrk = await new Deno.Command("sh", { args: ["-c", "command -v wrk"], stdout: "null" })
  .output();
if (!hasWrk.success) {
  console.error("wrk is needed (apt-get install wrk)");
  Deno.exit(2);
}
const seconds = argNumber("duration", 5);
const rounds = argNumber("rounds", 3);
const conns = argNumber("connections", 32);
const dir = await Deno.makeTempDir({ prefix: "lb-proxy-bench-" });
const originPorts = [freePort(), freePort(), freePort(), freePort()];
await Deno.writeTextFile(`${dir}/origin.ts`, ORIGIN);
await Deno.writeTextFile(
  `${dir}/users.lua`,
  `counter = 0\nrequest = function()\n  counter = counter + 1\n  wrk.headers["x-user"] = "user-" .. (counter % 1000)\n  return wrk.format(nil)\nend\n`,
);
const origin = new Deno.Command(Deno.execPath(), {
  args: ["run", "-A", `${dir}/origin.ts`, JSON.stringify(originPorts)],
  stdout: "null",
  stderr: "inherit",
}).spawn();
const proxies: { policy: string; port: number; child: Deno.ChildProcess }[] = [];
try {
  for (const port of originPorts) await waitPort(port, { seconds: 30 });
  const mod = new URL("../mod.ts", import.meta.url).pathname;
  for (const policy of ["ROUND_ROBIN", "RING_HASH"]) {
    const port = freePort();
    const file = `${dir}/${policy}.json`;
    await Deno.writeTextFile(file, bootstrap(port, originPorts, policy));
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", mod, "-c", file, "-l", "error"],
      stdout: "null",
      stderr: "null",
    }).spawn();
    proxies.push({ policy, port, child });
    await waitPort(port, { seconds: 30 });
  }
  const results = new Map<string, number[]>();
  for (const p of proxies) await wrk(p.port, 1, conns, `${dir}/users.lua`); // warm up
  for (let r = 0; r < rounds; r++) {
    for (const p of proxies) {
      const rps = await wrk(p.port, seconds, conns, `${dir}/users.lua`);
      results.set(p.policy, [...(results.get(p.policy) ?? []), rps]);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`req/s through the proxy, ${conns} connections, ${rounds} × ${seconds} s, median`);
  for (const [policy, xs] of results) {
    console.log(
      `  ${policy.padEnd(12)} ${median(xs).toFixed(0).padStart(8)}  (${
        xs.map((x) => x.toFixed(0)).join(", ")
      })`,
    );
  }
  const rr = median(results.get("ROUND_ROBIN")!);
  const rh = median(results.get("RING_HASH")!);
  console.log(`  RING_HASH / ROUND_ROBIN = ${(rh / rr).toFixed(2)}`);
} finally {
  for (const p of proxies) {
    p.child.kill("SIGTERM");
    await p.child.status;
  }
  origin.kill("SIGTERM");
  await origin.status;
  await Deno.remove(dir, { recursive: true });
}
