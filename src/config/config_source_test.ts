import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { apiSourceOf, configSourceOf } from "./config_source.ts";

const CA = fileURLToPath(new URL("../../fixtures/tls/ca.pem", import.meta.url));

/** The path and message of a refusal of `source`. */
function refusal(source: unknown): string {
  const r = apiSourceOf(source, "x");
  assert.ok(!r.ok, JSON.stringify(source));
  return `${r.at}: ${r.message}`;
}

Deno.test("core.ConfigSource.api_config_source: REST needs one cluster name and refresh_delay; request_timeout defaults to 1 s", () => {
  assert.deepEqual(
    configSourceOf({
      api_config_source: { api_type: "REST", cluster_names: ["cp"], refresh_delay: "0.5s" },
      initial_fetch_timeout: "3s",
    }, "c"),
    {
      ok: true,
      spec: {
        kind: "rest",
        clusterName: "cp",
        refreshDelayMs: 500,
        requestTimeoutMs: 1000,
        initialFetchTimeoutMs: 3000,
      },
    },
  );
  assert.match(
    refusal({ api_type: "REST", cluster_names: ["a", "b"], refresh_delay: "1s" }),
    /^x\.cluster_names: .*exactly one/,
  );
  assert.match(
    refusal({ api_type: "REST", cluster_names: ["a"] }),
    /^x\.refresh_delay: refresh_delay is required/,
  );
  assert.match(
    refusal({ api_type: "REST", cluster_names: ["a"], refresh_delay: "1s", request_timeout: "0s" }),
    /^x\.request_timeout: request_timeout must be greater than 0/,
  );
  assert.match(
    refusal({
      api_type: "REST",
      cluster_names: ["a"],
      refresh_delay: "1s",
      grpc_services: [{ envoy_grpc: { cluster_name: "a" } }],
    }),
    /^x\.grpc_services: grpc_services should not be specified for REST/,
  );
  assert.match(
    refusal({
      api_type: "GRPC",
      refresh_delay: "1s",
      grpc_services: [{ envoy_grpc: { cluster_name: "a" } }],
    }),
    /^x\.refresh_delay: refresh_delay should not be specified for gRPC/,
  );
  assert.match(refusal({ api_type: "AGGREGATED_GRPC" }), /^x\.api_type: .*not supported/);
});

Deno.test("core.ConfigSource.api_config_source: google_grpc is read with its credentials; the parts this build does not honour are refused with their path", () => {
  const ok = apiSourceOf({
    api_type: "DELTA_GRPC",
    grpc_services: [{
      google_grpc: {
        target_uri: "localhost:18000",
        stat_prefix: "cp",
        channel_credentials: { ssl_credentials: { root_certs: { filename: CA } } },
      },
    }],
  }, "x");
  assert.ok(ok.ok && ok.api.type === "DELTA_GRPC");
  const svc = ok.api.service;
  assert.ok(svc.kind === "google_grpc" && svc.credentials.kind === "ssl");
  assert.match(svc.credentials.rootCerts ?? "", /BEGIN CERTIFICATE/);
  const g = (google_grpc: unknown) => ({ api_type: "GRPC", grpc_services: [{ google_grpc }] });
  assert.match(
    refusal(g({ target_uri: "h:1" })),
    /^x\.grpc_services\[0\]\.google_grpc\.stat_prefix:/,
  );
  assert.match(refusal(g({ stat_prefix: "s" })), /google_grpc\.target_uri:/);
  assert.match(
    refusal(g({ target_uri: "h:1", stat_prefix: "s", call_credentials: [{}] })),
    /google_grpc\.call_credentials: call_credentials is not supported by this build/,
  );
  assert.match(
    refusal(g({
      target_uri: "h:1",
      stat_prefix: "s",
      channel_credentials: { google_default: {} },
    })),
    /channel_credentials\.google_default: google_default is not supported by this build/,
  );
  assert.match(
    refusal(g({
      target_uri: "example.com:1",
      stat_prefix: "s",
      channel_credentials: { local_credentials: {} },
    })),
    /google_grpc\.target_uri: local_credentials need a loopback or unix target/,
  );
  assert.match(
    refusal(g({
      target_uri: "h:1",
      stat_prefix: "s",
      channel_credentials: { ssl_credentials: { root_certs: { filename: "/nonexistent.pem" } } },
    })),
    /ssl_credentials\.root_certs\.filename: cannot read \/nonexistent\.pem/,
  );
  assert.match(
    refusal({
      api_type: "GRPC",
      grpc_services: [{ envoy_grpc: { cluster_name: "a" }, timeout: "1s" }],
    }),
    /^x\.grpc_services\[0\]\.timeout: timeout is not supported by this build/,
  );
  assert.match(
    refusal({
      api_type: "GRPC",
      grpc_services: [{ envoy_grpc: { cluster_name: "a", authority: "b" } }],
    }),
    /^x\.grpc_services\[0\]\.envoy_grpc\.authority: authority is not supported by this build/,
  );
});
