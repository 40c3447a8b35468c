/**
 * Upstream protocol benchmark: our proxy forwarding HTTP/1.1 clients to an origin over TLS
 * (HTTP/1.1 in an `UpstreamTlsContext`) and over HTTP/2 (h2c with prior knowledge), beside nginx
 * and haproxy doing the same, one worker each, in one interleaved run with `wrk`. The origin is
 * nginx (2 KiB body). nginx forwards to TLS with `proxy_pass https://` and to HTTP/2 with
 * `grpc_pass` (its only HTTP/2 upstream; it forwards any request); haproxy with `ssl verify none`
 * and `proto h2`. Prints, per protocol, req/s, CPU microseconds per request and p50/p99 at the
 * given connections, each with its ratio to nginx (issue 19 asks for these ratios beside the
 * HTTP/1.1 ones of `bench proxy`). Missing Debian packages are installed with apt-get. Bounded by
 * `--rounds` x `--duration` x 2 protocols x the peers.
 *
 * Run: `deno run -A bench/upstream_protocols.ts [--rounds 2] [--duration 5] [--connections 64]
 * [--baseline DIR]` (`DIR`: a checkout of another revision, run as a second candidate).
 *
 * @example
 * ```sh
 * deno task bench upstream --rounds 2 --duration 5
 * ```
 * @module
 */
import { ensurePackages, oneWorkerProxyArgs } from "./proxy.ts";
import { groupCpuSeconds, median, runWrk, waitPort, type WrkFigures } from "./wrk_runs.ts";
import { argText } from "./bench_args.ts";

const root = new URL("..", import.meta.url).pathname;
const certs = `${root}fixtures/tls/`;

/** The two upstream protocols measured. */
const PROTOCOLS = ["tls", "h2"] as const;
type Protocol = typeof PROTOCOLS[number];

/** Ports: the origin's two listeners, then each peer's listener per protocol. */
const ORIGIN: Record<Protocol, number> = { tls: 19482, h2: 19481 };

function originConf(dir: string): string {
  const body = "x".repeat(2048);
  return `worker_processes 1;
pid ${dir}/origin.pid;
error_log ${dir}/origin.log error;
events { worker_connections 4096; }
http {
  access_log off;
  keepalive_requests 1000000;
  server { listen 127.0.0.1:${ORIGIN.h2} http2; location / { return 200 "${body}"; } }
  server {
    listen 127.0.0.1:${ORIGIN.tls} ssl;
    ssl_certificate ${certs}server.pem;
    ssl_certificate_key ${certs}server.key;
    location / { return 200 "${body}"; }
  }
}
`;
}

function nginxConf(dir: string, ports: Record<Protocol, number>): string {
  return `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/nginx.log error;
events { worker_connections 4096; }
http {
  access_log off;
  keepalive_requests 1000000;
  upstream up_tls { server 127.0.0.1:${ORIGIN.tls}; keepalive 64; }
  upstream up_h2 { server 127.0.0.1:${ORIGIN.h2}; keepalive 64; }
  server {
    listen 127.0.0.1:${ports.tls};
    location / {
      proxy_pass https://up_tls;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_ssl_session_reuse on;
    }
  }
  server { listen 127.0.0.1:${ports.h2}; location / { grpc_pass grpc://up_h2; } }
}
`;
}

function haproxyConf(ports: Record<Protocol, number>): string {
  return `global
  nbthread 1
  maxconn 4096
defaults
  mode http
  timeout connect 5s
  timeout client 30s
  timeout server 30s
  http-reuse always
frontend f_tls
  bind 127.0.0.1:${ports.tls}
  default_backend b_tls
backend b_tls
  server s 127.0.0.1:${ORIGIN.tls} ssl verify none
frontend f_h2
  bind 127.0.0.1:${ports.h2}
  default_backend b_h2
backend b_h2
  server s 127.0.0.1:${ORIGIN.h2} proto h2
`;
}

