import assert from "node:assert/strict";
import { ENDPOINTS } from "../../spec/mod.ts";
import type { EndpointRow } from "../../spec/mod.ts";
import { concreteQuery } from "./admin_endpoints.ts";
import { checkShape } from "./shapes.ts";

Deno.test("admin.stats_shapes.prometheus-format: the 0.0.4 checker accepts good and names bad lines", () => {
  const good = [
    "# HELP proxy_a_total counts",
    "# TYPE proxy_a_total counter",
    'proxy_a_total{proxy_cluster_name="c\\"1"} 3',
    "# TYPE proxy_h histogram",
    'proxy_h_bucket{le="0.5"} 0',
    'proxy_h_bucket{le="+Inf"} 1',
    "proxy_h_sum{} 2.5",
    "proxy_h_count 1",
  ].join("\n");
  assert.equal(checkShape("prometheus-0.0.4", good), null);
  assert.match(checkShape("prometheus-0.0.4", "proxy_x 1")!, /no # TYPE line/);
  assert.match(checkShape("prometheus-0.0.4", "# TYPE a counter\na{b=c} 1")!, /not in the 0\.0\.4/);
  assert.match(checkShape("prometheus-0.0.4", "# TYPE 1a counter")!, /invalid metric name/);
  assert.match(checkShape("prometheus-0.0.4", "# TYPE a counter\na one")!, /not a number/);
});

Deno.test("admin.endpoints.server_info, admin.endpoints.ready: shapes of JSON and text bodies", () => {
  assert.equal(checkShape("text:state", "LIVE\n"), null);
  assert.notEqual(checkShape("text:state", "ok"), null);
  assert.match(checkShape("json:ServerInfo", '{"version":"a/b/c/d/e"}')!, /"state"/);
  assert.match(checkShape("json:Runtime", "[]")!, /JSON object/);
  assert.match(checkShape("json:Stats", "not json")!, /not JSON/);
  assert.equal(checkShape("json:Clusters", "{}"), null);
  assert.equal(checkShape("text:listeners", "l0::127.0.0.1:10000\n"), null);
  assert.notEqual(checkShape("text:listeners", "l0 127.0.0.1\n"), null);
});

Deno.test("admin.endpoints.*: row queries become sendable queries with placeholders filled", () => {
  const rows = ENDPOINTS as readonly EndpointRow[];
  for (const row of rows) {
    const q = concreteQuery(row);
    assert.equal(/[{}]/.test(q), false, `${row.id}: ${q}`);
    assert.doesNotThrow(() => new URL(`http://x${row.path}?${q}`), row.id);
  }
  const dump = rows.find((r) => r.query === "resource={}&mask={}");
  if (dump) assert.equal(concreteQuery(dump), "resource=static_clusters&mask=cluster.name");
});
