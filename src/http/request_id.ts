/**
 * `x-request-id` values: random (version 4) UUIDs made from a pool of random bytes filled 4 KiB
 * at a time by the system's secure generator, turned into text through a byte -> hex table, so a
 * request costs no call into the runtime.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { uuidV4 } from "./request_id.ts";
 * assert.match(uuidV4(), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
 * ```
 * @module
 */

const POOL = 4096;
const pool = new Uint8Array(POOL);
let at = POOL;
const HEX: string[] = [];
for (let i = 0; i < 256; i++) HEX.push((i < 16 ? "0" : "") + i.toString(16));

/** A random version 4 UUID in lower-case hex (`xxxxxxxx-xxxx-4xxx-Nxxx-xxxxxxxxxxxx`). */
export function uuidV4(): string {
  if (at + 16 > POOL) {
    crypto.getRandomValues(pool);
    at = 0;
  }
  const b = pool;
  const i = at;
  at += 16;
  return HEX[b[i]] + HEX[b[i + 1]] + HEX[b[i + 2]] + HEX[b[i + 3]] + "-" +
    HEX[b[i + 4]] + HEX[b[i + 5]] + "-" +
    HEX[(b[i + 6] & 0x0f) | 0x40] + HEX[b[i + 7]] + "-" +
    HEX[(b[i + 8] & 0x3f) | 0x80] + HEX[b[i + 9]] + "-" +
    HEX[b[i + 10]] + HEX[b[i + 11]] + HEX[b[i + 12]] + HEX[b[i + 13]] + HEX[b[i + 14]] +
    HEX[b[i + 15]];
}
