/**
 * What a request waiting for its upstream answer keeps alive: the heap objects one such request
 * holds on a kept-alive connection (its promises, suspended async functions, closures, records).
 * At 64 connections these are most of what survives each young-generation collection, and a
 * scavenge costs about what survives it; bytes allocated per request (`deno task bench alloc`)
 * say how often scavenges come, this says what each one copies.
 *
 * How: the proxy of a checkout (this one, or `--tree DIR`), one worker, in front of an origin that
 * answers the first request on each connection and never the later ones. `--connections N`
 * clients (64) each send one request, answered (the connections, pools and code are then warm);
 * a heap snapshot; each sends a second request, which the proxy forwards on the kept-alive
 * upstream connection, where it waits; a second snapshot. The objects in the second and not in
 * the first, divided by the requests held, are printed by kind and by what holds them; the proxy
 * runs from its sources (the proxy task's flags), so a closure is named by its file and line.
 *
 * Run: `deno task bench inflight [--connections 64] [--top 30] [--tree DIR]`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { newObjects } from "./inflight_heap.ts";
 * // Two snapshots of the shape V8 writes: node fields type, name, id, self_size, edge_count.
 * const meta = {
 *   node_fields: ["type", "name", "id", "self_size", "edge_count"],
 *   node_types: [["object", "closure"]],
 *   edge_fields: ["type", "name_or_index", "to_node"],
 *   edge_types: [["property"]],
 * };
 * const before = { snapshot: { meta }, nodes: [0, 0, 1, 16, 0], edges: [], strings: ["A"] };
 * const after = {
 *   snapshot: { meta },
 *   nodes: [0, 0, 1, 16, 1, 1, 1, 2, 32, 0],
 *   edges: [0, 2, 5],
 *   strings: ["A", "", "f"],
 * };
 * const { byKind, byHolder } = newObjects(before, after);
 * assert.deepEqual(byKind.get("closure"), { count: 1, bytes: 32 });
 * assert.deepEqual(byHolder.get("closure <- object A.f"), { count: 1, bytes: 32 });
 * ```
 * @module
 */

import { benchBootstrap } from "./proxy.ts";
import { inspectedProxy, Inspector } from "./alloc_profile.ts";
import { argText } from "./bench_args.ts";

