/**
 * Fuzz target `xds`: mutated xDS resources (Cluster, ClusterLoadAssignment, Listener,
 * RouteConfiguration) pushed over an ADS stream (state of the world, gRPC on loopback) to a proxy
 * running in process, so they take the path every control-plane update takes: the stream's
 * `Any` decoding (`src/config/xds_mux.ts`), then the cluster, endpoint, listener and route
 * managers' validation and apply (`ClusterManager`, `EdsUpdater`, `ListenerManager`,
 * `subscribeRds`), with ACK or NACK back. A mutation changes the proto JSON of a valid resource
 * (a value replaced by one of another kind, a key dropped or renamed, a list element repeated,
 * deep nesting) before it is packed, or changes bytes of the packed `Any` value (flip, insert,
 * delete, duplicate, truncate), or both, or sends a resource of another type.
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
import { adsBootstrap, startTestProxy, type TestProxy } from "../xds_testing.ts";
import { applyEdits, byteOps, edit, mutateBytes } from "./bootstrap_target.ts";
import { type FuzzControlPlane, startFuzzControlPlane } from "./xds_control_plane.ts";
import { type FuzzFailure, type FuzzReport, type FuzzTarget, recordFailure } from "./target.ts";

type Kind = keyof typeof TYPE_URLS;

const address = (port: number) => ({ socket_address: { address: "127.0.0.1", port_value: port } });
const ads = { ads: {}, resource_api_version: "V3" };

/** The valid resources each type starts from and returns to, as proto JSON with `@type`. */
export const XDS_SEEDS: Readonly<Record<Kind, JsonObject[]>> = {
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
      eds_cluster_config: { eds_config: ads },
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
          rds: { route_config_name: "fz_routes", config_source: ads },
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
        { match: { prefix: "/" }, direct_response: { status: 200, body: { inline_string: "ok" } } },
      ],
    }],
  }],
};

const KINDS = Object.keys(TYPE_URLS) as Kind[];

const input = fc.record({
  kind: fc.constantFrom(...KINDS),
  form: fc.constantFrom("json", "json", "binary", "both", "wrong-type"),
  pick: fc.nat(),
  edits: fc.array(edit, { minLength: 1, maxLength: 3 }),
  ops: byteOps,
});

