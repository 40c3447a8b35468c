import assert from "node:assert/strict";
import { Host } from "../host.ts";
import { Store } from "../../stats/store.ts";
import { OutlierConfig } from "./outlier_config.ts";
import { OutlierDetector } from "./outlier_detector.ts";
import { OutlierEventLog } from "./outlier_event_log.ts";
import type { JsonObject } from "../../config/bootstrap_types.ts";

function hosts(n: number): Host[] {
  return Array.from({ length: n }, (_, i) =>
    new Host({
      address: "127.0.0.1",
      port: 3000 + i,
      hostname: "",
      weight: 1,
      priority: 0,
      region: "",
      zone: "",
      sub_zone: "",
      metadata: {},
    }));
}

async function withLog(
  od: JsonObject,
  n: number,
  fn: (t: { hs: Host[]; d: OutlierDetector; advance(ms: number): void }) => void,
): Promise<Record<string, unknown>[]> {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/outlier.log`;
  const log = new OutlierEventLog(path, () => new Date(Date.UTC(2026, 0, 2, 3, 4, 5)));
  const hs = hosts(n);
  let now = 0;
  const d = new OutlierDetector(
    new OutlierConfig(od, null),
    new Store().scope("cluster").scope("web"),
    { hosts: () => hs, healthChanged: () => {} },
    { now: () => now, random: () => 0, timer: false, eventLog: { log, cluster: "web" } },
  );
  try {
    fn({ hs, d, advance: (ms) => now += ms });
  } finally {
    log.close();
  }
  const text = await Deno.readTextFile(path).catch(() => "");
  await Deno.remove(dir, { recursive: true });
  return text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
}

Deno.test("cluster.fields.outlier-detection: the event log has one line per ejection and return, as Envoy writes OutlierDetectionEvent", async () => {
  const lines = await withLog(
    { consecutive_5xx: 2, base_ejection_time: "10s", max_ejection_percent: 100 },
    2,
    ({ hs, d, advance }) => {
      d.putHttpResponseCode(hs[0], 503);
      d.putHttpResponseCode(hs[0], 503);
      advance(12_000);
      d.runInterval();
      advance(3_000);
      d.putHttpResponseCode(hs[0], 500);
      d.putHttpResponseCode(hs[0], 500);
    },
  );
  assert.deepEqual(lines, [
    {
      type: "CONSECUTIVE_5XX",
      timestamp: "2026-01-02T03:04:05.000Z",
      cluster_name: "web",
      upstream_url: "127.0.0.1:3000",
      action: "EJECT",
      num_ejections: 1,
      enforced: true,
      eject_consecutive_event: {},
    },
    {
      type: "CONSECUTIVE_5XX",
      timestamp: "2026-01-02T03:04:05.000Z",
      secs_since_last_action: "12",
      cluster_name: "web",
      upstream_url: "127.0.0.1:3000",
      action: "UNEJECT",
      num_ejections: 1,
      enforced: false,
    },
    {
      type: "CONSECUTIVE_5XX",
      timestamp: "2026-01-02T03:04:05.000Z",
      secs_since_last_action: "3",
      cluster_name: "web",
      upstream_url: "127.0.0.1:3000",
      action: "EJECT",
      num_ejections: 2,
      enforced: true,
      eject_consecutive_event: {},
    },
  ]);
});

Deno.test("cluster.fields.outlier-detection: success-rate and unenforced ejections are logged with their figures and enforced false", async () => {
  const lines = await withLog(
    {
      consecutive_5xx: 1000,
      consecutive_gateway_failure: 2,
      enforcing_consecutive_gateway_failure: 0,
      success_rate_minimum_hosts: 3,
      success_rate_request_volume: 10,
      success_rate_stdev_factor: 1000,
      max_ejection_percent: 100,
    },
    3,
    ({ hs, d }) => {
      for (let i = 0; i < 10; i++) {
        d.putHttpResponseCode(hs[0], 200);
        d.putHttpResponseCode(hs[1], 200);
        d.putHttpResponseCode(hs[2], i < 8 ? 200 : 503);
      }
      d.runInterval();
    },
  );
  assert.equal(lines.length, 2);
  assert.equal(lines[0].type, "CONSECUTIVE_GATEWAY_FAILURE");
  assert.equal(lines[0].enforced, false);
  assert.equal(lines[0].num_ejections, 0);
  assert.deepEqual(lines[1].eject_success_rate_event, {
    host_success_rate: 80,
    cluster_average_success_rate: 93,
    cluster_success_rate_ejection_threshold: 83,
  });
  assert.equal(lines[1].type, "SUCCESS_RATE");
  assert.equal(lines[1].upstream_url, "127.0.0.1:3002");
  assert.equal(lines[1].enforced, true);
});
