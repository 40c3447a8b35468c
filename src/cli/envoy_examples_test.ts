/**
 * The bootstraps of `fixtures/envoy-examples/` (modelled on Envoy's documented examples) are
 * valid as written, and serve traffic as Envoy would: each is started as a real process, with
 * its ports moved to free ones and its upstream services played by local servers.
 */
import assert from "node:assert/strict";
import { gunzipSync } from "node:zlib";
import yaml from "js-yaml";

const ROOT = new URL("../../", import.meta.url).pathname;
const MOD = ROOT + "mod.ts";
const DIR = "fixtures/envoy-examples/";

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const p = (l.addr as Deno.NetAddr).port;
  l.close();
  return p;
}

/** Rewrites every `port_value` found under `o` with `map` (unknown ports stay). */
function remap(o: unknown, map: (port: number) => number): void {
  if (Array.isArray(o)) return o.forEach((x) => remap(x, map));
  if (o === null || typeof o !== "object") return;
  const r = o as Record<string, unknown>;
  for (const [k, v] of Object.entries(r)) {
    if (k === "port_value" && typeof v === "number") r[k] = map(v);
    else remap(v, map);
  }
}

interface Served {
  port: number;
  admin: string;
  output(): Promise<{ stdout: string; stderr: string }>;
}

/** Serves fixture `name` with its upstream ports (8080, 8081, 9000) mapped to `upstreams`. */
async function serve(
  name: string,
  upstreams: Record<number, number>,
  fn: (s: Served) => Promise<void>,
): Promise<void> {
  const b = yaml.load(await Deno.readTextFile(ROOT + DIR + name)) as Record<string, unknown>;
  const port = freePort();
  const sr = b.static_resources as Record<string, unknown>;
  remap(sr.listeners, () => port);
  remap(sr.clusters, (p) => upstreams[p] ?? p);
  remap(b.admin, () => 0);
  const dir = await Deno.makeTempDir();
  const file = `${dir}/bootstrap.json`;
  await Deno.writeTextFile(file, JSON.stringify(b));
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--quiet",
      MOD,
      "-c",
      file,
      "--admin-address-path",
      `${dir}/admin`,
      "--file-flush-interval-msec",
      "0",
    ],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const out = child.output();
  try {
    let admin = "";
    let exited = false;
    child.status.then(() => exited = true);
    // Waits for the admin address until the proxy writes it or exits (bounded for a loaded machine).
    for (let i = 0; i < 1200 && admin === "" && !exited; i++) {
      admin = await Deno.readTextFile(`${dir}/admin`).catch(() => "");
      if (admin === "") await new Promise((r) => setTimeout(r, 50));
    }
    assert.notEqual(admin, "", "the proxy did not start");
    for (let i = 0; i < 100; i++) {
      const r = await fetch(`http://${admin}/ready`).catch(() => null);
      const live = r !== null && (await r.text()).trim() === "LIVE";
      if (live) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    let collected: { stdout: string; stderr: string } | null = null;
    await fn({
      port,
      admin,
      output: async () => {
        if (collected === null) {
          child.kill("SIGTERM");
          const o = await out;
          const dec = new TextDecoder();
          collected = { stdout: dec.decode(o.stdout), stderr: dec.decode(o.stderr) };
        }
        return collected;
      },
    });
  } finally {
    try {
      child.kill("SIGTERM");
    } catch { /* exited */ }
    await out;
    await Deno.remove(dir, { recursive: true });
  }
}

/** A local upstream service answering `handler` (default: its name and the path). */
function service(
  name: string,
  handler?: (req: Request) => Response | Promise<Response>,
): { port: number; close(): Promise<void> } {
  const s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    await req.arrayBuffer();
    if (handler) return handler(req);
    return new Response(`${name} ${new URL(req.url).pathname} ${req.headers.get("host")}\n`, {
      headers: { "content-type": "text/plain" },
    });
  });
  return { port: s.addr.port, close: () => s.shutdown() };
}

const text = async (r: Response) => await r.text();

Deno.test("fixtures/envoy-examples: every bootstrap is valid as written (--mode validate)", async () => {
  const names: string[] = [];
  for await (const e of Deno.readDir(ROOT + DIR)) if (e.name.endsWith(".yaml")) names.push(e.name);
  assert.ok(names.length > 0);
  // Independent processes: they run side by side.
  const outs = await Promise.all(names.map((name) =>
    new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--quiet", MOD, "--mode", "validate", "-c", DIR + name],
      cwd: ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output()
  ));
  for (const [i, o] of outs.entries()) {
    assert.equal(o.code, 0, `${names[i]}: ${new TextDecoder().decode(o.stderr)}`);
  }
});

