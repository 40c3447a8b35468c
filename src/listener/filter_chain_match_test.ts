import assert from "node:assert/strict";
import { type ConnFacts, ipBytes, parseChainMatch, selectChain } from "./filter_chain_match.ts";

const conn = (o: Partial<ConnFacts> = {}): ConnFacts => ({
  destIp: "10.0.0.1",
  destPort: 443,
  srcIp: "192.168.1.9",
  srcPort: 40000,
  serverName: "",
  transport: "raw_buffer",
  alpn: [],
  ...o,
});

function chains(...ms: unknown[]) {
  const errors: { path: string; rule: string; message: string }[] = [];
  const out = ms.map((m, i) => parseChainMatch(m, `fc[${i}]`, errors));
  assert.deepEqual(errors, []);
  return out;
}

Deno.test("filter_chain_match: destination_port before everything else; a chain without it is the fallback", () => {
  const cs = chains({ destination_port: 443 }, { server_names: ["a.example"] });
  assert.equal(selectChain(cs, conn({ serverName: "a.example" })), 0);
  assert.equal(selectChain(cs, conn({ destPort: 80, serverName: "a.example" })), 1);
  assert.equal(selectChain(cs, conn({ destPort: 80 })), -1);
});

Deno.test("filter_chain_match: prefix_ranges, the longest prefix wins", () => {
  const cs = chains(
    { prefix_ranges: [{ address_prefix: "10.0.0.0", prefix_len: 8 }] },
    { prefix_ranges: [{ address_prefix: "10.0.0.0", prefix_len: 24 }] },
    { prefix_ranges: [{ address_prefix: "::1", prefix_len: 128 }] },
  );
  assert.equal(selectChain(cs, conn()), 1);
  assert.equal(selectChain(cs, conn({ destIp: "10.9.0.1" })), 0);
  assert.equal(selectChain(cs, conn({ destIp: "::1" })), 2);
  assert.equal(selectChain(cs, conn({ destIp: "11.0.0.1" })), -1);
  assert.deepEqual([...ipBytes("::ffff:1.2.3.4")!], [1, 2, 3, 4]);
  assert.equal(ipBytes("1::2::3"), null);
});

Deno.test("filter_chain_match: server_names exact before the longest wildcard before none", () => {
  const cs = chains(
    { server_names: ["*.example.com"] },
    { server_names: ["*.b.example.com"] },
    { server_names: ["www.b.example.com"] },
    {},
  );
  assert.equal(selectChain(cs, conn({ serverName: "WWW.b.example.com" })), 2);
  assert.equal(selectChain(cs, conn({ serverName: "x.b.example.com" })), 1);
  assert.equal(selectChain(cs, conn({ serverName: "x.example.com" })), 0);
  assert.equal(selectChain(cs, conn({ serverName: "example.com" })), 3);
  assert.equal(selectChain(cs, conn()), 3);
});

Deno.test("filter_chain_match: transport protocol and application protocols narrow after the server name", () => {
  const cs = chains(
    { transport_protocol: "tls", application_protocols: ["h2"] },
    { transport_protocol: "tls" },
    { transport_protocol: "raw_buffer" },
  );
  assert.equal(selectChain(cs, conn({ transport: "tls", alpn: ["h2", "http/1.1"] })), 0);
  assert.equal(selectChain(cs, conn({ transport: "tls", alpn: ["http/1.1"] })), 1);
  assert.equal(selectChain(cs, conn()), 2);
});

Deno.test("filter_chain_match: source criteria (direct source, source type, source prefix, source ports) in Envoy's order", () => {
  const cs = chains(
    {
      direct_source_prefix_ranges: [{ address_prefix: "192.168.0.0", prefix_len: 16 }],
      source_ports: [1],
    },
    { source_type: "SAME_IP_OR_LOOPBACK" },
    {
      source_type: "EXTERNAL",
      source_prefix_ranges: [{ address_prefix: "172.16.0.0", prefix_len: 12 }],
    },
    { source_type: "EXTERNAL", source_ports: [5] },
  );
  // The direct source range is more specific than any source type, even with a port mismatch
  // further down: that chain then fails and nothing matches.
  assert.equal(selectChain(cs, conn()), -1);
  assert.equal(selectChain(cs, conn({ srcPort: 1 })), 0);
  assert.equal(selectChain(cs, conn({ srcIp: "127.0.0.1" })), 1);
  assert.equal(selectChain(cs, conn({ srcIp: "172.20.0.1" })), 2);
  assert.equal(selectChain(cs, conn({ srcIp: "8.8.8.8", srcPort: 5 })), 3);
});

Deno.test("filter_chain_match: bad values name their field", () => {
  const errors: { path: string; rule: string; message: string }[] = [];
  parseChainMatch(
    {
      destination_port: 70000,
      server_names: ["a.*.com"],
      prefix_ranges: [{ address_prefix: "nope" }, { address_prefix: "10.0.0.0", prefix_len: 33 }],
      source_type: "ELSEWHERE",
    },
    "fc",
    errors,
  );
  assert.deepEqual(errors.map((e) => e.path), [
    "fc.destination_port",
    "fc.server_names[0]",
    "fc.source_type",
    "fc.prefix_ranges[0].address_prefix",
    "fc.prefix_ranges[1].prefix_len",
  ]);
});
