/**
 * A REST control plane (`api_config_source.api_type: REST`) seen as a stream, so the same
 * {@linkcode XdsMux} speaks to it: each `DiscoveryRequest` the mux writes (subscription, ACK,
 * NACK with `error_detail`, the node always) becomes the body of the next poll, a `POST` of proto3 JSON to
 * `/v3/discovery:<type>` on the first host of the source's cluster; a `200` answer (a JSON
 * `DiscoveryResponse`) is handed to the mux as if it had arrived on a stream; `304` means nothing
 * changed. To a cluster with a TLS transport socket the polls go over TLS (`rest_tls_post.ts`). Polls follow one another `refresh_delay` apart; a changed interest (new resource
 * names) polls at once. A poll that takes longer than `request_timeout`, fails to connect,
 * answers another status or a body that does not decode ends the "stream": the mux counts an
 * `update_failure`, keeps what it has and polls again after its back-off. The messages are
 * encoded with the protobuf runtime, which must be loaded (`protobuf_module.ts`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { restOpener } from "./rest_stream.ts";
 * import { PROTOBUF } from "../config/protobuf_module.ts";
 * await PROTOBUF.load(); // as the start-up does when a source is REST
 * const open = restOpener("http://127.0.0.1:1", { refreshDelayMs: 1000, requestTimeoutMs: 100 });
 * const reason = await new Promise<string>((resolve) => {
 *   const s = open("/v3/discovery:clusters", { onMessage() {}, onClose: resolve });
 *   s.write(new Uint8Array()); // an empty DiscoveryRequest
 * });
 * assert.match(reason, /^REST request to \/v3\/discovery:clusters/);
 * open.close();
 * ```
 * @module
 */
import type { OpenStream } from "../config/xds_mux.ts";
import type { RestPost } from "./rest_tls_post.ts";
import type { DiscoveryRequest } from "../config/xds_wire.ts";
import { PROTOBUF } from "../config/protobuf_module.ts";

/** Polling settings of a REST source. */
export interface RestOptions {
  refreshDelayMs: number;
  requestTimeoutMs: number;
  /** How a poll is sent (default: `fetch` to `base`; over TLS: `rest_tls_post.ts`). */
  post?: RestPost;
}

/** Sends a poll with `fetch` to `base` + path. */
function fetchPost(base: string): RestPost {
  return async (path, body, signal) => {
    const res = await fetch(`${base}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
      signal,
    });
    return { status: res.status, text: await res.text() };
  };
}

const interest = (r: DiscoveryRequest) => `${r.type_url}|${r.resource_names.join(",")}`;

/** Opens polling "streams" against `base` (`http://host:port`); `close()` stops them all. */
export function restOpener(base: string, opts: RestOptions): OpenStream & { close(): void } {
  const post = opts.post ?? fetchPost(base);
  const cancels = new Set<() => void>();
  const open: OpenStream = (path, h) => {
    let latest: DiscoveryRequest | null = null;
    /** Every poll carries the node: a REST server keeps no stream to remember it by. */
    let node: DiscoveryRequest["node"];
    let polled = "";
    /** The interest (type and names) the last full answer was for. */
    let answered = "";
    let timer: ReturnType<typeof setTimeout> | undefined;
    let inFlight: AbortController | null = null;
    let over = false;
    const stop = () => {
      over = true;
      clearTimeout(timer);
      inFlight?.abort();
      cancels.delete(stop);
    };
    cancels.add(stop);
    const end = (why: string) => {
      if (over) return;
      stop();
      h.onClose(why);
    };
    const schedule = (ms: number) => {
      clearTimeout(timer);
      timer = setTimeout(() => void poll(), ms);
    };
    const poll = async () => {
      if (over || !latest) return;
      const req = latest;
      polled = interest(req);
      const ac = new AbortController();
      inFlight = ac;
      const deadline = setTimeout(() => ac.abort(), opts.requestTimeoutMs);
      const what = `REST request to ${path}`;
      // A REST server answers 304 to a poll at its current version: after the names changed
      // (a cluster added to an EDS subscription) the poll asks afresh, without a version.
      const body = PROTOBUF.get().requestToJson(
        polled === answered ? req : { ...req, version_info: "" },
      );
      try {
        const res = await post(path, JSON.stringify(body), ac.signal);
        const text = res.text;
        if (over) return;
        if (res.status === 200) {
          let bytes: Uint8Array;
          try {
            bytes = PROTOBUF.get().responseJsonToBinary(JSON.parse(text));
          } catch (e) {
            return end(`${what}: the response does not decode: ${(e as Error).message}`);
          }
          answered = polled;
          h.onMessage(bytes);
        } else if (res.status !== 304) {
          return end(`${what} answered ${res.status}`);
        }
      } catch (e) {
        return end(
          ac.signal.aborted && !over
            ? `${what} timed out after ${opts.requestTimeoutMs} ms (request_timeout)`
            : `${what} failed: ${(e as Error).message}`,
        );
      } finally {
        clearTimeout(deadline);
        if (inFlight === ac) inFlight = null;
      }
      if (over) return;
      schedule(latest && interest(latest) !== polled ? 0 : opts.refreshDelayMs);
    };
    return {
      write: (bytes) => {
        if (over) return;
        try {
          const r = PROTOBUF.get().decodeRequest(bytes);
          node ??= r.node;
          latest = { ...r, node: r.node ?? node };
        } catch (e) {
          return end(`cannot encode the REST request: ${(e as Error).message}`);
        }
        if (!inFlight && interest(latest) !== polled) schedule(0);
      },
      cancel: stop,
    };
  };
  return Object.assign(open, {
    close: () => {
      for (const c of [...cancels]) c();
    },
  });
}