Deno.test("fixtures/envoy-examples quick_start: proxied with the host rewritten, one stdout access log line", async () => {
  const up = service("service");
  try {
    await serve("quick_start.yaml", { 8080: up.port }, async (s) => {
      const r = await fetch(`http://127.0.0.1:${s.port}/hello`);
      assert.equal(await text(r), "service /hello www.example.com\n");
      const { stdout } = await s.output();
      assert.match(
        stdout,
        /^\[\S+\] "GET \/hello HTTP\/1\.1" 200 - 0 31 \d+ \S+ "-" "[^"]*" "[^"]+" "127\.0\.0\.1:\d+" "127\.0\.0\.1:\d+"\n$/m,
      );
    });
  } finally {
    await up.close();
  }
});

Deno.test("fixtures/envoy-examples front_proxy: two services by path prefix, 404 elsewhere", async () => {
  const one = service("service1");
  const two = service("service2");
  try {
    await serve("front_proxy.yaml", { 8080: one.port, 8081: two.port }, async (s) => {
      const base = `http://127.0.0.1:${s.port}`;
      assert.match(await text(await fetch(`${base}/service/1`)), /^service1 \/service\/1 /);
      assert.match(await text(await fetch(`${base}/service/2`)), /^service2 \/service\/2 /);
      const none = await fetch(`${base}/other`);
      await none.body?.cancel();
      assert.equal(none.status, 404);
    });
  } finally {
    await one.close();
    await two.close();
  }
});

Deno.test("fixtures/envoy-examples fault_injection: header-controlled abort, a route that always fails, stats", async () => {
  const up = service("backend");
  try {
    await serve("fault_injection.yaml", { 8080: up.port }, async (s) => {
      const base = `http://127.0.0.1:${s.port}`;
      const ok = await fetch(`${base}/x`);
      assert.equal(ok.status, 200);
      await ok.body?.cancel();
      const aborted = await fetch(`${base}/x`, {
        headers: { "x-envoy-fault-abort-request": "418" },
      });
      assert.equal(aborted.status, 418);
      assert.equal(await aborted.text(), "fault filter abort");
      const always = await fetch(`${base}/always-fails`);
      assert.equal(always.status, 503);
      await always.body?.cancel();
      const stats = await text(await fetch(`http://${s.admin}/stats?filter=fault`));
      assert.match(stats, /http\.ingress_http\.fault\.aborts_injected: 2/);
    });
  } finally {
    await up.close();
  }
});

Deno.test("fixtures/envoy-examples cors: the virtual host policy and a wider route policy", async () => {
  const up = service("backend");
  try {
    await serve("cors.yaml", { 8080: up.port }, async (s) => {
      const base = `http://127.0.0.1:${s.port}`;
      const ok = await fetch(`${base}/x`, { headers: { origin: "https://www.example.com" } });
      await ok.body?.cancel();
      assert.equal(ok.headers.get("access-control-allow-origin"), "https://www.example.com");
      const other = await fetch(`${base}/x`, { headers: { origin: "https://other.test" } });
      await other.body?.cancel();
      assert.equal(other.headers.get("access-control-allow-origin"), null);
      const pre = await fetch(`${base}/cors/open`, {
        method: "OPTIONS",
        headers: { origin: "https://other.test", "access-control-request-method": "PUT" },
      });
      await pre.body?.cancel();
      assert.equal(pre.status, 200);
      assert.equal(pre.headers.get("access-control-allow-methods"), "GET, POST, PUT");
      assert.equal(pre.headers.get("access-control-max-age"), "3600");
    });
  } finally {
    await up.close();
  }
});

Deno.test("fixtures/envoy-examples local_ratelimit: the third request within the interval is refused 429", async () => {
  const up = service("service");
  try {
    await serve("local_ratelimit.yaml", { 8080: up.port }, async (s) => {
      const codes: number[] = [];
      let last: Response | null = null;
      for (let i = 0; i < 3; i++) {
        last = await fetch(`http://127.0.0.1:${s.port}/`);
        codes.push(last.status);
        await last.body?.cancel();
      }
      assert.deepEqual(codes, [200, 200, 429]);
      assert.equal(last!.headers.get("x-local-rate-limit"), "true");
    });
  } finally {
    await up.close();
  }
});