/** The parts of a V8 heap snapshot (`.heapsnapshot` JSON) read here. */
export interface HeapSnapshot {
  snapshot: {
    meta: {
      node_fields: string[];
      /** The first entry names the node types; the others describe the remaining fields. */
      node_types: unknown[];
      edge_fields: string[];
      /** The first entry names the edge types. */
      edge_types: unknown[];
      /** The fields of each entry of `locations` (object_index, script_id, line, column, ...). */
      location_fields?: string[];
    };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
  /** Where closures were defined, `location_fields` per entry (line and column 0-based). */
  locations?: number[];
}

/** A count of objects and their bytes (self sizes). */
export interface Tally {
  count: number;
  bytes: number;
}

function add(m: Map<string, Tally>, key: string, bytes: number): void {
  const t = m.get(key);
  if (t === undefined) m.set(key, { count: 1, bytes });
  else {
    t.count++;
    t.bytes += bytes;
  }
}

/**
 * The objects of `after` whose ids are not in `before` (with a size: the snapshot's own
 * zero-size nodes are left out): tallied by kind (`type` or `type:name`, strings, numbers and
 * code as one kind each; a closure also by `place`, given where the snapshot says it was defined)
 * and by holder (`kind <- holder.edge`, every strong edge from any object to a new one; an object
 * held from two places counts under both).
 */
export function newObjects(
  before: HeapSnapshot,
  after: HeapSnapshot,
  place: (script: number, line: number, column: number) => string | undefined = () => undefined,
): { byKind: Map<string, Tally>; byHolder: Map<string, Tally> } {
  const bm = before.snapshot.meta;
  const bf = bm.node_fields.length;
  const bId = bm.node_fields.indexOf("id");
  const old = new Set<number>();
  for (let i = 0; i < before.nodes.length; i += bf) old.add(before.nodes[i + bId]);

  const m = after.snapshot.meta;
  const nf = m.node_fields.length;
  const [iType, iName, iId, iSize, iEdges] = ["type", "name", "id", "self_size", "edge_count"]
    .map((f) => m.node_fields.indexOf(f));
  const ef = m.edge_fields.length;
  const [eType, eName, eTo] = ["type", "name_or_index", "to_node"]
    .map((f) => m.edge_fields.indexOf(f));
  const types = m.node_types[0] as string[];
  const edgeTypes = m.edge_types[0] as string[];
  const { nodes, edges, strings } = after;
  // A closure is named by where it was defined, when `place` knows the script.
  const where = new Map<number, string>();
  const loc = after.locations ?? [];
  const lf = m.location_fields ?? ["object_index", "script_id", "line", "column"];
  const [lObject, lScript, lLine, lColumn] = ["object_index", "script_id", "line", "column"]
    .map((f) => lf.indexOf(f));
  for (let i = 0; i + lf.length <= loc.length; i += lf.length) {
    const at = place(loc[i + lScript], loc[i + lLine], loc[i + lColumn]);
    if (at !== undefined) where.set(loc[i + lObject], at);
  }
  // A suspended async function (a Generator object) is named by its function.
  const suspended = new Map<number, number>();
  for (let n = 0, e = 0; n < nodes.length; n += nf) {
    const count = nodes[n + iEdges];
    if (types[nodes[n + iType]] === "object" && strings[nodes[n + iName]] === "Generator") {
      for (let k = 0; k < count; k++) {
        const at = e + k * ef;
        if (strings[edges[at + eName]] === "function") suspended.set(n, edges[at + eTo]);
      }
    }
    e += count * ef;
  }
  const kind = (n: number): string => {
    const t = types[nodes[n + iType]];
    if (t.includes("string") || t === "number" || t === "code" || t === "hidden") return t;
    const name = strings[nodes[n + iName]];
    const at = t === "closure" ? where.get(n) : undefined;
    const fn = suspended.get(n);
    const named = name === "" ? t : `${t}:${name.slice(0, 60)}`;
    if (fn !== undefined) return `${named} of ${kind(fn)}`;
    return at === undefined ? named : `${named} ${at}`;
  };
  const holder = (n: number): string => {
    const t = types[nodes[n + iType]];
    if (t === "closure") return kind(n);
    const name = strings[nodes[n + iName]];
    return name === "" ? t : `${t} ${name.slice(0, 60)}`;
  };
  const byKind = new Map<string, Tally>();
  const byHolder = new Map<string, Tally>();
  let e = 0;
  for (let n = 0; n < nodes.length; n += nf) {
    if (!old.has(nodes[n + iId]) && nodes[n + iSize] > 0) add(byKind, kind(n), nodes[n + iSize]);
    const count = nodes[n + iEdges];
    for (let k = 0; k < count; k++, e += ef) {
      const to = edges[e + eTo];
      if (old.has(nodes[to + iId]) || nodes[to + iSize] === 0) continue;
      const et = edgeTypes[edges[e + eType]];
      if (et === "weak" || et === "shortcut") continue;
      const en = et === "element" || et === "hidden" ? `[${et}]` : String(
        strings[edges[e + eName]],
      );
      add(byHolder, `${kind(to)} <- ${holder(n)}.${en}`, nodes[to + iSize]);
    }
  }
  return { byKind, byHolder };
}

/** Takes a heap snapshot through `inspector` (the snapshot makes a full collection first). */
async function snapshot(inspector: Inspector): Promise<HeapSnapshot> {
  const chunks: string[] = [];
  inspector.onEvent = (method, params) => {
    if (method === "HeapProfiler.addHeapSnapshotChunk") chunks.push(params.chunk as string);
  };
  await inspector.send("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
  inspector.onEvent = undefined;
  return JSON.parse(chunks.join(""));
}

/** An origin that answers the first request on each connection (2 KB) and holds later ones. */
function holdingOrigin(): { port: number; close(): void } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns = new Set<Deno.Conn>();
  const answer = new TextEncoder().encode(
    `HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 2048\r\n\r\n${
      "x".repeat(2048)
    }`,
  );
  (async () => {
    for await (const c of listener) {
      conns.add(c);
      (async () => {
        const buf = new Uint8Array(16384);
        let answered = false;
        try {
          while ((await c.read(buf)) !== null) {
            if (!answered) {
              answered = true;
              await c.write(answer);
            }
          }
        } catch { /* closed */ }
        conns.delete(c);
      })();
    }
  })().catch(() => {});
  return {
    port: listener.addr.port,
    close() {
      listener.close();
      for (const c of conns) c.close();
    },
  };
}

/** Reads one response with a `content-length` body from `c` (the body's bytes are not kept). */
async function readResponse(c: Deno.Conn): Promise<void> {
  const buf = new Uint8Array(16384);
  let text = "";
  for (;;) {
    const n = await c.read(buf);
    if (n === null) throw new Error("the proxy closed a client connection");
    text += new TextDecoder().decode(buf.subarray(0, n));
    const end = text.indexOf("\r\n\r\n");
    if (end < 0) continue;
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(text)?.[1] ?? "0");
    if (text.length >= end + 4 + length) return;
  }
}

