import assert from "node:assert/strict";
import fc from "fast-check";
import { Host } from "../host.ts";
import { Store } from "../../stats/store.ts";
import { OutlierConfig } from "./outlier_config.ts";
import { OutlierDetector } from "./outlier_detector.ts";
import type { JsonObject } from "../../config/bootstrap_types.ts";

function hosts(n: number): Host[] {
  return Array.from({ length: n }, (_, i) =>
    new Host({
      address: "127.0.0.1",
      port: 1000 + i,
      hostname: "",
      weight: 1,
      priority: 0,
      region: "",
      zone: "",
      sub_zone: "",
      metadata: {},
    }));
}

function detector(
  n: number,
  od: JsonObject,
  runtime: Map<string, string> = new Map(),
  random = () => 0,
) {
  const hs = hosts(n);
  let now = 0;
  const store = new Store();
  const d = new OutlierDetector(
    new OutlierConfig(od, { get: (k) => runtime.get(k) }),
    store.scope("cluster").scope("c"),
    { hosts: () => hs, healthChanged: () => {} },
    { now: () => now, random, timer: false },
  );
  return {
    hs,
    d,
    store,
    advance: (ms: number) => now += ms,
    stat: (n: string) => store.counter(`cluster.c.outlier_detection.${n}`).value(),
  };
}

Deno.test("cluster.objects.cluster.outlier-detection.consecutive-5xx cluster.objects.cluster.outlier-detection.base-ejection-time: ejected after consecutive_5xx, back after the ejection time", () => {
  const t = detector(4, {
    consecutive_5xx: 3,
    base_ejection_time: "10s",
    max_ejection_percent: 100,
  });
  const [h] = t.hs;
  t.d.putHttpResponseCode(h, 503);
  t.d.putHttpResponseCode(h, 500);
  t.d.putHttpResponseCode(h, 200); // resets the run
  t.d.putHttpResponseCode(h, 500);
  t.d.putHttpResponseCode(h, 500);
  assert.equal(h.health.failed_outlier_check, false);
  t.d.putHttpResponseCode(h, 500);
  assert.equal(h.health.failed_outlier_check, true);
  assert.equal(t.d.ejectionsActive.value(), 1);
  assert.equal(t.stat("ejections_enforced_consecutive_5xx"), 1);
  assert.equal(t.stat("ejections_detected_consecutive_5xx"), 1);
  assert.equal(t.stat("ejections_enforced_total"), 1);
  t.advance(9_999);
  t.d.runInterval();
  assert.equal(h.health.failed_outlier_check, true);
  t.advance(1);
  t.d.runInterval();
  assert.equal(h.health.failed_outlier_check, false);
  assert.equal(t.d.ejectionsActive.value(), 0);
});

Deno.test("cluster.objects.cluster.outlier-detection.base-ejection-time: repeated ejections back off, capped by max_ejection_time", () => {
  const t = detector(2, {
    consecutive_5xx: 1,
    base_ejection_time: "10s",
    max_ejection_time: "25s",
    max_ejection_percent: 100,
  });
  const [h] = t.hs;
  const ejectedFor = () => {
    t.d.putHttpResponseCode(h, 500);
    assert.equal(h.health.failed_outlier_check, true);
    let waited = 0;
    while (h.health.failed_outlier_check) {
      t.advance(1_000);
      waited += 1_000;
      t.d.runInterval();
    }
    return waited;
  };
  assert.equal(ejectedFor(), 10_000);
  assert.equal(ejectedFor(), 20_000);
  assert.equal(ejectedFor(), 25_000);
  assert.equal(ejectedFor(), 25_000);
});

Deno.test("cluster.objects.cluster.outlier-detection.consecutive-gateway-failure cluster.objects.cluster.outlier-detection.enforcing-consecutive-gateway-failure: gateway failures eject only when enforced", () => {
  const off = detector(2, {
    consecutive_gateway_failure: 2,
    consecutive_5xx: 100,
    max_ejection_percent: 100,
  });
  off.d.putHttpResponseCode(off.hs[0], 502);
  off.d.putHttpResponseCode(off.hs[0], 504);
  assert.equal(off.hs[0].health.failed_outlier_check, false); // enforcing default 0
  assert.equal(off.stat("ejections_detected_consecutive_gateway_failure"), 1);
  const on = detector(2, {
    consecutive_gateway_failure: 2,
    enforcing_consecutive_gateway_failure: 100,
    consecutive_5xx: 100,
    max_ejection_percent: 100,
  });
  on.d.putHttpResponseCode(on.hs[0], 502);
  on.d.putHttpResponseCode(on.hs[0], 500); // not a gateway failure: resets that run
  on.d.putHttpResponseCode(on.hs[0], 503);
  assert.equal(on.hs[0].health.failed_outlier_check, false);
  on.d.putHttpResponseCode(on.hs[0], 504);
  assert.equal(on.hs[0].health.failed_outlier_check, true);
  assert.equal(on.stat("ejections_enforced_consecutive_gateway_failure"), 1);
});

