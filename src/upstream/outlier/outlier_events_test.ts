import assert from "node:assert/strict";
import fc from "fast-check";
import { Host } from "../host.ts";
import { Store } from "../../stats/store.ts";
import { OutlierConfig } from "./outlier_config.ts";
import { type LocalResult, OutlierDetector } from "./outlier_detector.ts";
import { OutlierEventRecorder, replayOutlierEvents } from "./outlier_events.ts";
import type { JsonObject } from "../../config/bootstrap_types.ts";

function hosts(n: number): Host[] {
  return Array.from({ length: n }, (_, i) =>
    new Host({
      address: "127.0.0.1",
      port: 2000 + i,
      hostname: "",
      weight: 1,
      priority: 0,
      region: "",
      zone: "",
      sub_zone: "",
      metadata: {},
    }));
}

function detector(hs: Host[], od: JsonObject) {
  const store = new Store();
  const d = new OutlierDetector(
    new OutlierConfig(od, null),
    store.scope("cluster").scope("c"),
    { hosts: () => hs, healthChanged: () => {} },
    { now: () => 0, random: () => 0, timer: false },
  );
  return { d, stat: (n: string) => store.counter(`cluster.c.outlier_detection.${n}`).value() };
}

const LOCAL: LocalResult[] = [
  "LOCAL_ORIGIN_CONNECT_FAILED",
  "LOCAL_ORIGIN_TIMEOUT",
  "LOCAL_ORIGIN_CONNECT_SUCCESS",
  "LOCAL_ORIGIN_CONNECT_SUCCESS_FINAL",
];

type Event = { host: number; code: number } | { host: number; local: LocalResult };

const event = fc.oneof(
  fc.record({ host: fc.integer({ min: 0, max: 2 }), code: fc.constantFrom(200, 404, 500, 503) }),
  fc.record({ host: fc.integer({ min: 0, max: 2 }), local: fc.constantFrom(...LOCAL) }),
);

Deno.test("cluster.fields.outlier-detection: a worker's batched events replayed on the main thread give the detector exactly the state of feeding it directly", () => {
  fc.assert(
    fc.property(fc.array(event, { maxLength: 60 }), fc.boolean(), (events, split) => {
      const od: JsonObject = {
        consecutive_5xx: 3,
        consecutive_gateway_failure: 2,
        consecutive_local_origin_failure: 2,
        split_external_local_origin_errors: split,
        max_ejection_percent: 100,
      };
      const direct = hosts(3);
      const viaBatch = hosts(3);
      const a = detector(direct, od);
      const b = detector(viaBatch, od);
      const recorder = new OutlierEventRecorder();
      const sink = recorder.sink("c");
      for (const e of events as Event[]) {
        if ("code" in e) {
          a.d.putHttpResponseCode(direct[e.host], e.code);
          sink.putHttpResponseCode(viaBatch[e.host], e.code);
        } else {
          a.d.putResult(direct[e.host], e.local);
          sink.putResult(viaBatch[e.host], e.local);
        }
      }
      const batch = recorder.take();
      assert.equal(batch === null, events.length === 0);
      if (batch) {
        const byKey = new Map(viaBatch.map((h) => [h.key, h]));
        replayOutlierEvents(
          batch,
          (name) => name === "c" ? { sink: b.d, host: (k) => byKey.get(k) } : undefined,
        );
      }
      for (let i = 0; i < 3; i++) {
        assert.equal(
          viaBatch[i].health.failed_outlier_check,
          direct[i].health.failed_outlier_check,
        );
        const [x, y] = [a.d.monitor(direct[i])!, b.d.monitor(viaBatch[i])!];
        assert.equal(y.consecutive5xx, x.consecutive5xx);
        assert.equal(y.consecutiveGatewayFailure, x.consecutiveGatewayFailure);
        assert.equal(y.consecutiveLocalOriginFailure, x.consecutiveLocalOriginFailure);
      }
      assert.equal(b.stat("ejections_enforced_total"), a.stat("ejections_enforced_total"));
    }),
  );
});

Deno.test("cluster.fields.outlier-detection: events of hosts or clusters the main thread no longer has are dropped", () => {
  const hs = hosts(1);
  const t = detector(hs, { consecutive_5xx: 1, max_ejection_percent: 100 });
  const r = new OutlierEventRecorder();
  r.sink("gone").putHttpResponseCode(hs[0], 503);
  r.sink("c").putHttpResponseCode({ key: "127.0.0.1:1" }, 503);
  replayOutlierEvents(
    r.take()!,
    (name) =>
      name === "c" ? { sink: t.d, host: (k) => k === hs[0].key ? hs[0] : undefined } : undefined,
  );
  assert.equal(hs[0].health.failed_outlier_check, false);
  r.sink("c").putHttpResponseCode(hs[0], 503);
  replayOutlierEvents(
    r.take()!,
    (name) =>
      name === "c" ? { sink: t.d, host: (k) => k === hs[0].key ? hs[0] : undefined } : undefined,
  );
  assert.equal(hs[0].health.failed_outlier_check, true);
});
