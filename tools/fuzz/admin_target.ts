/**
 * Fuzz target `admin`: random requests through the real admin router (every handler, the
 * request guard, a context built from real parts with clusters, listeners, stats and a layered
 * runtime), in process. Requests are drawn from the endpoint table (each row's path, its query
 * parameters and their values) mixed with random methods, unknown paths and parameters, regular
 * expressions that backtrack, field masks, huge values, percent-encoded non-UTF-8 bytes,
 * fragments and bodies of any content type. Expectation: no answer is 5xx and the router never
 * throws; `/ready` still answers 200 at the end.
 *
 * @module
 */
import fc from "fast-check";
import { ENDPOINTS } from "../../spec/mod.ts";
import type { EndpointRow } from "../../spec/rule.ts";
import { ADMIN_HANDLERS } from "../../src/admin/handlers.ts";
import { createAdminRouter } from "../../src/admin/router.ts";
import { adminRequestGuard } from "../../src/admin/request_guard.ts";
import { stopProfilers } from "../../src/admin/profiling_handler.ts";
import { detachTap } from "../../src/admin/tap_handler.ts";
import { closeHystrixStreams } from "../../src/admin/hystrix_handler.ts";
import {
  testCluster,
  testContext,
  testHost,
  testListener,
} from "../../src/admin/testing_context.ts";
import { type FuzzFailure, type FuzzReport, type FuzzTarget, recordFailure } from "./target.ts";

const ROWS = ENDPOINTS as readonly EndpointRow[];
const PATHS = [...new Set(ROWS.map((r) => r.path))];
const PARAM_NAMES = [...new Set(ROWS.flatMap((r) => r.params.map((p) => p.name)))];

/** Values that have hurt admin servers: backtracking patterns, masks, huge and odd bytes. */
const NASTY = [
  "(.|.|.|.|.|.|.|.)*Z",
  "(\\w|\\w)*Z",
  "^(a+)+$",
  "(?<=a)b",
  "\\1(a)",
  "[",
  "(",
  "*",
  "a".repeat(33_000),
  "%ff%fe%00",
  "%",
  "%%%zz",
  "a..b",
  ",,,",
  "configs.@type",
  "dynamic_active_clusters",
  "static_clusters",
  "y",
  "n",
  "true",
  "false",
  "-1",
  "99999999999999999999",
  "NaN",
  "\u0000",
  "é",
];

const SAFE = /[A-Za-z0-9._~%-]/;
const utf8 = new TextEncoder();

/** Percent-encodes what a URL cannot carry as is (lone surrogates become U+FFFD). */
function enc(s: string): string {
  let out = "";
  for (const b of utf8.encode(s)) {
    const c = String.fromCharCode(b);
    out += b < 0x80 && SAFE.test(c) ? c : `%${b.toString(16).padStart(2, "0")}`;
  }
  return out;
}

const value = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 20 }) },
  {
    weight: 1,
    arbitrary: fc.uint8Array({ maxLength: 12 }).map((b) =>
      [...b].map((x) => `%${x.toString(16).padStart(2, "0")}`).join("")
    ),
  },
);

function rowQuery(path: string): fc.Arbitrary<string> {
  const params = ROWS.filter((r) => r.path === path).flatMap((r) => r.params);
  const names = [...new Set(params.map((p) => p.name)), ...PARAM_NAMES.slice(0, 3)];
  const enumValues = params.flatMap((p) => p.values ?? []);
  const one = fc.tuple(
    fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...names) },
      { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
    ),
    fc.option(
      enumValues.length > 0 ? fc.oneof(fc.constantFrom(...enumValues), value) : value,
      { nil: undefined },
    ),
  ).map(([k, v]) => (v === undefined ? enc(k) : `${enc(k)}=${v.startsWith("%") ? v : enc(v)}`));
  return fc.array(one, { maxLength: 5 }).map((a) => a.join("&"));
}

/** One generated admin request. */
export interface AdminInput {
  method: string;
  path: string;
  query: string;
  fragment: string;
  headers: Record<string, string>;
  body?: string;
}

const pathArb = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...PATHS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }).map((s) => "/" + enc(s)) },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.constantFrom(...PATHS), fc.constantFrom("/", "//", "x", "%2f", "/.."))
      .map((
        [p, s],
      ) => p + s),
  },
);

const inputArb: fc.Arbitrary<AdminInput> = pathArb.chain((path) =>
  fc.record({
    method: fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom("GET", "POST") },
      { weight: 1, arbitrary: fc.constantFrom("PUT", "DELETE", "HEAD", "OPTIONS", "PATCH", "FOO") },
    ),
    path: fc.constant(path),
    query: fc.oneof(
      { weight: 6, arbitrary: rowQuery(path) },
      { weight: 1, arbitrary: fc.string({ maxLength: 60 }).map(enc) },
      { weight: 1, arbitrary: fc.constant("") },
    ),
    fragment: fc.oneof(
      { weight: 9, arbitrary: fc.constant("") },
      { weight: 1, arbitrary: fc.string({ maxLength: 10 }).map((s) => "#" + enc(s)) },
    ),
    headers: fc.record({
      "content-type": fc.constantFrom(
        "",
        "application/x-www-form-urlencoded",
        "application/json",
        "text/yaml",
        "multipart/form-data; boundary=x",
        "\u00ff",
      ),
    }, { requiredKeys: [] }).map((h) =>
      Object.fromEntries(Object.entries(h).filter(([, v]) => v !== "" && /^[\x20-\x7e]*$/.test(v)))
    ),
    body: fc.option(
      fc.oneof(
        fc.string({ maxLength: 80 }),
        fc.constantFrom(
          "{}",
          "config_id: x",
          '{"config_id":"x","tap_config":{"match":{"any_match":true},"output_config":{"sinks":[{"streaming_admin":{}}]}}}',
          "a: &a [1,2]\nb: [*a,*a]",
          "level=debug&paths=admin:trace",
          "filter=%28",
        ),
      ),
      { nil: undefined },
    ),
  })
);