Deno.test("cluster.objects.cluster.outlier-detection.split-external-local-origin-errors cluster.objects.cluster.outlier-detection.consecutive-local-origin-failure: local-origin failures count apart with the split, as 503s without it", () => {
  const split = detector(2, {
    split_external_local_origin_errors: true,
    consecutive_local_origin_failure: 2,
    consecutive_5xx: 2,
    max_ejection_percent: 100,
  });
  const [h] = split.hs;
  split.d.putResult(h, "LOCAL_ORIGIN_CONNECT_FAILED");
  split.d.putHttpResponseCode(h, 500);
  assert.equal(h.health.failed_outlier_check, false);
  split.d.putResult(h, "LOCAL_ORIGIN_TIMEOUT");
  assert.equal(h.health.failed_outlier_check, true);
  assert.equal(split.stat("ejections_enforced_consecutive_local_origin_failure"), 1);
  const plain = detector(2, { consecutive_5xx: 2, max_ejection_percent: 100 });
  plain.d.putResult(plain.hs[0], "LOCAL_ORIGIN_CONNECT_FAILED");
  plain.d.putResult(plain.hs[0], "LOCAL_ORIGIN_TIMEOUT");
  assert.equal(plain.hs[0].health.failed_outlier_check, true);
  assert.equal(plain.stat("ejections_enforced_consecutive_5xx"), 1);
});

Deno.test("cluster.objects.cluster.outlier-detection.success-rate-stdev-factor cluster.objects.cluster.outlier-detection.success-rate-minimum-hosts: success-rate outliers are ejected; figures are shown", () => {
  const t = detector(5, {
    success_rate_minimum_hosts: 5,
    success_rate_request_volume: 10,
    consecutive_5xx: 1000,
    max_ejection_percent: 100,
  });
  t.hs.forEach((h, i) => {
    for (let k = 0; k < 10; k++) t.d.putHttpResponseCode(h, i === 4 && k < 5 ? 500 : 200);
  });
  t.advance(10_000);
  t.d.runInterval();
  assert.equal(t.hs[4].health.failed_outlier_check, true);
  assert.equal(t.hs[0].health.failed_outlier_check, false);
  assert.equal(t.d.external.average, 90);
  assert.equal(t.d.external.threshold, 90 - 1.9 * 20);
  assert.equal(t.hs[0].successRate(), 100);
  assert.equal(t.hs[4].successRate(), 50);
  assert.equal(t.stat("ejections_enforced_success_rate"), 1);
  // The next interval has no traffic: figures go back to -1.
  t.d.runInterval();
  assert.equal(t.d.external.average, -1);
  assert.equal(t.hs[0].successRate(), -1);
});

Deno.test("cluster.objects.cluster.outlier-detection.failure-percentage-threshold cluster.objects.cluster.outlier-detection.enforcing-failure-percentage: failure-percentage ejection when enforced", () => {
  const t = detector(5, {
    failure_percentage_threshold: 50,
    enforcing_failure_percentage: 100,
    failure_percentage_minimum_hosts: 5,
    failure_percentage_request_volume: 4,
    enforcing_success_rate: 0,
    consecutive_5xx: 1000,
    max_ejection_percent: 100,
  });
  t.hs.forEach((h, i) => {
    for (let k = 0; k < 4; k++) t.d.putHttpResponseCode(h, i === 2 && k < 2 ? 500 : 200);
  });
  t.d.runInterval();
  assert.equal(t.hs[2].health.failed_outlier_check, true);
  assert.equal(t.stat("ejections_enforced_failure_percentage"), 1);
});

Deno.test("cluster.fields.outlier-detection: runtime values override the configuration without a restart", () => {
  const runtime = new Map<string, string>();
  const t = detector(2, { consecutive_5xx: 5, max_ejection_percent: 100 }, runtime);
  runtime.set("outlier_detection.consecutive_5xx", "2");
  t.d.putHttpResponseCode(t.hs[0], 500);
  t.d.putHttpResponseCode(t.hs[0], 500);
  assert.equal(t.hs[0].health.failed_outlier_check, true);
  runtime.set("outlier_detection.enforcing_consecutive_5xx", "0");
  t.d.putHttpResponseCode(t.hs[1], 500);
  t.d.putHttpResponseCode(t.hs[1], 500);
  assert.equal(t.hs[1].health.failed_outlier_check, false);
});

Deno.test("cluster.objects.cluster.outlier-detection.max-ejection-percent: ejections never exceed max_ejection_percent (at least one host may go) (property)", () => {
  fc.assert(fc.property(
    fc.integer({ min: 1, max: 12 }),
    fc.integer({ min: 0, max: 100 }),
    fc.array(fc.tuple(fc.nat(11), fc.constantFrom(200, 500, 502, 503), fc.boolean()), {
      maxLength: 200,
    }),
    (n, max, events) => {
      const t = detector(n, {
        consecutive_5xx: 2,
        base_ejection_time: "5s",
        max_ejection_percent: max,
      });
      for (const [i, code, tick] of events) {
        t.d.putHttpResponseCode(t.hs[i % n], code);
        if (tick) {
          t.advance(1_000);
          t.d.runInterval();
        }
        const ejected = t.hs.filter((h) => h.health.failed_outlier_check).length;
        assert.equal(ejected, t.d.ejectionsActive.value());
        // An ejection happens only while the ejected share is below the maximum.
        if (ejected > 0) assert.ok((100 * (ejected - 1)) / n < max, `${ejected}/${n} > ${max}%`);
      }
    },
  ));
});

Deno.test("cluster.objects.cluster.outlier-detection.max-ejection-percent: an ejection over the cap counts as overflow", () => {
  const t = detector(4, { consecutive_5xx: 1, max_ejection_percent: 25 });
  t.d.putHttpResponseCode(t.hs[0], 500);
  t.d.putHttpResponseCode(t.hs[1], 500);
  assert.equal(t.hs.filter((h) => h.health.failed_outlier_check).length, 1);
  assert.equal(t.stat("ejections_overflow"), 1);
});
