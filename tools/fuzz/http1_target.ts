/**
 * Fuzz target `http1`: byte-level inputs to the HTTP/1.1 codecs. Half go to the downstream
 * request-head parser (`parseRequestHead`, which must never throw: a bad head comes back with
 * `error` set), half to the upstream response parser (`Http1Connection.readHead`/`readBody`
 * over an in-memory transport that delivers the bytes in random pieces, where only the codec's
 * own `ProtocolError` and `EofError` may surface). Inputs are well-formed messages, smuggling
 * shapes (two lengths, length and chunked, bare LF, obs-fold, odd chunk sizes) and random bytes,
 * then mutated byte by byte.
 *
 * @module
 */
import fc from "fast-check";
import { parseRequestHead } from "../../src/http/http1_codec.ts";
import { EofError, Http1Connection, ProtocolError } from "../../src/upstream/http1_connection.ts";
import type { Transport } from "../../src/upstream/transport.ts";
import { type FuzzFailure, type FuzzReport, type FuzzTarget, recordFailure } from "./target.ts";

const REQUESTS = [
  "GET / HTTP/1.1\r\nHost: a\r\n\r\n",
  "POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello",
  "POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
  "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, identity\r\n\r\n",
  "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding : chunked\r\n\r\n",
  "GET / HTTP/1.1\nHost: a\n\n",
  "GET / HTTP/1.1\r\nHost: a\r\nX: a\r\n b\r\n\r\n",
  "GET http://h:80/p?q HTTP/1.1\r\nHost: other\r\n\r\n",
  "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
  "GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
  "OPTIONS * HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\n\r\n",
  "GET /\x00 HTTP/1.1\r\nHost: a\r\n\r\n",
  "CONNECT h:443 HTTP/1.1\r\nHost: h:443\r\n\r\n",
  "GET / HTTP/1.1\r\nContent-Length: -1\r\nContent-Length: 1e3\r\n\r\n",
];

const RESPONSES = [
  "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
  "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
  "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffff\r\nx\r\n",
  "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n0\r\nTrailer: x\r\n\r\n",
  "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n",
  "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd",
  "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
  "HTTP/1.0 200 OK\r\n\r\nuntil close",
  "HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n",
  "HTTP/1.1 999\r\n\r\n",
  "HTTP/1.1 200 OK\nContent-Length: 1\n\nx",
  "HTTP/1.1 200 OK\r\nX: a\r\n b\r\nContent-Length: 0\r\n\r\n",
];

type Mutation = { at: number; op: "flip" | "insert" | "delete" | "dup"; byte: number };

function mutate(seed: string, ms: Mutation[]): Uint8Array {
  const b = Array.from(seed, (c) => c.charCodeAt(0) & 0xff);
  for (const m of ms) {
    const at = b.length === 0 ? 0 : m.at % b.length;
    if (m.op === "flip") b[at] = m.byte;
    else if (m.op === "insert") b.splice(at, 0, m.byte);
    else if (m.op === "delete") b.splice(at, 1);
    else b.splice(at, 0, ...b.slice(at, at + 8));
  }
  return Uint8Array.from(b);
}

const mutations = fc.array(
  fc.record({
    at: fc.nat(),
    op: fc.constantFrom("flip", "insert", "delete", "dup") as fc.Arbitrary<Mutation["op"]>,
    byte: fc.oneof(
      fc.constantFrom(13, 10, 32, 58, 48, 0, 255, 9),
      fc.integer({ min: 0, max: 255 }),
    ),
  }),
  { maxLength: 3 },
);

const input = fc.record({
  side: fc.constantFrom("request", "response"),
  base: fc.oneof(
    { weight: 4, arbitrary: fc.nat() },
    { weight: 1, arbitrary: fc.constant(-1) },
  ),
  random: fc.uint8Array({ maxLength: 200 }),
  mutations,
  pieces: fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 8 }),
  method: fc.constantFrom("GET", "HEAD", "POST"),
});

class MemoryTransport implements Transport {
  #at = 0;
  #piece = 0;
  constructor(readonly data: Uint8Array, readonly pieces: number[]) {}
  read(buf: Uint8Array): Promise<number | null> {
    if (this.#at >= this.data.length) return Promise.resolve(null);
    const want = this.pieces[this.#piece++ % this.pieces.length];
    const n = Math.min(want, buf.length, this.data.length - this.#at);
    buf.set(this.data.subarray(this.#at, this.#at + n));
    this.#at += n;
    return Promise.resolve(n);
  }
  write(data: Uint8Array): Promise<number> {
    return Promise.resolve(data.length);
  }
  close(): void {}
}

async function readResponse(bytes: Uint8Array, pieces: number[], method: string): Promise<void> {
  const conn = new Http1Connection(new MemoryTransport(bytes, pieces), 4096);
  try {
    await conn.readHead(method);
    for (let i = 0; i < 10_000; i++) {
      const chunk = await conn.readBody();
      if (chunk === null) return;
    }
    throw new Error("readBody did not finish on a finite input");
  } catch (e) {
    if (e instanceof ProtocolError || e instanceof EofError) return;
    throw e;
  } finally {
    conn.close();
  }
}

async function run(runs: number, seed: number): Promise<FuzzReport> {
  const failures: FuzzFailure[] = [];
  let requests = 0, responses = 0, rejected = 0, exceptions = 0;
  await fc.assert(
    fc.asyncProperty(input, async (i) => {
      const seeds = i.side === "request" ? REQUESTS : RESPONSES;
      const base = i.base < 0 ? String.fromCharCode(...i.random) : seeds[i.base % seeds.length];
      const bytes = mutate(base, i.mutations);
      const shown = JSON.stringify(String.fromCharCode(...bytes));
      try {
        if (i.side === "request") {
          requests++;
          const end = String.fromCharCode(...bytes).indexOf("\r\n\r\n");
          const text = String.fromCharCode(...bytes.subarray(0, end < 0 ? bytes.length : end));
          const head = parseRequestHead(text);
          if (head.error) rejected++;
        } else {
          responses++;
          await readResponse(bytes, i.pieces, i.method);
        }
      } catch (e) {
        exceptions++;
        recordFailure(failures, `${i.side} ${shown}`, e);
      }
      return true;
    }),
    { seed, numRuns: runs, endOnFailure: true },
  );
  return {
    target: "http1",
    runs,
    seed,
    figures: {
      "codec inputs": requests + responses,
      "request heads": requests,
      "rejected heads": rejected,
      "upstream responses": responses,
      "unexpected exceptions": exceptions,
    },
    failures,
  };
}

/** The `http1` fuzz target. */
export const HTTP1_TARGET: FuzzTarget = {
  describe: "bytes to the HTTP/1.1 request-head parser and the upstream response parser",
  run,
};
