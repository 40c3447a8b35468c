import assert from "node:assert/strict";
import { Store } from "../stats/store.ts";
import { CircuitBreaker, SHARED_COUNTS_PER_CLUSTER } from "./circuit_breaker.ts";

const thresholds = (priority: "DEFAULT" | "HIGH") => ({
  priority,
  max_connections: 2,
  max_pending_requests: 1,
  max_requests: 1,
  max_retries: 3,
});

Deno.test("cli.options.concurrency: breakers of two workers sharing one count enforce the cluster's limit together", () => {
  const shared = {
    array: new Int32Array(new SharedArrayBuffer(4 * SHARED_COUNTS_PER_CLUSTER)),
    index: 0,
  };
  const a = new CircuitBreaker(thresholds("DEFAULT"), new Store().scope("cluster.c"), shared);
  const b = new CircuitBreaker(thresholds("DEFAULT"), new Store().scope("cluster.c"), shared);
  const high = new CircuitBreaker(thresholds("HIGH"), new Store().scope("cluster.c"), shared);
  a.requests.inc();
  assert.equal(b.requests.canCreate(), false);
  assert.equal(b.requests.count(), 1);
  // The other priority and the other resources have counts of their own.
  assert.equal(high.requests.canCreate(), true);
  assert.equal(b.connections.canCreate(), true);
  a.connections.inc();
  b.connections.inc();
  assert.equal(a.connections.canCreate(), false);
  b.connections.dec();
  assert.equal(a.connections.canCreate(), true);
  a.requests.dec();
  assert.equal(b.requests.canCreate(), true);
});

Deno.test("cluster.fields.circuit-breakers: without shared counts each breaker counts alone", () => {
  const a = new CircuitBreaker(thresholds("DEFAULT"), new Store().scope("cluster.c"));
  const b = new CircuitBreaker(thresholds("DEFAULT"), new Store().scope("cluster.c"));
  a.requests.inc();
  assert.equal(a.requests.canCreate(), false);
  assert.equal(b.requests.canCreate(), true);
});
