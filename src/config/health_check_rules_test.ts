import assert from "node:assert/strict";
import { HC_BASE as base, healthCheckedCluster as cluster } from "./health_check_test_cluster.ts";
import { validateClusters } from "./validate_cluster.ts";

function errors(c: unknown) {
  return validateClusters([c], { path: "static_resources.clusters", allowUnknown: false }).errors
    .map((e) => `${e.path}: ${e.message}`);
}

Deno.test("cluster.objects.core.health-check.timeout cluster.objects.core.health-check.interval: required fields and a checker are required, with paths", () => {
  const es = errors(cluster([{ interval: "0s" }]));
  const at = "static_resources.clusters[0].health_checks[0]";
  assert.ok(es.some((e) => e.startsWith(`${at}.timeout: timeout is required`)), es.join("\n"));
  assert.ok(es.some((e) => e.startsWith(`${at}.interval: value must be greater than 0`)));
  assert.ok(es.some((e) => e.startsWith(`${at}.unhealthy_threshold:`)));
  assert.ok(es.some((e) => e.startsWith(`${at}: one of http_health_check, tcp_health_check`)));
});

Deno.test("cluster.objects.core.health-check.http-health-check.path cluster.objects.core.health-check.http-health-check.expected-statuses: Envoy's HttpHealthCheck rules", () => {
  const at = "static_resources.clusters[0].health_checks[0].http_health_check";
  const es = errors(cluster([{
    ...base,
    http_health_check: {
      path: "",
      host: "a\nb",
      expected_statuses: [{ start: 99, end: 200 }, { start: 200, end: 200 }],
      retriable_statuses: [{ start: 500, end: 601 }],
      request_headers_to_remove: [""],
      request_headers_to_add: [{ header: { key: "", value: "v" } }],
      codec_client_type: "HTTP9",
    },
  }]));
  for (
    const want of [
      `${at}.path: value must not be empty`,
      `${at}.host: value must be a valid HTTP header value`,
      `${at}.expected_statuses[0]: invalid status range [99, 200)`,
      `${at}.expected_statuses[1]: invalid status range [200, 200)`,
      `${at}.retriable_statuses[0]: invalid status range [500, 601)`,
      `${at}.request_headers_to_remove[0]: value must be a valid HTTP header name`,
      `${at}.request_headers_to_add[0].header.key: value must be a valid HTTP header name`,
      `${at}.codec_client_type:`,
    ]
  ) assert.ok(es.some((e) => e.startsWith(want)), `missing ${want} in\n${es.join("\n")}`);
  const many = Array.from({ length: 1001 }, () => ({ header: { key: "a", value: "b" } }));
  assert.ok(
    errors(cluster([{ ...base, http_health_check: { path: "/", request_headers_to_add: many } }]))
      .some((e) =>
        e.startsWith(`${at}.request_headers_to_add: value must contain no more than 1000`)
      ),
  );
});

Deno.test("cluster.objects.core.health-check.payload.text: TCP payloads are hex text; a payload needs a member", () => {
  const at = "static_resources.clusters[0].health_checks[0].tcp_health_check";
  const es = errors(cluster([{
    ...base,
    tcp_health_check: { send: { text: "zz" }, receive: [{}, { text: "abc" }] },
  }]));
  assert.ok(
    es.some((e) => e.startsWith(`${at}.send.text: invalid hex string 'zz'`)),
    es.join("\n"),
  );
  assert.ok(es.some((e) => e.startsWith(`${at}.receive[0]: one of text, binary must be set`)));
  assert.ok(es.some((e) => e.startsWith(`${at}.receive[1].text: invalid hex string 'abc'`)));
  assert.deepEqual(
    errors(cluster([{ ...base, tcp_health_check: { send: { text: "50494E47" } } }])),
    [],
  );
});

Deno.test("cluster.objects.core.health-check.grpc-health-check.authority: a gRPC authority is a header value", () => {
  const at = "static_resources.clusters[0].health_checks[0]";
  const grpc = errors(cluster([{ ...base, grpc_health_check: { authority: "a\nb" } }]));
  assert.ok(
    grpc.some((e) => e.startsWith(`${at}.grpc_health_check.authority: value must be a valid`)),
    grpc.join("\n"),
  );
  const ok = errors(cluster([{ ...base, grpc_health_check: { authority: "svc.local" } }]));
  assert.ok(!ok.some((e) => e.includes("authority")), ok.join("\n"));
});

Deno.test("cluster.objects.core.health-check.payload.binary: a binary payload is base64 bytes, refused with its path otherwise", () => {
  const at = "static_resources.clusters[0].health_checks[0].tcp_health_check";
  const es = errors(cluster([{
    ...base,
    tcp_health_check: { send: { binary: "not base64!" }, receive: [{ binary: "UE9ORw==" }] },
  }]));
  assert.equal(es.length, 1, es.join("\n"));
  assert.ok(es[0].startsWith(`${at}.send.binary: `), es[0]);
  assert.match(es[0], /base64/);
});