/** Our bootstrap: one listener per protocol, each routing to its cluster. */
function proxyBootstrap(ports: Record<Protocol, number>): string {
  const hcm = (cluster: Protocol) => ({
    name: "envoy.filters.network.http_connection_manager",
    typed_config: {
      "@type":
        "type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager",
      stat_prefix: cluster,
      generate_request_id: false,
      route_config: {
        virtual_hosts: [{
          name: "all",
          domains: ["*"],
          routes: [{ match: { prefix: "/" }, route: { cluster } }],
        }],
      },
      http_filters: [{ name: "envoy.filters.http.router" }],
    },
  });
  const endpoint = (port: number) => ({
    endpoints: [{
      lb_endpoints: [{
        endpoint: { address: { socket_address: { address: "127.0.0.1", port_value: port } } },
      }],
    }],
  });
  return JSON.stringify({
    admin: { address: { socket_address: { address: "127.0.0.1", port_value: 0 } } },
    static_resources: {
      listeners: PROTOCOLS.map((p) => ({
        name: p,
        address: { socket_address: { address: "127.0.0.1", port_value: ports[p] } },
        filter_chains: [{ filters: [hcm(p)] }],
      })),
      clusters: [{
        name: "tls",
        connect_timeout: "1s",
        load_assignment: { cluster_name: "tls", ...endpoint(ORIGIN.tls) },
        transport_socket: {
          name: "envoy.transport_sockets.tls",
          typed_config: {
            "@type":
              "type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext",
            sni: "localhost",
          },
        },
      }, {
        name: "h2",
        connect_timeout: "1s",
        load_assignment: { cluster_name: "h2", ...endpoint(ORIGIN.h2) },
        typed_extension_protocol_options: {
          "envoy.extensions.upstreams.http.v3.HttpProtocolOptions": {
            "@type": "type.googleapis.com/envoy.extensions.upstreams.http.v3.HttpProtocolOptions",
            explicit_http_config: { http2_protocol_options: {} },
          },
        },
      }],
    },
  });
}

/** A peer: its own process group (started with `setsid`) and a listener per protocol. */
interface Peer {
  name: string;
  ports: Record<Protocol, number>;
  process: Deno.ChildProcess;
}

function startGroup(cmd: string[]): Deno.ChildProcess {
  return new Deno.Command("setsid", { args: cmd, stdout: "null", stderr: "inherit" }).spawn();
}

async function stopGroup(p: Deno.ChildProcess): Promise<void> {
  try {
    Deno.kill(-p.pid, "SIGTERM");
  } catch { /* gone */ }
  const timer = setTimeout(() => {
    try {
      Deno.kill(-p.pid, "SIGKILL");
    } catch { /* gone */ }
  }, 5000);
  await p.status;
  clearTimeout(timer);
}

/** One measured run: wrk's figures and the peer's CPU microseconds per request. */
interface Sample extends WrkFigures {
  cpuUs: number;
}

async function measure(peer: Peer, p: Protocol, seconds: number, conns: number): Promise<Sample> {
  const cpu0 = groupCpuSeconds(peer.process.pid);
  const w = await runWrk(`http://127.0.0.1:${peer.ports[p]}/`, seconds, conns);
  const cpu = groupCpuSeconds(peer.process.pid) - cpu0;
  return { ...w, cpuUs: w.rps > 0 ? (cpu * 1e6) / (w.rps * seconds) : NaN };
}