function fuzzContext(profileDir: string) {
  const hosts = [testHost("127.0.0.1", 8080), testHost("::1", 8081)];
  const ctx = testContext({
    features: [
      "health_check_filter",
      "cpu_profiler",
      "heap_profiler",
      "mutex_tracing",
      "dashboard_sink",
      "tap",
    ],
    clusters: [testCluster("alpha", hosts), testCluster("beta", [])],
    listeners: [testListener("ingress", 10000, "INBOUND"), testListener("egress", 10001)],
    bootstrap: {
      admin: { profile_path: `${profileDir}/proxy.prof` },
      layered_runtime: {
        layers: [{ name: "static", static_layer: { a: { b: 1 } } }, {
          name: "admin",
          admin_layer: {},
        }],
      },
      node: { id: "fuzz", metadata: { k: "v" } },
    },
  });
  for (let i = 0; i < 50; i++) ctx.stats.counter(`cluster.alpha.upstream_rq_${200 + i}`).inc(i);
  ctx.stats.histogram("cluster.alpha.upstream_rq_time").record(5);
  ctx.stats.textReadout("server.version_text").set("fuzz");
  return ctx;
}

/** Reads at most `max` bytes of a body, and gives up on a stream that pauses (event streams). */
async function drain(res: Response, max = 4 << 20): Promise<void> {
  if (!res.body) return;
  const reader = res.body.getReader();
  let size = 0;
  for (;;) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stall = new Promise<"stall">((r) => timer = setTimeout(() => r("stall"), 20));
    const next = await Promise.race([reader.read(), stall]);
    clearTimeout(timer);
    if (next === "stall" || next.done) break;
    size += next.value.byteLength;
    if (size > max) break;
  }
  await reader.cancel().catch(() => {});
}

function describeInput(i: AdminInput): string {
  return JSON.stringify(
    i,
    (_k, v) => typeof v === "string" && v.length > 200 ? `${v.slice(0, 200)}…(${v.length})` : v,
  );
}

async function run(runs: number, seed: number): Promise<FuzzReport> {
  const profileDir = await Deno.makeTempDir({ prefix: "proxyspec-fuzz-" });
  const ctx = fuzzContext(profileDir);
  const route = createAdminRouter(ctx, {
    handlers: ADMIN_HANDLERS,
    guard: adminRequestGuard(ctx, () => "127.0.0.1:9901"),
  });
  const failures: FuzzFailure[] = [];
  let requests = 0, fivexx = 0, crashes = 0;
  const byClass: Record<string, number> = {};
  try {
    await fc.assert(
      fc.asyncProperty(inputArb, async (input) => {
        let req: Request;
        try {
          req = new Request(
            `http://127.0.0.1:9901${input.path}${
              input.query ? "?" + input.query : ""
            }${input.fragment}`,
            {
              method: input.method,
              headers: input.headers,
              body: input.method === "GET" || input.method === "HEAD" ? undefined : input.body,
            },
          );
        } catch {
          return true; // not a request any client could send
        }
        requests++;
        try {
          const res = await route(req);
          const stateAnswer = res.status === 503 && new URL(req.url).pathname === "/ready" &&
            ctx.state() !== "LIVE";
          const cls = stateAnswer
            ? "/ready 503 while not LIVE"
            : `${Math.floor(res.status / 100)}xx answers`;
          byClass[cls] = (byClass[cls] ?? 0) + 1;
          if (res.status >= 500 && !stateAnswer) {
            fivexx++;
            recordFailure(
              failures,
              describeInput(input),
              `${res.status}: ${(await res.text()).slice(0, 300)}`,
            );
          } else await drain(res);
        } catch (e) {
          crashes++;
          recordFailure(failures, describeInput(input), e);
        }
        return true;
      }),
      { seed, numRuns: runs, endOnFailure: true },
    );
    ctx.healthCheckFailed = false;
    const ready = await route(new Request("http://127.0.0.1:9901/ready"));
    if (ready.status !== 200) recordFailure(failures, "GET /ready at the end", `${ready.status}`);
    await ready.body?.cancel();
  } finally {
    closeHystrixStreams(ctx);
    detachTap(ctx);
    await stopProfilers(ctx);
    await Deno.remove(profileDir, { recursive: true });
  }
  return {
    target: "admin",
    runs,
    seed,
    figures: { "admin requests": requests, "5xx": fivexx, crashes, ...byClass },
    failures,
  };
}

/** The `admin` fuzz target. */
export const ADMIN_TARGET: FuzzTarget = {
  describe: "random requests through the admin router (every endpoint row, methods, queries)",
  run,
};
