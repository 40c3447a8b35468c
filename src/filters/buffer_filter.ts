/**
 * The buffer filter (`envoy.filters.http.buffer`, `Buffer`): the whole request body is read
 * before the request goes on (with its `content-length` then known). A body larger than
 * `max_request_bytes` is answered `413` with the body `Payload Too Large`, as Envoy's connection
 * manager does when a filter's buffer overflows. A route's `BufferPerRoute` disables the filter
 * (`disabled: true`) or gives its own `buffer`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { BUFFER } from "./buffer_filter.ts";
 * const errors: { path: string; rule: string; message: string }[] = [];
 * assert.deepEqual(BUFFER.parse({ max_request_bytes: 1024 }, "b", errors), { max: 1024 });
 * ```
 * @module
 */
import type { Json } from "../config/bootstrap_types.ts";
import { type Errors, fail, isObject, unwrap } from "../config/config_values.ts";
import { localReply } from "../http/local_reply.ts";
import type { DownstreamRequest } from "../http/downstream_request.ts";
import { anyBody, type HttpFilterFactory, onlyFields } from "./http_filter.ts";

/** A compiled `Buffer`. */
export interface BufferConfig {
  max: number;
}

/** A compiled `BufferPerRoute`: disabled, or its own limit. */
export type BufferPerRoute = { disabled: true } | BufferConfig;

function parseBuffer(v: Json, at: string, errors: Errors): BufferConfig | null {
  const c = anyBody(v);
  if (c === null) return fail(errors, at, "must be an object"), null;
  if (!onlyFields(c, ["max_request_bytes"], at, errors)) return null;
  const max = unwrap(c.max_request_bytes);
  if (typeof max !== "number" || !Number.isInteger(max) || max < 1 || max > 4294967295) {
    return fail(errors, `${at}.max_request_bytes`, "max_request_bytes is required (1..4294967295)"),
      null;
  }
  return { max };
}

function parsePerRoute(v: Json, at: string, errors: Errors): BufferPerRoute | null {
  const c = anyBody(v);
  if (c === null) return fail(errors, at, "must be an object"), null;
  if (!onlyFields(c, ["disabled", "buffer"], at, errors)) return null;
  if (c.disabled !== undefined && c.buffer !== undefined) {
    return fail(errors, at, "only one of disabled, buffer"), null;
  }
  if (c.disabled === true) return { disabled: true };
  if (isObject(c.buffer)) return parseBuffer(c.buffer, `${at}.buffer`, errors);
  return fail(errors, at, "one of disabled (true), buffer is required"), null;
}

/** Reads `req`'s body up to `max` bytes: the bytes, or null when there are more. */
async function readUpTo(req: DownstreamRequest, max: number): Promise<Uint8Array | null> {
  const rd = req.body!.getReader();
  const parts: Uint8Array[] = [];
  let n = 0;
  for (;;) {
    const { done, value } = await rd.read();
    if (done) break;
    n += value.byteLength;
    if (n > max) {
      rd.cancel().catch(() => {});
      return null;
    }
    parts.push(value);
    req.account?.charge(value.byteLength);
  }
  const out = new Uint8Array(n);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.byteLength;
  }
  return out;
}

const NAME = "proxy.filters.http.buffer";

/** The buffer filter. */
export const BUFFER: HttpFilterFactory<BufferConfig> = {
  kind: "buffer",
  types: ["Buffer"],
  parse: parseBuffer,
  parsePerRoute,
  create(base) {
    return async (ctx, next) => {
      const per = ctx.perRoute<BufferPerRoute>(NAME);
      if (per !== undefined && "disabled" in per) return next();
      const max = (per ?? base).max;
      const req = ctx.req;
      if (req.body === null) return next();
      const tooLarge = () => {
        if (ctx.lg !== null) ctx.lg.details = "request_payload_too_large";
        return localReply(413, "Payload Too Large");
      };
      if (req.contentLength > max) {
        req.body.cancel().catch(() => {});
        return tooLarge();
      }
      const body = await readUpTo(req, max);
      if (body === null) return tooLarge();
      ctx.req = {
        ...req,
        contentLength: body.byteLength,
        body: new ReadableStream<Uint8Array>({
          start(ctrl) {
            if (body.byteLength > 0) ctrl.enqueue(body);
            ctrl.close();
          },
        }),
      };
      return next();
    };
  },
};
