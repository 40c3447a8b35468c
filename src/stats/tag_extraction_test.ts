import assert from "node:assert/strict";
import { extractTags } from "./tag_extraction.ts";

const cases: Array<[string, string, Array<[string, string]>]> = [
  ["server.live", "server.live", []],
  ["cluster.cluster_0.upstream_cx_active", "cluster.upstream_cx_active", [[
    "proxy.cluster_name",
    "cluster_0",
  ]]],
  ["cluster.web.upstream_rq_200", "cluster.upstream_rq", [
    ["proxy.response_code", "200"],
    ["proxy.cluster_name", "web"],
  ]],
  ["http.admin.downstream_rq_4xx", "http.downstream_rq_xx", [
    ["proxy.response_code_class", "4"],
    ["proxy.http_conn_manager_prefix", "admin"],
  ]],
  ["listener.admin.http.admin.downstream_rq_4xx", "listener.admin.http.downstream_rq_xx", [
    ["proxy.response_code_class", "4"],
    ["proxy.http_conn_manager_prefix", "admin"],
  ]],
  ["listener.0.0.0.0_10000.downstream_cx_total", "listener.downstream_cx_total", [[
    "proxy.listener_address",
    "0.0.0.0_10000",
  ]]],
  ["listener.[__1]_80.downstream_cx_total", "listener.downstream_cx_total", [[
    "proxy.listener_address",
    "[__1]_80",
  ]]],
  ["tcp.ingress.downstream_cx_total", "tcp.downstream_cx_total", [["proxy.tcp_prefix", "ingress"]]],
  ["listener_manager.worker_3.downstream_cx_total", "listener_manager.downstream_cx_total", [[
    "proxy.worker_id",
    "3",
  ]]],
  ["vhost.vh.vcluster.vc.upstream_rq_503", "vhost.vcluster.upstream_rq", [
    ["proxy.response_code", "503"],
    ["proxy.virtual_host", "vh"],
    ["proxy.virtual_cluster", "vc"],
  ]],
];

for (const [input, name, tags] of cases) {
  Deno.test(`admin.stats_shapes.prometheus-format: tag extraction of ${input}`, () => {
    assert.deepEqual(extractTags(input), { name, tags });
  });
}