function report(p: Protocol, samples: Map<string, Sample[]>, conns: number): void {
  const med = (name: string, k: keyof Sample) =>
    median(samples.get(name)!.map((s) => Number(s[k])));
  const ratio = (name: string, k: keyof Sample) => med(name, k) / med("nginx", k);
  console.log(
    `\n== ${p === "tls" ? "TLS (HTTP/1.1)" : "HTTP/2 (h2c)"} upstream, ${conns} conns ==`,
  );
  console.log("peer          req/s  xngx   cpu_us/r  xngx   p50_ms  p99_ms  p99xngx");
  for (const name of samples.keys()) {
    console.log(
      `${name.padEnd(10)} ${med(name, "rps").toFixed(0).padStart(8)} ${
        ratio(name, "rps").toFixed(2).padStart(5)
      } ${med(name, "cpuUs").toFixed(1).padStart(10)} ${
        ratio(name, "cpuUs").toFixed(2).padStart(5)
      } ${med(name, "p50Ms").toFixed(3).padStart(8)} ${med(name, "p99Ms").toFixed(3).padStart(7)} ${
        ratio(name, "p99Ms").toFixed(2).padStart(8)
      }`,
    );
  }
}

if (import.meta.main) {
  await ensurePackages();
  const rounds = Number(argText("rounds", "2"));
  const duration = Number(argText("duration", "5"));
  const conns = Number(argText("connections", "64"));
  const baseline = Deno.args.includes("--baseline") ? argText("baseline", "") : undefined;
  const dir = await Deno.makeTempDir({ prefix: "upstream-bench-" });
  const peers: Peer[] = [];
  const started: Deno.ChildProcess[] = [];
  try {
    await Deno.writeTextFile(`${dir}/origin.conf`, originConf(dir));
    started.push(startGroup(["nginx", "-c", `${dir}/origin.conf`, "-p", dir, "-g", "daemon off;"]));
    const add = async (
      name: string,
      base: number,
      conf: (ports: Record<Protocol, number>) => string[],
    ) => {
      const ports = { tls: base, h2: base + 1 };
      const process = startGroup(conf(ports));
      started.push(process);
      peers.push({ name, ports, process });
      await Promise.all(PROTOCOLS.map((p) => waitPort(ports[p])));
    };
    await Promise.all(Object.values(ORIGIN).map((p) => waitPort(p)));
    await add("nginx", 19483, (ports) => {
      Deno.writeTextFileSync(`${dir}/nginx.conf`, nginxConf(dir, ports));
      return ["nginx", "-c", `${dir}/nginx.conf`, "-p", dir, "-g", "daemon off;"];
    });
    await add("haproxy", 19485, (ports) => {
      Deno.writeTextFileSync(`${dir}/haproxy.cfg`, haproxyConf(ports));
      return ["haproxy", "-f", `${dir}/haproxy.cfg`];
    });
    const candidates: [string, string][] = [["proxyspec", root]];
    if (baseline) candidates.push(["baseline", `${baseline.replace(/\/$/, "")}/`]);
    for (const [i, [name, tree]] of candidates.entries()) {
      const cfg = `${dir}/${name}.json`;
      const args = await oneWorkerProxyArgs(tree, cfg);
      await add(name, 19487 + 2 * i, (ports) => {
        Deno.writeTextFileSync(cfg, proxyBootstrap(ports));
        return [Deno.execPath(), ...args];
      });
    }
    // Warm-up: connections, TLS sessions and the JIT.
    for (const peer of peers) for (const p of PROTOCOLS) await measure(peer, p, 2, conns);
    const samples = new Map(
      PROTOCOLS.map((p) => [p, new Map(peers.map((x) => [x.name, [] as Sample[]]))]),
    );
    for (let r = 0; r < rounds; r++) {
      for (const p of PROTOCOLS) {
        for (const peer of peers) {
          samples.get(p)!.get(peer.name)!.push(await measure(peer, p, duration, conns));
        }
      }
    }
    console.log(
      `wrk -t1 -c${conns}, ${duration} s x ${rounds} rounds interleaved; medians; one worker each`,
    );
    for (const p of PROTOCOLS) report(p, samples.get(p)!, conns);
  } finally {
    for (const p of started.reverse()) await stopGroup(p);
    await Deno.remove(dir, { recursive: true });
  }
}
