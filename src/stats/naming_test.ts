import assert from "node:assert/strict";
import {
  clusterStatName,
  escapeLabelValue,
  PROMETHEUS_PREFIX,
  prometheusName,
  sanitizePrometheus,
} from "./naming.ts";

Deno.test("cluster.fields.name: stats use the name with every ':' turned into '_'", () => {
  assert.equal(clusterStatName("web:80:a"), "web_80_a");
  assert.equal(clusterStatName("web"), "web");
});

Deno.test("cluster.fields.alt-stat-name: alt_stat_name replaces the name, ':' becomes '_'", () => {
  assert.equal(clusterStatName("web:80", "alt:x"), "alt_x");
  assert.equal(clusterStatName("web:80", ""), "web_80");
  assert.equal(clusterStatName("web", null), "web");
});

Deno.test("admin.stats_shapes.prometheus-format: names are sanitized and prefixed", () => {
  assert.equal(PROMETHEUS_PREFIX, "proxy_");
  assert.equal(
    sanitizePrometheus("An.artist.plays-violin@019street"),
    "An_artist_plays_violin_019street",
  );
  assert.equal(prometheusName("vulture.eats-liver"), "proxy_vulture_eats_liver");
  assert.equal(escapeLabelValue('a\\b"c\nd'), 'a\\\\b\\"c\\nd');
});