Deno.test("fixtures/envoy-examples compression: a large text body is gzipped, a small one is not", async () => {
  const up = service(
    "service",
    (req) =>
      new Response(new URL(req.url).pathname === "/big" ? "z".repeat(5000) : "small", {
        headers: { "content-type": "text/plain; charset=utf-8" },
      }),
  );
  try {
    await serve("compression.yaml", { 8080: up.port }, async (s) => {
      const base = `http://127.0.0.1:${s.port}`;
      // A raw request so that nothing on the client side decodes the body.
      const conn = await Deno.connect({ hostname: "127.0.0.1", port: s.port });
      await conn.write(
        new TextEncoder().encode(
          "GET /big HTTP/1.1\r\nhost: x\r\naccept-encoding: gzip\r\nconnection: close\r\n\r\n",
        ),
      );
      const raw = new Uint8Array(await new Response(conn.readable).arrayBuffer());
      const sep = raw.findIndex((_, i) =>
        raw[i] === 13 && raw[i + 1] === 10 && raw[i + 2] === 13 && raw[i + 3] === 10
      );
      const head = new TextDecoder().decode(raw.subarray(0, sep));
      assert.match(head, /content-encoding: gzip/i);
      assert.match(head, /transfer-encoding: chunked/i);
      const chunks: Uint8Array[] = [];
      let at = sep + 4;
      for (;;) {
        const eol = raw.indexOf(13, at);
        const n = parseInt(new TextDecoder().decode(raw.subarray(at, eol)), 16);
        if (n === 0) break;
        chunks.push(raw.subarray(eol + 2, eol + 2 + n));
        at = eol + 2 + n + 2;
      }
      const body = new Uint8Array(chunks.reduce((a, c) => a + c.length, 0));
      let off = 0;
      for (const c of chunks) {
        body.set(c, off);
        off += c.length;
      }
      assert.equal(new TextDecoder().decode(gunzipSync(body)), "z".repeat(5000));
      const small = await fetch(`${base}/small`, { headers: { "accept-encoding": "gzip" } });
      assert.equal(small.headers.get("content-encoding"), null);
      assert.equal(await small.text(), "small");
    });
  } finally {
    await up.close();
  }
});

Deno.test("fixtures/envoy-examples ext_authz: the HTTP service allows with a user header or denies", async () => {
  const up = service(
    "upstream",
    (req) => new Response(`user=${req.headers.get("x-current-user")}`),
  );
  const authz = service(
    "authz",
    (req) =>
      req.headers.get("authorization") === "Bearer token1"
        ? new Response(null, { status: 200, headers: { "x-current-user": "user1" } })
        : new Response("denied", { status: 403 }),
  );
  try {
    await serve("ext_authz.yaml", { 8080: up.port, 9000: authz.port }, async (s) => {
      const base = `http://127.0.0.1:${s.port}`;
      const ok = await fetch(`${base}/service`, { headers: { authorization: "Bearer token1" } });
      assert.equal(await ok.text(), "user=user1");
      const no = await fetch(`${base}/service`);
      assert.equal(no.status, 403);
      assert.equal(await no.text(), "denied");
    });
  } finally {
    await up.close();
    await authz.close();
  }
});

Deno.test("fixtures/envoy-examples access_log: filtered JSON lines on stdout, admin requests on stderr", async () => {
  const up = service(
    "service",
    (req) => new Response("x", { status: new URL(req.url).pathname === "/missing" ? 404 : 200 }),
  );
  try {
    await serve("access_log.yaml", { 8080: up.port }, async (s) => {
      const base = `http://127.0.0.1:${s.port}`;
      await (await fetch(`${base}/fine`)).body?.cancel();
      await (await fetch(`${base}/missing`)).body?.cancel();
      await (await fetch(`http://${s.admin}/ready`)).body?.cancel();
      const { stdout, stderr } = await s.output();
      const lines = stdout.split("\n").filter((l) => l.startsWith("{"));
      assert.equal(lines.length, 1);
      const rec = JSON.parse(lines[0]);
      assert.equal(rec.status, 404);
      assert.equal(rec.path, "/missing");
      assert.equal(rec.details, "via_upstream");
      assert.equal("flags" in rec, false);
      assert.match(stderr, /^ADMIN GET \/ready 200$/m);
    });
  } finally {
    await up.close();
  }
});

/** A TCP server that answers each chunk with `<name>:<chunk>`. */
function tcpService(name: string): { port: number; close(): void } {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns: Deno.Conn[] = [];
  (async () => {
    for await (const c of l) {
      conns.push(c);
      (async () => {
        const buf = new Uint8Array(4096);
        for (;;) {
          const n = await c.read(buf).catch(() => null);
          if (n === null) break;
          await c.write(new TextEncoder().encode(`${name}:`)).catch(() => {});
          await c.write(buf.slice(0, n)).catch(() => {});
        }
        try {
          c.close();
        } catch { /* closed */ }
      })();
    }
  })().catch(() => {});
  return {
    port: (l.addr as Deno.NetAddr).port,
    close() {
      l.close();
      for (const c of conns) {
        try {
          c.close();
        } catch { /* closed */ }
      }
    },
  };
}

