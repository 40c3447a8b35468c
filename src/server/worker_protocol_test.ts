import assert from "node:assert/strict";
import { Host } from "../upstream/host.ts";
import { hostCopies } from "./worker_protocol.ts";

const host = () =>
  new Host({
    address: "127.0.0.1",
    port: 1,
    hostname: "",
    weight: 1,
    priority: 0,
    region: "",
    zone: "",
    sub_zone: "",
    metadata: {},
  });

Deno.test("cluster.fields.round-robin-lb-config cli.options.concurrency: a host copy for the workers carries when the host became healthy (slow start), as wall-clock time", () => {
  const h = host();
  assert.equal(hostCopies([h])[0].healthySince, null);
  h.lastHcPassTime = 1234.5;
  assert.equal(hostCopies([h])[0].healthySince, performance.timeOrigin + 1234.5);
});
