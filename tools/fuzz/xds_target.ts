/**
 * Fuzz target `xds`: mutated xDS resources (Cluster, ClusterLoadAssignment, Listener,
 * RouteConfiguration) pushed over ADS (gRPC on loopback; one proxy in process on a state of the
 * world stream, one on an incremental stream that now and then also removes a resource), so they
 * take the path every control-plane update takes: the stream's `Any` decoding (`src/config/xds_mux.ts`), then the cluster, endpoint, listener and route
 * managers' validation and apply (`ClusterManager`, `EdsUpdater`, `ListenerManager`,
 * `subscribeRds`), with ACK or NACK back. A mutation changes the proto JSON of a valid resource
 * (a value replaced by one of another kind, a key dropped or renamed, a list element repeated,
 * deep nesting) before it is packed, or changes bytes of the packed `Any` value (flip, insert,
 * delete, duplicate, truncate), or both, or sends a resource of another type. Some inputs (and
 * every proto JSON no control plane could pack) go instead to a third proxy whose sources are
 * files (`path_config_source`): there the managers read the proto JSON itself.
 *
 * Expectations: nothing throws out of the proxy (no unhandled error or rejection), every push is
 * answered, every NACK's `error_detail` starts with the field path of what it refuses
 * (`resources[i]...`), and a NACKed push leaves the proxy's state (`/config_dump` with
 * endpoints) exactly as it was. After an accepted mutation the seed state is pushed again.
 *
 * @module
 */
import fc from "fast-check";
import type { JsonObject } from "../../src/config/bootstrap_types.ts";
import { type AnyBytes, jsonToAny } from "../../src/config/proto_registry.ts";
import { TYPE_URLS } from "../../src/config/xds_wire.ts";
import { parseArgs } from "../../src/config/args.ts";
import { createLogging } from "../../src/server/logger.ts";
import { type RunningServer, startServer } from "../../src/server/server.ts";
import { ADMIN } from "../../src/admin/mod.ts";
import { adsBootstrap } from "../xds_testing.ts";
import { applyEdits, byteOps, edit, mutateBytes } from "./bootstrap_target.ts";
import {
  type FuzzControlPlane,
  type PushReply,
  startFuzzControlPlane,
} from "./xds_control_plane.ts";
import { resourceName } from "../../src/config/xds_mux.ts";
import { type FuzzFailure, type FuzzReport, type FuzzTarget, recordFailure } from "./target.ts";

type Kind = keyof typeof TYPE_URLS;

const address = (port: number) => ({ socket_address: { address: "127.0.0.1", port_value: port } });
const ads = { ads: {}, resource_api_version: "V3" };

/**
 * The valid resources each type starts from and returns to, as proto JSON with `@type`; `source`
 * says where the EDS cluster's endpoints and the listener's routes come from (`null`: ADS).
 */