/** Sends a CONNECT with `extra` header lines, then `payload`; returns all that came back. */
async function tunnel(port: number, extra: string, payload: string, want: string): Promise<string> {
  const c = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    const enc = new TextEncoder();
    await c.write(
      enc.encode(`CONNECT 127.0.0.1:10003 HTTP/1.1\r\nhost: 127.0.0.1:10003\r\n${extra}\r\n`),
    );
    let got = "";
    const buf = new Uint8Array(4096);
    let sent = false;
    while (!got.includes(want)) {
      if (!sent && got.includes("\r\n\r\n")) {
        sent = true;
        await c.write(enc.encode(payload));
      }
      const n = await c.read(buf);
      if (n === null) break;
      got += new TextDecoder().decode(buf.subarray(0, n));
    }
    return got;
  } finally {
    c.close();
  }
}

Deno.test("fixtures/envoy-examples terminate_connect: CONNECT is ended at the proxy and tunnelled by header", async () => {
  const foo = tcpService("foo");
  const other = tcpService("other");
  try {
    await serve("terminate_connect.yaml", { 8080: foo.port, 8081: other.port }, async (s) => {
      const a = await tunnel(s.port, "foo: bar\r\n", "hello", "foo:hello");
      assert.match(a, /^HTTP\/1\.1 200 OK\r\n[^]*\r\n\r\nfoo:hello$/);
      const b = await tunnel(s.port, "", "hi", "other:hi");
      assert.match(b, /^HTTP\/1\.1 200 OK\r\n[^]*\r\n\r\nother:hi$/);
      await s.output();
    });
  } finally {
    foo.close();
    other.close();
  }
});

Deno.test("fixtures/envoy-examples http2_upstream: typed HttpProtocolOptions choose HTTP/2 explicitly, or as the downstream spoke", async () => {
  const up = service("service");
  try {
    await serve("http2_upstream.yaml", { 8080: up.port }, async (s) => {
      const base = `http://127.0.0.1:${s.port}`;
      assert.match(await text(await fetch(`${base}/a`)), /^service \/a /);
      assert.match(await text(await fetch(`${base}/mirror/b`)), /^service \/mirror\/b /);
      const stats = await text(await fetch(`http://${s.admin}/stats?filter=upstream_cx_http`));
      // explicit_http_config: HTTP/2 although the client spoke HTTP/1.1.
      assert.match(stats, /^cluster\.grpc_service\.upstream_cx_http2_total: 1$/m);
      assert.match(stats, /^cluster\.grpc_service\.upstream_cx_http1_total: 0$/m);
      // use_downstream_protocol_config: HTTP/1.1, as the client spoke.
      assert.match(stats, /^cluster\.same_protocol\.upstream_cx_http1_total: 1$/m);
      assert.match(stats, /^cluster\.same_protocol\.upstream_cx_http2_total: 0$/m);
    });
  } finally {
    await up.close();
  }
});

Deno.test("fixtures/envoy-examples header_to_metadata: x-version picks the endpoint subset through envoy.lb dynamic metadata, a missing one the default subset; the access log shows the metadata", async () => {
  const v1 = service("v1");
  const v2 = service("v2");
  const dflt = service("default");
  try {
    const ups = { 8080: v1.port, 8081: v2.port, 9000: dflt.port };
    await serve("header_to_metadata.yaml", ups, async (s) => {
      const get = async (headers: Record<string, string>) =>
        (await text(await fetch(`http://127.0.0.1:${s.port}/x`, { headers }))).split(" ")[0];
      for (let i = 0; i < 3; i++) {
        assert.equal(await get({ "x-version": "v1" }), "v1");
        assert.equal(await get({ "x-version": "v2" }), "v2");
        assert.equal(await get({}), "default");
      }
      const { stdout } = await s.output();
      const lines = stdout.trim().split("\n");
      assert.equal(lines.length, 9);
      assert.equal(lines[0], `/x {"version":"v1"} 127.0.0.1:${v1.port}`);
      assert.equal(lines[2], `/x {"default":"true"} 127.0.0.1:${dflt.port}`);
    });
  } finally {
    await v1.close();
    await v2.close();
    await dflt.close();
  }
});