/** Whether a NACK's message starts with the field path of what it refuses. */
export function nackIsLocated(message: string): boolean {
  return /^resources(?:\[\d+\])?(?:[.[:]|$)/.test(message);
}

const seedAnys = (kind: Kind) => XDS_SEEDS[kind].map(jsonToAny);

async function state(p: TestProxy): Promise<string> {
  return await (await fetch(`${p.admin}/config_dump?include_eds`)).text();
}

/** Pushes the seed of `kind`; throws when the proxy does not take it. */
async function pushSeed(cp: FuzzControlPlane, kind: Kind, version: string) {
  const r = await cp.push(TYPE_URLS[kind], seedAnys(kind), version);
  if (!r || r.error !== undefined) {
    throw new Error(`the seed ${kind} was not accepted: ${r ? r.error : "no answer"}`);
  }
  await cp.settled();
}

async function run(runs: number, seed: number): Promise<FuzzReport> {
  const failures: FuzzFailure[] = [];
  let pushes = 0, acks = 0, nacks = 0, unanswered = 0, uncaught = 0, unlocated = 0;
  let changedOnNack = 0, unencodable = 0;
  let current = "";
  const onError = (e: ErrorEvent | PromiseRejectionEvent) => {
    e.preventDefault();
    uncaught++;
    recordFailure(failures, current, "reason" in e ? e.reason : e.error);
  };
  addEventListener("error", onError);
  addEventListener("unhandledrejection", onError);
  const cp = await startFuzzControlPlane();
  let version = 0;
  void cp.subscribed(TYPE_URLS.cds).then(() => pushSeed(cp, "cds", `seed-${++version}`));
  void cp.subscribed(TYPE_URLS.eds).then(() => pushSeed(cp, "eds", `seed-${++version}`));
  void cp.subscribed(TYPE_URLS.lds).then(() => pushSeed(cp, "lds", `seed-${++version}`));
  void cp.subscribed(TYPE_URLS.rds).then(() => pushSeed(cp, "rds", `seed-${++version}`));
  let proxy: TestProxy | null = null;
  try {
    proxy = await startTestProxy(adsBootstrap(cp.port, { lds: true }));
    const p = proxy;
    await cp.subscribed(TYPE_URLS.rds);
    await cp.settled();
    await fc.assert(
      fc.asyncProperty(input, async (i) => {
        const typeUrl = TYPE_URLS[i.kind];
        const seeds = XDS_SEEDS[i.kind];
        const at = i.pick % seeds.length;
        let resources: AnyBytes[];
        let shown: string;
        try {
          const anys = seedAnys(i.kind);
          if (i.form === "wrong-type") {
            const other = KINDS[(KINDS.indexOf(i.kind) + 1 + i.pick % 3) % KINDS.length];
            anys[at] = seedAnys(other)[0];
            shown = `${i.kind}: resources[${at}] is a ${other} resource`;
          } else {
            let any = anys[at];
            let json: JsonObject = seeds[at];
            if (i.form !== "binary") {
              json = applyEdits(seeds[at], i.edits);
              any = jsonToAny({ ...json, "@type": typeUrl });
            }
            if (i.form !== "json") any = { ...any, value: mutateBytes(any.value, i.ops) };
            anys[at] = any;
            shown = `${i.kind} ${i.form} resources[${at}]: ${
              i.form === "binary" ? "" : JSON.stringify(json).slice(0, 1500)
            }${i.form === "json" ? "" : ` bytes ${JSON.stringify(i.ops)}`}`;
          }
          resources = anys;
        } catch {
          unencodable++; // proto JSON that no control plane can pack
          return true;
        }
        current = shown;
        const before = await state(p);
        pushes++;
        const reply = await cp.push(typeUrl, resources, `fuzz-${++version}`);
        await cp.settled();
        if (reply === null) {
          unanswered++;
          recordFailure(failures, shown, new Error("no ACK or NACK within 5 s"));
          return true;
        }
        if (reply.error === undefined) {
          acks++;
          await pushSeed(cp, i.kind, `seed-${++version}`);
          return true;
        }
        nacks++;
        if (!nackIsLocated(reply.error)) {
          unlocated++;
          recordFailure(failures, shown, new Error(`NACK without a field path: ${reply.error}`));
        }
        const after = await state(p);
        if (after !== before) {
          changedOnNack++;
          recordFailure(
            failures,
            shown,
            new Error(`state changed by a NACKed update (${reply.error.slice(0, 300)})`),
          );
        }
        return true;
      }),
      { seed, numRuns: runs, endOnFailure: true },
    );
    const ready = await fetch(`${p.admin}/ready`);
    await ready.body?.cancel();
    if (ready.status !== 200) {
      recordFailure(failures, "after the run", new Error(`/ready answered ${ready.status}`));
    }
  } catch (e) {
    uncaught++;
    recordFailure(failures, current || "start-up", e);
  } finally {
    await proxy?.close();
    await cp.close();
    removeEventListener("error", onError);
    removeEventListener("unhandledrejection", onError);
  }
  return {
    target: "xds",
    runs,
    seed,
    figures: {
      "pushed updates": pushes,
      acks,
      nacks,
      uncaught,
      unanswered,
      "NACKs without a path": unlocated,
      "states changed by a NACK": changedOnNack,
      "unencodable inputs": unencodable,
    },
    failures,
  };
}

/** The `xds` fuzz target. */
export const XDS_TARGET: FuzzTarget = {
  describe: "mutated Cluster, CLA, Listener and RouteConfiguration resources pushed over ADS",
  run,
};