export function xdsSeeds(files: string | null): Readonly<Record<Kind, JsonObject[]>> {
  const from = (kind: Kind) => files === null ? ads : { path: `${files}/${kind}.json` };
  return {
    cds: [
      {
        "@type": TYPE_URLS.cds,
        name: "fz_static",
        connect_timeout: "1s",
        type: "STATIC",
        lb_policy: "LEAST_REQUEST",
        load_assignment: {
          cluster_name: "fz_static",
          endpoints: [{ lb_endpoints: [{ endpoint: { address: address(9) } }] }],
        },
        circuit_breakers: { thresholds: [{ priority: "DEFAULT", max_connections: 10 }] },
        outlier_detection: { consecutive_5xx: 3, interval: "5s" },
        per_connection_buffer_limit_bytes: 32768,
      },
      {
        "@type": TYPE_URLS.cds,
        name: "fz_eds",
        connect_timeout: "0.5s",
        type: "EDS",
        eds_cluster_config: { eds_config: from("eds") },
      },
    ],
    eds: [{
      "@type": TYPE_URLS.eds,
      cluster_name: "fz_eds",
      endpoints: [
        {
          locality: { region: "r", zone: "z" },
          priority: 0,
          load_balancing_weight: 3,
          lb_endpoints: [
            { endpoint: { address: address(9) }, load_balancing_weight: 2 },
            { endpoint: { address: address(7) }, health_status: "UNHEALTHY" },
          ],
        },
        { priority: 1, lb_endpoints: [{ endpoint: { address: address(13) } }] },
      ],
    }],
    lds: [{
      "@type": TYPE_URLS.lds,
      name: "fz_listener",
      address: address(0),
      filter_chains: [{
        filters: [{
          name: "envoy.filters.network.http_connection_manager",
          typed_config: {
            "@type": "type.googleapis.com/envoy.extensions.filters.network." +
              "http_connection_manager.v3.HttpConnectionManager",
            stat_prefix: "fz",
            rds: { route_config_name: "fz_routes", config_source: from("rds") },
            http_filters: [{
              name: "envoy.filters.http.router",
              typed_config: {
                "@type": "type.googleapis.com/envoy.extensions.filters.http.router.v3.Router",
              },
            }],
          },
        }],
      }],
    }],
    rds: [{
      "@type": TYPE_URLS.rds,
      name: "fz_routes",
      virtual_hosts: [{
        name: "fz",
        domains: ["*"],
        routes: [
          {
            match: { safe_regex: { regex: "^/r[0-9]+$" } },
            route: { cluster: "fz_eds", timeout: "2s", prefix_rewrite: "/" },
          },
          {
            match: { prefix: "/h", headers: [{ name: "x-a", string_match: { exact: "b" } }] },
            route: { cluster: "fz_static", retry_policy: { retry_on: "5xx", num_retries: 2 } },
          },
          {
            match: { prefix: "/" },
            direct_response: { status: 200, body: { inline_string: "ok" } },
          },
        ],
      }],
    }],
  };
}

const KINDS = Object.keys(TYPE_URLS) as Kind[];

const input = fc.record({
  kind: fc.constantFrom(...KINDS),
  via: fc.constantFrom<"ads" | "delta" | "file">("ads", "delta", "file"),
  form: fc.constantFrom("json", "json", "binary", "both", "wrong-type"),
  pick: fc.nat(),
  edits: fc.array(edit, { minLength: 1, maxLength: 3 }),
  ops: byteOps,
});

