import assert from "node:assert/strict";
import fc from "fast-check";
import { HealthTransitions } from "./health_transition.ts";
import type { FailureType } from "./checker.ts";

type Step = { ok: true } | { ok: false; type: FailureType; retriable: boolean };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.constant({ ok: true } as Step),
  fc.record({
    ok: fc.constant(false as const),
    type: fc.constantFrom<FailureType>("ACTIVE", "NETWORK", "NETWORK_TIMEOUT", "PASSIVE"),
    retriable: fc.boolean(),
  }),
);

Deno.test("cluster.fields.health-checks cluster.objects.core.health-check.unhealthy-threshold cluster.objects.core.health-check.healthy-threshold: the failed flag follows the thresholds exactly (property)", () => {
  fc.assert(fc.property(
    fc.integer({ min: 1, max: 5 }),
    fc.integer({ min: 1, max: 5 }),
    fc.array(step, { maxLength: 60 }),
    (healthyThreshold, unhealthyThreshold, steps) => {
      const s = new HealthTransitions({ healthyThreshold, unhealthyThreshold });
      // An independent model: runs of results since the last change of state.
      let failed = true;
      let first = true;
      let passes = 0;
      let fails = 0;
      for (const x of steps) {
        if (x.ok) {
          fails = 0;
          if (failed) {
            passes++;
            if (first || passes === healthyThreshold) {
              failed = false;
              passes = 0;
            }
          }
          s.success();
        } else {
          passes = 0;
          if (!failed) {
            fails++;
            const immediate = !x.retriable && x.type !== "NETWORK" && x.type !== "NETWORK_TIMEOUT";
            if (immediate || fails === unhealthyThreshold) {
              failed = true;
              fails = 0;
            }
          }
          s.failure(x.type, x.retriable);
        }
        first = false;
        assert.equal(s.failed, failed);
      }
    },
  ));
});

Deno.test("cluster.objects.core.health-check.unhealthy-threshold: network failures need unhealthy_threshold in a row; a bad status fails at once", () => {
  const s = new HealthTransitions({ healthyThreshold: 2, unhealthyThreshold: 3 });
  assert.equal(s.success(), "Changed"); // first check
  assert.equal(s.failure("NETWORK", false), "ChangePending");
  assert.equal(s.failure("NETWORK_TIMEOUT", false), "ChangePending");
  assert.equal(s.success(), "Unchanged");
  assert.equal(s.failure("NETWORK", false), "ChangePending");
  assert.equal(s.failure("NETWORK", false), "ChangePending");
  assert.equal(s.failure("NETWORK", false), "Changed");
  assert.equal(s.failed, true);
  assert.equal(s.success(), "ChangePending");
  assert.equal(s.success(), "Changed");
  assert.equal(s.failure("ACTIVE", true), "ChangePending"); // retriable status
  assert.equal(s.failure("ACTIVE", false), "Changed"); // unexpected status: at once
});