if (import.meta.main) {
  const connections = Number(argText("connections", "64"));
  const top = Number(argText("top", "30"));
  const tree = argText("tree", new URL("..", import.meta.url).pathname).replace(/\/?$/, "/");
  for (const [name, v] of [["connections", connections], ["top", top]] as const) {
    if (!(Number.isInteger(v) && v > 0)) {
      console.error(`--${name}: expected a positive whole number, got '${argText(name, "")}'`);
      Deno.exit(2);
    }
  }
  const origin = holdingOrigin();
  const listen = 19393;
  const inspectPort = 19394;
  const cfg = await Deno.makeTempFile({ suffix: ".json" });
  await Deno.writeTextFile(cfg, benchBootstrap(listen, origin.port));
  const { proxy, wsUrl } = await inspectedProxy(tree, cfg, listen, inspectPort, true);
  const clients: Deno.Conn[] = [];
  try {
    const inspector = await Inspector.open(wsUrl);
    await inspector.send("HeapProfiler.enable");
    const request = (i: number) =>
      new TextEncoder().encode(`GET /held/${i} HTTP/1.1\r\nhost: bench\r\nuser-agent: wrk\r\n\r\n`);
    for (let i = 0; i < connections; i++) {
      clients.push(await Deno.connect({ hostname: "127.0.0.1", port: listen }));
    }
    // Round one: answered, so that every later object is the held request's own.
    await Promise.all(clients.map(async (c, i) => {
      await c.write(request(i));
      await readResponse(c);
    }));
    await new Promise((r) => setTimeout(r, 500));
    const before = await snapshot(inspector);
    // Round two: each request waits upstream (unless it went on a new upstream connection,
    // which the origin answers: those are not counted as held).
    let answered = 0;
    for (let i = 0; i < connections; i++) {
      await clients[i].write(request(i));
      readResponse(clients[i]).then(() => answered++, () => {});
    }
    await new Promise((r) => setTimeout(r, 1500));
    const held = connections - answered;
    const after = await snapshot(inspector);
    // Where closures were defined: the debugger reports every script parsed so far when it is
    // enabled (only now, so that it changes nothing the snapshots saw); a closure is shown as
    // its file and the code around its start (of the transpiled script, whose lines are not the
    // source's).
    const urls = new Map<number, string>();
    inspector.onEvent = (method, params) => {
      if (method === "Debugger.scriptParsed") urls.set(Number(params.scriptId), String(params.url));
    };
    await inspector.send("Debugger.enable");
    const sources = new Map<number, { file: string; lines: string[] }>();
    for (const [id, url] of urls) {
      const m = /\/(src\/.*)$/.exec(url);
      if (m === null) continue;
      const r = await inspector.send("Debugger.getScriptSource", { scriptId: String(id) });
      sources.set(id, { file: m[1], lines: String(r.scriptSource ?? "").split("\n") });
    }
    inspector.close();
    const place = (script: number, line: number, column: number) => {
      const src = sources.get(script);
      if (src === undefined) return undefined;
      // The code around the closure's start, `@` marking it.
      const text = src.lines[line] ?? "";
      const code = `${text.slice(Math.max(0, column - 40), column)}@${
        text.slice(column, column + 24)
      }`.trim();
      return `${src.file} \`${code}\``;
    };
    if (held === 0) throw new Error("no request was held upstream");
    const { byKind, byHolder } = newObjects(before, after, place);
    let bytes = 0;
    let count = 0;
    for (const t of byKind.values()) {
      bytes += t.bytes;
      count += t.count;
    }
    const per = (t: Tally) =>
      `${(t.bytes / held).toFixed(0).padStart(7)} B ${(t.count / held).toFixed(2).padStart(7)}`;
    console.log(
      `${held} requests held upstream on kept-alive connections (${connections} sent); each keeps ` +
        `${(bytes / held).toFixed(0)} B in ${(count / held).toFixed(1)} heap objects`,
    );
    const rows = (m: Map<string, Tally>) =>
      [...m].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, top)
        .filter(([, t]) => t.bytes / held >= 1);
    console.log("\nby kind (bytes and objects per held request):");
    for (const [k, t] of rows(byKind)) console.log(`${per(t)}  ${k}`);
    console.log("\nby holder (kind <- holding object.edge):");
    for (const [k, t] of rows(byHolder)) console.log(`${per(t)}  ${k}`);
  } finally {
    for (const c of clients) {
      try {
        c.close();
      } catch { /* closed */ }
    }
    proxy.kill("SIGTERM");
    await proxy.status;
    origin.close();
    await Deno.remove(cfg);
  }
}
