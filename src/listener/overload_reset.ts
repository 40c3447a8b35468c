/**
 * A downstream stream under the `reset_high_memory_stream` overload action: it gets a buffer
 * account (`req.account`, charged by the buffers that hold its bytes) that the overload manager
 * may reset, as Envoy's buffer memory accounts. A reset aborts the stream's upstream attempt
 * (`req.signal`, so its HTTP/1.1 connection closes or its HTTP/2 stream is reset) and resets the
 * downstream stream: before the answer, HTTP/1.1 closes the connection without a response
 * (the answer is status 0: nothing to write) and HTTP/2 resets the stream after its head (Deno's
 * server cannot reset a stream without one); after the answer's head, its body is cut. The
 * account closes when the response ends.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { accountedStream } from "./overload_reset.ts";
 * import { MemoryAccounts } from "../http/memory_account.ts";
 * import { fromRequest } from "../http/downstream_request.ts";
 * const accounts = new MemoryAccounts(10);
 * const req = fromRequest(new Request("http://a/"));
 * let resets = 0;
 * req.reset = () => {};
 * const res = accountedStream(accounts, req, (r) => {
 *   r.account!.charge(1 << 20);
 *   return new Promise(() => {});
 * }, () => resets++);
 * accounts.resetGivenPressure(1);
 * assert.equal((await res).status, 0);
 * assert.equal(resets, 1);
 * ```
 * @module
 */
import type { DownstreamRequest } from "../http/downstream_request.ts";
import type { MemoryAccounts } from "../http/memory_account.ts";
import type { ProxyResponse } from "../http/proxy_response.ts";
import { HeaderMap } from "../http/header_map.ts";
import { StreamReset } from "../http/stream_reset.ts";

/** The error that cuts a body reset by the overload manager. */
const RESET = "stream reset by the overload manager";

/**
 * Runs `run` for `req` with a buffer account of `accounts`; `counted` is told when the overload
 * manager resets the stream (to count it and flag the access log entry `OM`).
 */
export async function accountedStream(
  accounts: MemoryAccounts,
  req: DownstreamRequest,
  run: (req: DownstreamRequest) => Promise<ProxyResponse>,
  counted: () => void,
): Promise<ProxyResponse> {
  const ctl = new StreamReset();
  let answered = false;
  let fire: (v: null) => void = () => {};
  const reset = new Promise<null>((r) => fire = r);
  let cut: ((e: Error) => void) | null = null;
  const account = accounts.open(() => {
    counted();
    ctl.reset();
    if (!answered) {
      req.reset?.();
      fire(null);
    } else cut?.(new Error(RESET));
  });
  req.account = account;
  req.signal = req.signal === undefined ? ctl : StreamReset.any(req.signal, ctl);
  const pending = run(req);
  const res = await Promise.race([pending, reset]);
  if (res === null) {
    pending.then((late) => {
      if (late.body instanceof ReadableStream) late.body.cancel().catch(() => {});
    }, () => {});
    return resetAnswer(req);
  }
  answered = true;
  if (!(res.body instanceof ReadableStream)) {
    account.close();
    return res;
  }
  const rd = res.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    start(ctrl) {
      cut = (e) => {
        cut = null;
        try {
          ctrl.error(e);
        } catch { /* already ended */ }
        rd.cancel(e).catch(() => {});
      };
    },
    async pull(ctrl) {
      const r = await rd.read();
      if (r.done) {
        cut = null;
        account.close();
        ctrl.close();
      } else ctrl.enqueue(r.value);
    },
    cancel(reason) {
      cut = null;
      account.close();
      return rd.cancel(reason);
    },
  }, { highWaterMark: 0 });
  return { ...res, body };
}

/**
 * The answer of a stream reset before its response: status 0 (nothing is written; the codec
 * closed the stream) when the codec can reset it, else a head whose body fails at once.
 */
function resetAnswer(req: DownstreamRequest): ProxyResponse {
  if (req.reset !== undefined) return { status: 0, headers: new HeaderMap(), body: null };
  const body = new ReadableStream<Uint8Array>({
    start(ctrl) {
      ctrl.error(new Error(RESET));
    },
  });
  return { status: 503, headers: new HeaderMap(), body };
}
