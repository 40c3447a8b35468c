import assert from "node:assert/strict";
import { LoadReporter, LRS_METHOD } from "./load_reporter.ts";
import { PROTOBUF } from "../config/protobuf_module.ts";
import { decodeLoadStatsRequest } from "../config/load_stats_messages.ts";
import type { OpenStream } from "../config/xds_mux.ts";

Deno.test("ClusterManager.load_stats_config: a load reporter started before anything loaded the protobuf runtime loads it and opens its stream with the node", async () => {
  const opened: string[] = [];
  const written: Uint8Array[] = [];
  const open: OpenStream = (method) => {
    opened.push(method);
    return { write: (b) => written.push(b), cancel() {} };
  };
  const r = new LoadReporter(open, { node: { id: "n1" }, clusters: () => [] });
  const wasLoaded = PROTOBUF.loaded;
  r.start();
  if (!wasLoaded) assert.deepEqual(opened, [], "no stream before the runtime is there");
  await PROTOBUF.load();
  for (let i = 0; i < 100 && written.length === 0; i++) await new Promise((f) => setTimeout(f, 10));
  r.close();
  assert.deepEqual(opened, [LRS_METHOD]);
  assert.deepEqual(decodeLoadStatsRequest(written[0]), { node: { id: "n1" } });
});