/** Whether a NACK's message starts with the field path of what it refuses. */
export function nackIsLocated(message: string): boolean {
  return /^resources(?:\[\d+\])?(?:[.[:]|$)/.test(message);
}

/** The stats scope of each type's subscription in the proxy fed from files. */
const FILE_SCOPE: Record<Kind, string> = {
  cds: "cluster_manager.cds",
  eds: "cluster.fz_eds",
  lds: "listener_manager.lds",
  rds: "http.fz.rds.fz_routes",
};

/** A proxy started in process, with its log lines kept. */
interface Proxy {
  running: RunningServer;
  admin: string;
  log: string[];
  close(): Promise<void>;
}

async function startProxy(bootstrap: JsonObject): Promise<Proxy> {
  const options = parseArgs(["--config-yaml", "{}"]);
  const log: string[] = [];
  const logging = createLogging(options, {
    sink: { write: (l) => void log.push(l.trimEnd()), reopen: () => Promise.resolve(), close() {} },
  });
  let running: RunningServer;
  try {
    running = await startServer(options, bootstrap, { signals: false, logging, admin: ADMIN });
  } catch (e) {
    logging.close();
    throw e;
  }
  return {
    running,
    admin: `http://${running.adminAddress}`,
    log,
    close: async () => {
      await running.shutdown();
      await running.finished;
      logging.close();
    },
  };
}

/**
 * What a NACK must not change: the configuration as `/config_dump` shows it (endpoints too), and
 * what the listener answers (routes as served, not only as dumped).
 */
async function state(p: Proxy): Promise<string> {
  const dump = await (await fetch(`${p.admin}/config_dump?include_eds`)).text();
  const port = p.running.context.listeners.listeners()
    .find((l) => l.name === "fz_listener" && !l.stopped)?.port;
  if (!port) return dump;
  const answers: string[] = [];
  for (const path of ["/", "/r1"]) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}${path}`, {
        signal: AbortSignal.timeout(5000),
      });
      answers.push(`${path}: ${r.status} ${await r.text()}`);
    } catch (e) {
      answers.push(`${path}: ${(e as Error).name}`);
    }
  }
  return `${dump}\n${answers.join("\n")}`;
}

async function counters(p: Proxy, scope: string): Promise<Record<string, number>> {
  const filter = encodeURIComponent(`^${scope.replaceAll(".", "\\.")}\\.update_`);
  const text = await (await fetch(`${p.admin}/stats?filter=${filter}`)).text();
  const out: Record<string, number> = { attempt: 0, success: 0, rejected: 0, failure: 0 };
  for (const line of text.split("\n")) {
    const m = /\.update_(\w+): (\d+)$/.exec(line);
    if (m) out[m[1]] = Number(m[2]);
  }
  return out;
}

/**
 * Waits (up to 5 s) until nothing is warming: a cluster or listener an accepted update brought
 * becomes active on its own time, which is no change a later NACK may be blamed for.
 */
async function quiet(p: Proxy): Promise<void> {
  const filter = encodeURIComponent(
    "^(cluster_manager\\.warming_clusters|listener_manager\\.total_listeners_warming)$",
  );
  const end = Date.now() + 5000;
  while (Date.now() < end) {
    const text = await (await fetch(`${p.admin}/stats?filter=${filter}`)).text();
    if (text.split("\n").every((l) => l === "" || l.endsWith(": 0"))) return;
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** The first line where two states differ, both ways, for the failure report. */
export function firstDifference(before: string, after: string): string {
  const a = before.split("\n"), b = after.split("\n");
  const i = a.findIndex((line, k) => line !== b[k]);
  const at = i < 0 ? a.length : i;
  return `line ${at + 1}: ${JSON.stringify(a[at] ?? "")} became ${JSON.stringify(b[at] ?? "")}`;
}

/** The proxy fed from files: one `DiscoveryResponse` file per type in `dir`. */
class FileSide {
  constructor(readonly dir: string, readonly proxy: Proxy | null = null) {}

  write(kind: Kind, resources: unknown[], version: string) {
    const file = `${this.dir}/${kind}.json`;
    Deno.writeTextFileSync(`${file}.tmp`, JSON.stringify({ version_info: version, resources }));
    Deno.renameSync(`${file}.tmp`, file);
  }

  /** Writes the file of `kind`; resolves with the proxy's answer (null: none within 5 s). */
  async push(kind: Kind, resources: unknown[], version: string): Promise<PushReply | null> {
    const p = this.proxy!;
    const before = await counters(p, FILE_SCOPE[kind]);
    const lines = p.log.length;
    this.write(kind, resources, version);
    const end = Date.now() + 5000;
    while (Date.now() < end) {
      await new Promise((r) => setTimeout(r, 10));
      const now = await counters(p, FILE_SCOPE[kind]);
      if (now.attempt === before.attempt) continue;
      if (now.success > before.success) return { version_info: version };
      const file = `${this.dir}/${kind}.json`;
      const why = p.log.slice(lines).map((l) =>
        /config update from \S+ rejected: (.*)$/.exec(l)?.[1] ??
          /config update failure: (.*)$/.exec(l)?.[1]
      ).find((x) =>
        x !== undefined
      ) ?? "(no reason logged)";
      return {
        error: why.startsWith(`${file}: `) ? why.slice(file.length + 2) : why,
        version_info: "",
      };
    }
    return null;
  }
}

async function run(runs: number, seed: number): Promise<FuzzReport> {
  const failures: FuzzFailure[] = [];
  let pushes = 0, acks = 0, nacks = 0, unanswered = 0, uncaught = 0, unlocated = 0;
  let changedOnNack = 0, fromFiles = 0, incremental = 0;
  let current = "";
  const onError = (e: ErrorEvent | PromiseRejectionEvent) => {
    e.preventDefault();
    uncaught++;
    recordFailure(failures, current, "reason" in e ? e.reason : e.error);
  };
  addEventListener("error", onError);
  addEventListener("unhandledrejection", onError);
  const dir = await Deno.makeTempDir({ prefix: "proxyspec-fuzz-xds-" });
  const adsSeeds = xdsSeeds(null);
  const fileSeeds = xdsSeeds(dir);
  const seedAnys = (kind: Kind) => adsSeeds[kind].map(jsonToAny);
  const seedNames = (kind: Kind) => adsSeeds[kind].map(resourceName);
  const sotw = await startFuzzControlPlane();
  const delta = await startFuzzControlPlane(true);
  let version = 0;
  /**
   * Pushes the seed of `kind` over ADS (incremental: with `gone` removed); throws when the proxy
   * does not take it.
   */
  const pushSeed = async (cp: FuzzControlPlane, kind: Kind, gone: string[] = []) => {
    const d = cp === delta ? { names: seedNames(kind), removed: gone } : undefined;
    const r = await cp.push(TYPE_URLS[kind], seedAnys(kind), `seed-${++version}`, d);
    if (!r || r.error !== undefined) {
      throw new Error(`the seed ${kind} was not accepted: ${r ? r.error : "no answer"}`);
    }
    await cp.settled();
  };
  for (const cp of [sotw, delta]) {
    for (const k of KINDS) void cp.subscribed(TYPE_URLS[k]).then(() => pushSeed(cp, k));
  }
  let files = new FileSide(dir);
  for (const k of KINDS) files.write(k, fileSeeds[k], "seed-0");
  let adsProxy: Proxy | null = null;
  let deltaProxy: Proxy | null = null;
  try {
    adsProxy = await startProxy(adsBootstrap(sotw.port, { lds: true }));
    deltaProxy = await startProxy(
      adsBootstrap(delta.port, { lds: true, apiType: "DELTA_GRPC" }),
    );
    files = new FileSide(
      dir,
      await startProxy({
        admin: { address: address(0) },
        dynamic_resources: {
          cds_config: { path_config_source: { path: `${dir}/cds.json` } },
          lds_config: { path_config_source: { path: `${dir}/lds.json` } },
        },
      }),
    );
    const proxies = { ads: adsProxy, delta: deltaProxy, file: files.proxy! };
    for (const cp of [sotw, delta]) {
      await cp.subscribed(TYPE_URLS.rds);
      await cp.settled();
    }
    await fc.assert(
      fc.asyncProperty(input, async (i) => {
        const typeUrl = TYPE_URLS[i.kind];
        let via = i.via;
        const seeds = (via === "file" ? fileSeeds : adsSeeds)[i.kind];
        const at = i.pick % seeds.length;
        let json: JsonObject = seeds[at];
        let sent: unknown[];
        let shown: string;
        if (i.form === "wrong-type") {
          const other = KINDS[(KINDS.indexOf(i.kind) + 1 + i.pick % 3) % KINDS.length];
          json = (via === "file" ? fileSeeds : adsSeeds)[other][0];
          shown = `${i.kind} via ${via}: resources[${at}] is a ${other} resource`;
        } else {
          if (i.form !== "binary") json = applyEdits(seeds[at], i.edits);
          shown = `${i.kind} ${i.form} via ${via} resources[${at}]: ${
            i.form === "binary" ? "(the seed)" : JSON.stringify(json).slice(0, 600)
          }${i.form === "json" ? "" : ` bytes ${JSON.stringify(i.ops)}`}`;
        }
        let gone: string[] = [];
        if (via !== "file") {
          try {
            const anys = seedAnys(i.kind);
            let any = i.form === "wrong-type" ? jsonToAny(json) : anys[at];
            if (i.form === "json" || i.form === "both") {
              any = jsonToAny({ ...json, "@type": typeUrl });
            }
            if (i.form === "binary" || i.form === "both") {
              any = { ...any, value: mutateBytes(any.value, i.ops) };
            }
            anys[at] = any;
            sent = anys;
          } catch {
            // Proto JSON no control plane can pack: the proxy reads it from a file instead.
            via = "file";
            sent = [];
          }
        } else sent = [];
        if (via === "delta") {
          incremental++;
          // Now and then the response also removes a resource.
          if (i.pick % 5 === 0) gone = [seedNames(i.kind)[(at + 1) % seeds.length]];
          if (gone.length) shown += ` removing ${gone[0]}`;
        }
        if (via === "file") {
          fromFiles++;
          const list: unknown[] = [...fileSeeds[i.kind]];
          const fileJson = i.via !== "file" && i.form !== "wrong-type"
            ? applyEdits(fileSeeds[i.kind][at], i.edits)
            : json;
          list[at] = fileJson;
          sent = list;
          shown = shown.replace(/ via (ads|delta)/, " via file");
        }
        // Now and then the response carries the resource twice.
        const twice = i.pick % 7 === 3;
        if (twice) {
          sent.push(sent[at]);
          shown += " (twice)";
        }
        current = shown;
        const target = proxies[via];
        const cp = via === "delta" ? delta : sotw;
        await quiet(target);
        const before = await state(target);
        pushes++;
        const names = seedNames(i.kind);
        if (twice) names.push(names[at]);
        const reply = via === "file"
          ? await files.push(i.kind, sent, `fuzz-${++version}`)
          : await cp.push(
            typeUrl,
            sent as AnyBytes[],
            `fuzz-${++version}`,
            via === "delta" ? { names, removed: gone } : undefined,
          );
        if (via !== "file") await cp.settled();
        if (reply === null) {
          unanswered++;
          recordFailure(failures, shown, new Error("no ACK or NACK within 5 s"));
          return true;
        }
        if (reply.error === undefined) {
          acks++;
          if (via !== "file") {
            // Incremental state keeps what the mutation added: resources under other names go.
            const added = via === "delta" && i.form !== "binary" ? resourceName(json) : "";
            await pushSeed(cp, i.kind, added && !names.includes(added) ? [added] : []);
          } else {
            const r = await files.push(i.kind, fileSeeds[i.kind], `seed-${++version}`);
            if (!r || r.error !== undefined) {
              throw new Error(`the seed ${i.kind} file was not accepted: ${r?.error}`);
            }
          }
          return true;
        }
        nacks++;
        if (!nackIsLocated(reply.error)) {
          unlocated++;
          recordFailure(failures, shown, new Error(`NACK without a field path: ${reply.error}`));
        }
        const after = await state(target);
        if (after !== before) {
          changedOnNack++;
          recordFailure(
            failures,
            shown,
            new Error(
              `state changed by a NACKed update (${reply.error.slice(0, 300)}): ${
                firstDifference(before, after)
              }`,
            ),
          );
        }
        return true;
      }),
      { seed, numRuns: runs, endOnFailure: true },
    );
    for (const x of Object.values(proxies)) {
      const ready = await fetch(`${x.admin}/ready`);
      await ready.body?.cancel();
      if (ready.status !== 200) {
        recordFailure(failures, "after the run", new Error(`/ready answered ${ready.status}`));
      }
    }
  } catch (e) {
    uncaught++;
    recordFailure(failures, current || "start-up", e);
  } finally {
    await adsProxy?.close();
    await deltaProxy?.close();
    await files.proxy?.close();
    await sotw.close();
    await delta.close();
    await Deno.remove(dir, { recursive: true });
    removeEventListener("error", onError);
    removeEventListener("unhandledrejection", onError);
  }
  return {
    target: "xds",
    runs,
    seed,
    figures: {
      "pushed updates": pushes,
      "of them incremental": incremental,
      "of them from files": fromFiles,
      acks,
      nacks,
      uncaught,
      unanswered,
      "NACKs without a path": unlocated,
      "states changed by a NACK": changedOnNack,
    },
    failures,
  };
}

/** The `xds` fuzz target. */
export const XDS_TARGET: FuzzTarget = {
  describe: "mutated Cluster, CLA, Listener and RouteConfiguration resources over ADS and files",
  run,
};
