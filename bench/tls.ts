/**
 * TLS listener benchmark: requests per second through our proxy terminating TLS (a filter chain
 * with a `DownstreamTlsContext`) beside nginx terminating TLS, both in front of the same local
 * nginx origin (2 KiB body, keep-alive upstream), measured alternately with `wrk` over HTTPS
 * keep-alive connections in one run; prints each figure and the ratio. Missing Debian packages
 * (nginx, wrk) are installed with apt-get. Bounded by `--rounds` × `--duration`.
 *
 * Run: `deno run -A bench/tls.ts [--rounds 2] [--duration 5] [--connections 32]`.
 *
 * @example
 * ```sh
 * deno task bench tls --rounds 2 --duration 5
 * ```
 * @module
 */
import { benchBootstrap } from "./proxy.ts";
import { median, waitPort } from "./wrk_runs.ts";
import { argNumber } from "./bench_args.ts";

const root = new URL("..", import.meta.url).pathname;
const certs = `${root}fixtures/tls/`;

async function has(bin: string): Promise<boolean> {
  const o = await new Deno.Command("sh", { args: ["-c", `command -v ${bin}`], stdout: "null" })
    .output();
  return o.success;
}

async function ensurePackages(): Promise<void> {
  const missing: string[] = [];
  for (const bin of ["nginx", "wrk"]) if (!await has(bin)) missing.push(bin);
  if (missing.length === 0) return;
  console.error(`installing ${missing.join(" ")} with apt-get`);
  const sudo = Deno.uid() === 0 ? [] : ["sudo"];
  const env = { DEBIAN_FRONTEND: "noninteractive" };
  const apt = async (a: string[]) =>
    (await new Deno.Command(sudo.length ? "sudo" : "apt-get", {
      args: sudo.length ? ["apt-get", ...a] : a,
      env,
    }).spawn().status).code;
  await apt(["update", "-qq"]);
  if (await apt(["install", "-y", "-qq", ...missing]) !== 0) throw new Error("apt-get failed");
}

/** nginx: the origin on `origin`, and TLS termination on `tls` proxying to it. */
function nginxConf(dir: string, origin: number, tls: number): string {
  return `
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log error;
events { worker_connections 4096; }
http {
  access_log off;
  keepalive_requests 1000000;
  upstream origin { server 127.0.0.1:${origin}; keepalive 64; }
  server {
    listen 127.0.0.1:${origin};
    location / { return 200 "${"x".repeat(2048)}"; }
  }
  server {
    listen 127.0.0.1:${tls} ssl;
    ssl_certificate ${certs}server.pem;
    ssl_certificate_key ${certs}server.key;
    location / {
      proxy_pass http://origin;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
    }
  }
}
`;
}

/** Our bootstrap: the proxy bench bootstrap with a TLS filter chain. */
function tlsBootstrap(listen: number, origin: number): string {
  const b = JSON.parse(benchBootstrap(listen, origin));
  b.static_resources.listeners[0].filter_chains[0].transport_socket = {
    name: "envoy.transport_sockets.tls",
    typed_config: {
      "@type": "type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.DownstreamTlsContext",
      common_tls_context: {
        tls_certificates: [{
          certificate_chain: { filename: `${certs}server.pem` },
          private_key: { filename: `${certs}server.key` },
        }],
      },
    },
  };
  return JSON.stringify(b);
}

async function wrk(port: number, seconds: number, conns: number): Promise<number> {
  const out = await new Deno.Command("wrk", {
    args: ["-t1", `-c${conns}`, `-d${seconds}s`, `https://127.0.0.1:${port}/`],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  if (/Non-2xx|Socket errors: connect [1-9]/.test(text)) console.error(text);
  return Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1] ?? 0);
}

if (import.meta.main) {
  await ensurePackages();
  const rounds = argNumber("rounds", 2);
  const duration = argNumber("duration", 5);
  const conns = argNumber("connections", 32);
  const [origin, nginxTls, ours] = [19380, 19381, 19382];
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/nginx.conf`, nginxConf(dir, origin, nginxTls));
  await Deno.writeTextFile(`${dir}/bootstrap.json`, tlsBootstrap(ours, origin));
  const nginx = new Deno.Command("nginx", {
    args: ["-c", `${dir}/nginx.conf`, "-p", dir, "-g", "daemon off;"],
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  const proxy = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${root}mod.ts`, "-c", `${dir}/bootstrap.json`, "-l", "error"],
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  try {
    await Promise.all([waitPort(origin), waitPort(nginxTls), waitPort(ours)]);
    await wrk(ours, 2, conns);
    await wrk(nginxTls, 2, conns);
    const figures: Record<string, number[]> = { "nginx-tls": [], "proxyspec-tls": [] };
    for (let r = 0; r < rounds; r++) {
      figures["nginx-tls"].push(await wrk(nginxTls, duration, conns));
      figures["proxyspec-tls"].push(await wrk(ours, duration, conns));
    }
    console.log(
      `== TLS termination, wrk -t1 -c${conns} ${duration}s x ${rounds} (median req/s) ==`,
    );
    for (const [k, v] of Object.entries(figures)) {
      console.log(
        `${k.padEnd(14)} ${median(v).toFixed(0).padStart(8)}   (${
          v.map((x) => x.toFixed(0)).join(", ")
        })`,
      );
    }
    const ratio = median(figures["proxyspec-tls"]) / median(figures["nginx-tls"]);
    console.log(`proxyspec / nginx: ${ratio.toFixed(2)}x`);
  } finally {
    for (const p of [proxy, nginx]) {
      try {
        p.kill("SIGTERM");
      } catch { /* gone */ }
      await p.status;
    }
    await Deno.remove(dir, { recursive: true });
  }
}
