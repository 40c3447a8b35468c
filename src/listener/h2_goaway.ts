/**
 * A drain notice for one HTTP/2 connection carried by the h2c bridge: the bytes the bridged
 * server writes are HTTP/2 frames, so a GOAWAY frame can be put between two of them. The frame
 * names the highest stream ID (2^31-1) with NO_ERROR, as Envoy's `shutdownNotice()` does when a
 * drain closes an HTTP/2 connection: the client opens no new streams on it, the streams in
 * flight finish, and the client then closes the connection (the final GOAWAY with the real
 * last stream comes from the bridged server when the listener stops).
 *
 * {@linkcode GoawaySplicer} follows the frame boundaries of the server's byte stream across
 * reads; {@linkcode GoawaySplicer.request} asks for the notice, which goes out at the next
 * boundary (at once when the stream is between frames).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { GOAWAY_NOTICE, GoawaySplicer } from "./h2_goaway.ts";
 * const s = new GoawaySplicer();
 * const settings = new Uint8Array([0, 0, 0, 4, 0, 0, 0, 0, 0]);
 * assert.deepEqual(s.feed(settings), [settings]);
 * assert.deepEqual(s.request(), GOAWAY_NOTICE); // between frames: send it now
 * assert.equal(s.request(), null); // once per connection
 * ```
 * @module
 */

/** HTTP/2 frame type of GOAWAY. */
const GOAWAY = 0x7;
const HEADER = 9;

/** GOAWAY on stream 0, last stream ID 2^31-1, error code NO_ERROR (RFC 9113 §6.8). */
export const GOAWAY_NOTICE: Uint8Array = new Uint8Array([
  0,
  0,
  8,
  GOAWAY,
  0,
  0,
  0,
  0,
  0,
  0x7f,
  0xff,
  0xff,
  0xff,
  0,
  0,
  0,
  0,
]);

/** Tracks frame boundaries of a server's HTTP/2 byte stream and splices in one GOAWAY notice. */
export class GoawaySplicer {
  /** Bytes of the current frame still to come (its header included while it is incomplete). */
  #left = 0;
  /** Header bytes of the next frame seen so far (a header can be split across reads). */
  readonly #head = new Uint8Array(HEADER);
  #headLen = 0;
  /** At least one whole frame went by (the server's SETTINGS must come first). */
  #started = false;
  #pending = false;
  #sent = false;

  /** True once the notice was handed out. */
  get sent(): boolean {
    return this.#sent;
  }

  /** True when everything fed so far ends on a frame boundary after the first frame. */
  get atBoundary(): boolean {
    return this.#started && this.#left === 0 && this.#headLen === 0;
  }

  /**
   * Asks for the notice: returns its bytes when they can be written now (the stream is between
   * frames), else null and the notice is spliced into the next {@linkcode GoawaySplicer.feed}.
   * Null as well once the notice was sent.
   */
  request(): Uint8Array | null {
    if (this.#sent) return null;
    if (this.atBoundary) {
      this.#sent = true;
      this.#pending = false;
      return GOAWAY_NOTICE;
    }
    this.#pending = true;
    return null;
  }

  /** Takes the next bytes the server wrote; returns the pieces to write, the notice spliced in. */
  feed(chunk: Uint8Array): Uint8Array[] {
    let i = 0;
    while (i < chunk.length) {
      if (this.#left > 0) {
        const n = Math.min(this.#left, chunk.length - i);
        this.#left -= n;
        i += n;
      } else {
        const n = Math.min(HEADER - this.#headLen, chunk.length - i);
        this.#head.set(chunk.subarray(i, i + n), this.#headLen);
        this.#headLen += n;
        i += n;
        if (this.#headLen < HEADER) break;
        const h = this.#head;
        this.#left = (h[0] << 16) | (h[1] << 8) | h[2];
        this.#headLen = 0;
      }
      if (this.#left === 0 && this.#headLen === 0) {
        this.#started = true;
        if (this.#pending) {
          this.#pending = false;
          this.#sent = true;
          return i === chunk.length
            ? [chunk, GOAWAY_NOTICE]
            : [chunk.subarray(0, i), GOAWAY_NOTICE, ...this.feed(chunk.subarray(i))];
        }
      }
    }
    return [chunk];
  }
}
