/**
 * The HTTP/2 frames of a downstream HTTP/2 connection (`h2_server.ts`), followed
 * through the chunks they arrive in, once per direction:
 *
 * - {@linkcode FrameWalker} tells each frame's header and where frames end;
 * - {@linkcode FrameSplicer} walks the codec's bytes on their way to the client and
 *   puts frames of the proxy's own between two of its frames: a drain's notice
 *   ({@linkcode GOAWAY_NOTICE}: last stream 2^31-1, NO_ERROR, as Envoy's `shutdownNotice()`
 *   sends when a drain closes an HTTP/2 connection, so the client opens no new streams and the
 *   ones in flight finish), or a timer's GOAWAY ({@linkcode goawayFrame}). Nothing is put in
 *   before the server's first frame (its SETTINGS must come first).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { FrameSplicer, GOAWAY_NOTICE } from "./h2_frames.ts";
 * const seen: number[] = [];
 * const s = new FrameSplicer((type) => seen.push(type));
 * const settings = new Uint8Array([0, 0, 0, 4, 0, 0, 0, 0, 0]);
 * assert.deepEqual(s.feed(settings), [settings]);
 * assert.deepEqual(seen, [4]);
 * assert.deepEqual(s.request(), GOAWAY_NOTICE); // between frames: send it now
 * assert.equal(s.request(), null); // once per connection
 * ```
 * @module
 */

/** HTTP/2 frame type of GOAWAY. */
const GOAWAY = 0x7;
const HEADER = 9;

/** A GOAWAY frame (NO_ERROR) naming `lastStreamId`. */
export function goawayFrame(lastStreamId: number): Uint8Array {
  const f = new Uint8Array(HEADER + 8);
  f[2] = 8; // length
  f[3] = GOAWAY;
  new DataView(f.buffer).setUint32(9, lastStreamId & 0x7fffffff);
  return f;
}

/** The drain notice: GOAWAY on stream 0, last stream ID 2^31-1, NO_ERROR (RFC 9113 §6.8). */
export const GOAWAY_NOTICE: Uint8Array = goawayFrame(0x7fffffff);

/** What a walker tells of each frame header. */
export type OnFrame = (type: number, flags: number, stream: number) => void;

/**
 * Follows the frames of one direction of an HTTP/2 connection through the chunks it is carried
 * in: tells each frame's header, and where frames end.
 */
export class FrameWalker {
  readonly #head = new Uint8Array(HEADER);
  #headLen = 0;
  #left = 0;
  #skip: number;

  /** `skip` bytes come first that are not frames (the client's connection preface). */
  constructor(readonly onFrame?: OnFrame, skip = 0) {
    this.#skip = skip;
  }

  /** Reads the next chunk; returns the offset just past the first frame ending in it, or -1. */
  push(b: Uint8Array): number {
    let first = -1;
    let i = 0;
    while (i < b.length) {
      if (this.#skip > 0) {
        const n = Math.min(this.#skip, b.length - i);
        this.#skip -= n;
        i += n;
      } else if (this.#left > 0) {
        const n = Math.min(this.#left, b.length - i);
        this.#left -= n;
        i += n;
        if (this.#left === 0 && first < 0) first = i;
      } else {
        const n = Math.min(HEADER - this.#headLen, b.length - i);
        this.#head.set(b.subarray(i, i + n), this.#headLen);
        this.#headLen += n;
        i += n;
        if (this.#headLen === HEADER) {
          const h = this.#head;
          this.#headLen = 0;
          this.#left = (h[0] << 16) | (h[1] << 8) | h[2];
          const stream = (((h[5] & 0x7f) << 24) | (h[6] << 16) | (h[7] << 8) | h[8]) >>> 0;
          this.onFrame?.(h[3], h[4], stream);
          if (this.#left === 0 && first < 0) first = i;
        }
      }
    }
    return first;
  }

  /** True when the bytes so far end between frames. */
  get atBoundary(): boolean {
    return this.#skip === 0 && this.#left === 0 && this.#headLen === 0;
  }
}

/** Walks a server's HTTP/2 byte stream and splices the proxy's own frames in between frames. */
export class FrameSplicer {
  readonly #walker: FrameWalker;
  /** At least one whole frame went by (the server's SETTINGS must come first). */
  #started = false;
  #pending: Uint8Array[] = [];
  #noticed = false;

  /** `onFrame` hears every frame header of the server's. */
  constructor(onFrame?: OnFrame) {
    this.#walker = new FrameWalker(onFrame);
  }

  /** True when everything fed so far ends on a frame boundary after the first frame. */
  get atBoundary(): boolean {
    return this.#started && this.#walker.atBoundary;
  }

  /**
   * Puts `frame` in: returns it when it can be written now (the stream is between frames and
   * nothing waits before it), else null and it goes out with the next {@linkcode FrameSplicer.feed}
   * that reaches a boundary.
   */
  insert(frame: Uint8Array): Uint8Array | null {
    if (this.atBoundary && this.#pending.length === 0) return frame;
    this.#pending.push(frame);
    return null;
  }

  /** Asks for the drain notice, once per connection ({@linkcode FrameSplicer.insert}). */
  request(): Uint8Array | null {
    if (this.#noticed) return null;
    this.#noticed = true;
    return this.insert(GOAWAY_NOTICE);
  }

  /** Takes the next bytes the server wrote; returns the pieces to write, frames spliced in. */
  feed(chunk: Uint8Array): Uint8Array[] {
    const at = this.#walker.push(chunk);
    if (at < 0) return [chunk];
    this.#started = true;
    if (this.#pending.length === 0) return [chunk];
    const frames = this.#pending.splice(0);
    return at === chunk.length
      ? [chunk, ...frames]
      : [chunk.subarray(0, at), ...frames, chunk.subarray(at)];
  }
}
