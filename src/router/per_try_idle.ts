/**
 * `per_try_idle_timeout` of a retry policy, as Envoy's router runs it: each attempt gets an idle
 * timer that starts once the request has been sent upstream (its body read in full) and is
 * pushed back by every chunk of the response body. When it fires before the response head, the
 * attempt ends with `504 upstream request timeout` (flag `UT`, counted as
 * `upstream_rq_per_try_idle_timeout`), which the retry policy may retry as a per-try timeout;
 * when it fires while the body streams, the body is cut (the downstream stream is reset).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { idleAttempt } from "./per_try_idle.ts";
 * const never = () => new Promise<never>(() => {});
 * const r = await idleAttempt(never, null, 5, () => {});
 * assert.equal(r.status, 504);
 * assert.equal(r.flag, "UT");
 * ```
 * @module
 */
import type { ProxyResponse } from "../http/proxy_response.ts";
import { localReply, UPSTREAM_TIMEOUT } from "../http/local_reply.ts";

/** Wraps `body` so `sent` is called once it has been read to its end. */
function watchSent(
  body: ReadableStream<Uint8Array>,
  sent: () => void,
): ReadableStream<Uint8Array> {
  const rd = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(ctrl) {
      const r = await rd.read();
      if (r.done) {
        sent();
        ctrl.close();
      } else ctrl.enqueue(r.value);
    },
    cancel(reason) {
      return rd.cancel(reason);
    },
  }, { highWaterMark: 0 });
}

/**
 * Runs one attempt (`send` with the request body `body`, wrapped) under an idle timer of
 * `idleMs`; `fired` is told when it fires (to count it), and the attempt is answered `status`
 * (504, or the request's alternative timeout status). Never rejects when `send` does not.
 */
export function idleAttempt(
  send: (body: ReadableStream<Uint8Array> | null) => Promise<ProxyResponse>,
  body: ReadableStream<Uint8Array> | null,
  idleMs: number,
  fired: (beforeHead: boolean) => void,
  status: number = 504,
): Promise<ProxyResponse> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onFire: () => void = () => {};
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => onFire(), idleMs);
  };
  return new Promise<ProxyResponse>((resolve) => {
    let settled = false;
    onFire = () => {
      settled = true;
      fired(true);
      resolve(localReply(status, UPSTREAM_TIMEOUT));
    };
    const wrapped = body === null ? null : watchSent(body, arm);
    if (wrapped === null) arm();
    send(wrapped).then((res) => {
      if (settled) {
        // The attempt timed out: whatever it answers later is dropped.
        if (res.body instanceof ReadableStream) res.body.cancel().catch(() => {});
        return;
      }
      settled = true;
      if (!(res.body instanceof ReadableStream)) {
        clearTimeout(timer);
        return resolve(res);
      }
      resolve({ ...res, body: idleBody(res.body) });
    }, () => {
      clearTimeout(timer);
      if (!settled) resolve(localReply(503, "upstream connect error or disconnect/reset"));
    });
  });

  function idleBody(b: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
    const rd = b.getReader();
    let failed: ((e: Error) => void) | null = null;
    onFire = () => {
      fired(false);
      rd.cancel().catch(() => {});
      failed?.(new Error("upstream per try idle timeout"));
    };
    arm();
    return new ReadableStream<Uint8Array>({
      start(ctrl) {
        failed = (e) => ctrl.error(e);
      },
      async pull(ctrl) {
        let r: ReadableStreamReadResult<Uint8Array>;
        try {
          r = await rd.read();
        } catch (e) {
          clearTimeout(timer);
          throw e;
        }
        if (r.done) {
          clearTimeout(timer);
          failed = null;
          ctrl.close();
        } else {
          arm();
          ctrl.enqueue(r.value);
        }
      },
      cancel(reason) {
        clearTimeout(timer);
        failed = null;
        return rd.cancel(reason);
      },
    }, { highWaterMark: 0 });
  }
}
