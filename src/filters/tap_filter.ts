/**
 * The HTTP tap filter (`envoy.filters.http.tap` / `proxy.filters.http.tap`) with an admin
 * configuration (`common_config.admin_config.config_id`). While a `/tap` admin stream is attached
 * for that id, each request whose exchange satisfies the session's `match` (or v2 `match_config`)
 * is published as an `http_buffered_trace` (request and response headers, and bodies up to
 * `max_buffered_rx_bytes` / `max_buffered_tx_bytes`, default 1024, as `as_bytes` (base64) or, with
 * `format: JSON_BODY_AS_STRING`, `as_string`; `truncated: true` when cut).
 *
 * Sessions live in a module-level registry keyed by config id ({@linkcode attachTapSession}), so
 * the admin handler and the listeners meet without sharing a server context.
 *
 * @example
 * ```ts
 * import { attachTapSession, compileTapMatch } from "./tap_filter.ts";
 * const traces: unknown[] = [];
 * const detach = attachTapSession({
 *   configId: "t", match: compileTapMatch({ any_match: true }, "m", [])!,
 *   maxRx: 1024, maxTx: 1024, asString: true, send: (t) => traces.push(t) > 0,
 * });
 * detach();
 * ```
 * @module
 */
import type { Json } from "../config/bootstrap_types.ts";
import { type Errors, fail, isObject } from "../config/config_values.ts";
import type { MatchInput } from "../http/downstream_request.ts";
import { matchHeaders, parseHeaderMatchers } from "../router/header_matcher.ts";
import type { DownstreamRequest } from "../http/downstream_request.ts";
import { onResponseEnd, type ProxyResponse } from "../http/proxy_response.ts";

/** What a tap match looks at: the request, and the response headers. */
export interface TapInput {
  request: MatchInput;
  responseHeaders: Headers;
}

/** A compiled `MatchPredicate`. */
export type TapMatch = (i: TapInput) => boolean;

/** An attached admin tap session. */
export interface TapSession {
  configId: string;
  match: TapMatch;
  maxRx: number;
  maxTx: number;
  asString: boolean;
  /** Writes one trace; returns false when the stream is gone. */
  send(trace: unknown): boolean;
  /**
   * The `MatchPredicate` that `match` was compiled from, so a copy of the session can run where
   * functions cannot go (data-plane workers).
   */
  matchConfig?: Json;
}

/** Told of every session attached and detached (the worker pool copies them to workers). */
export interface TapSessionWatcher {
  attached(s: TapSession): void;
  detached(s: TapSession): void;
}

let watcher: TapSessionWatcher | null = null;

/** Sets the watcher (null: none); it is told of the sessions already attached. */
export function watchTapSessions(w: TapSessionWatcher | null): void {
  watcher = w;
  if (w) { for (const set of SESSIONS.values()) for (const s of set) w.attached(s); }
}

/** The parsed tap filter of a connection manager. */
export interface TapFilterConfig {
  configId: string;
}

const SESSIONS = new Map<string, Set<TapSession>>();

/** Registers a session; returns the function that detaches it. */
export function attachTapSession(s: TapSession): () => void {
  let set = SESSIONS.get(s.configId);
  if (!set) SESSIONS.set(s.configId, set = new Set());
  set.add(s);
  watcher?.attached(s);
  return () => {
    const cur = SESSIONS.get(s.configId);
    if (!cur?.delete(s)) return;
    if (cur.size === 0) SESSIONS.delete(s.configId);
    watcher?.detached(s);
  };
}

/** Compiles a `MatchPredicate` (v3 `match` or v2 `match_config`); null (with errors) if bad. */
export function compileTapMatch(
  m: Json | undefined,
  path: string,
  errors: Errors,
): TapMatch | null {
  if (!isObject(m)) {
    fail(errors, path, "match must be an object");
    return null;
  }
  const keys = Object.keys(m);
  if (keys.length !== 1) {
    fail(errors, path, "match needs exactly one rule");
    return null;
  }
  const k = keys[0];
  const v = m[k];
  const at = `${path}.${k}`;
  if (k === "any_match") {
    if (v !== true) fail(errors, at, "any_match must be true");
    return v === true ? () => true : null;
  }
  if (k === "and_match" || k === "or_match") {
    const rules = isObject(v) ? v.rules : undefined;
    if (!Array.isArray(rules) || rules.length < 2) {
      fail(errors, `${at}.rules`, "rules must be a list of at least 2 matches");
      return null;
    }
    const subs = rules.map((r, i) => compileTapMatch(r, `${at}.rules[${i}]`, errors));
    if (subs.some((s) => s === null)) return null;
    const fs = subs as TapMatch[];
    return k === "and_match" ? (i) => fs.every((f) => f(i)) : (i) => fs.some((f) => f(i));
  }
  if (k === "not_match") {
    const sub = compileTapMatch(v, at, errors);
    return sub && ((i) => !sub(i));
  }
  if (k === "http_request_headers_match" || k === "http_response_headers_match") {
    if (!isObject(v)) {
      fail(errors, at, "must be an object");
      return null;
    }
    const n = errors.length;
    const hs = parseHeaderMatchers(v.headers, `${at}.headers`, errors);
    if (errors.length !== n) return null;
    if (k === "http_request_headers_match") return (i) => matchHeaders(hs, i.request);
    return (i) => matchHeaders(hs, { ...i.request, headers: i.responseHeaders });
  }
  fail(errors, at, `match rule ${k} is not supported`);
  return null;
}

/** Parses the tap filter's configuration (found at `path`). */
export function parseTapFilter(c: Json, path: string, errors: Errors): TapFilterConfig | null {
  const common = isObject(c) ? c.common_config : undefined;
  const admin = isObject(common) ? common.admin_config : undefined;
  if (!isObject(admin) || typeof admin.config_id !== "string" || admin.config_id === "") {
    fail(
      errors,
      `${path}.common_config.admin_config.config_id`,
      "the tap filter needs common_config.admin_config.config_id (static taps are not supported)",
    );
    return null;
  }
  return { configId: admin.config_id };
}

function headerList(pseudo: [string, string][], h: Headers): { key: string; value: string }[] {
  const out = pseudo.map(([key, value]) => ({ key, value }));
  for (const [key, value] of h) out.push({ key, value });
  return out;
}

/** Copies at most `max` bytes of a stream as it passes; `done` runs when it ends or is cancelled. */
class Capture {
  chunks: Uint8Array[] = [];
  size = 0;
  truncated = false;
  constructor(readonly max: number) {}

  add(c: Uint8Array): void {
    const room = this.max - this.size;
    if (c.byteLength > room) this.truncated = true;
    if (room > 0) {
      const part = c.subarray(0, room);
      this.chunks.push(part.slice());
      this.size += part.byteLength;
    }
  }

  wrap(body: ReadableStream<Uint8Array>, done: () => void): ReadableStream<Uint8Array> {
    const reader = body.getReader();
    return new ReadableStream<Uint8Array>({
      pull: async (ctl) => {
        try {
          const r = await reader.read();
          if (r.done) {
            ctl.close();
            done();
          } else {
            this.add(r.value);
            ctl.enqueue(r.value);
          }
        } catch (e) {
          done();
          ctl.error(e);
        }
      },
      cancel: async (why) => {
        done();
        await reader.cancel(why);
      },
    });
  }

  body(asString: boolean): Record<string, unknown> | undefined {
    if (this.size === 0) return undefined;
    const all = new Uint8Array(this.size);
    let o = 0;
    for (const c of this.chunks) all.set(c, o), o += c.byteLength;
    const b: Record<string, unknown> = asString
      ? { as_string: new TextDecoder().decode(all) }
      : { as_bytes: btoa(Array.from(all, (x) => String.fromCharCode(x)).join("")) };
    if (this.truncated) b.truncated = true;
    return b;
  }
}

/** One tapped exchange: the request to forward, and `finish` for the response. */
export interface TapExchange {
  request: DownstreamRequest;
  finish(res: ProxyResponse): ProxyResponse;
}

/**
 * Starts tapping `req` when sessions are attached for the filter's id (else null: no cost).
 * The trace is published once the response has gone downstream.
 */
export function beginTap(cfg: TapFilterConfig, req: DownstreamRequest): TapExchange | null {
  const set = SESSIONS.get(cfg.configId);
  if (!set || set.size === 0) return null;
  const sessions = [...set];
  const maxRx = Math.max(...sessions.map((s) => s.maxRx));
  const maxTx = Math.max(...sessions.map((s) => s.maxTx));
  const reqHeaders = headerList(
    [
      [":authority", req.authority],
      [":path", req.path],
      [":method", req.method],
      [":scheme", req.scheme],
    ],
    req.headers,
  );
  const rx = new Capture(maxRx);
  const request = req.body === null ? req : { ...req, body: rx.wrap(req.body, () => {}) };
  return {
    request,
    finish(res: ProxyResponse): ProxyResponse {
      const tx = new Capture(maxTx);
      const publish = () => {
        const input: TapInput = { request: req, responseHeaders: res.headers };
        const resHeaders = headerList([[":status", String(res.status)]], res.headers);
        for (const s of sessions) {
          if (!s.match(input)) continue;
          const cut = (c: Capture, max: number) => {
            const k = new Capture(max);
            for (const x of c.chunks) k.add(x);
            k.truncated ||= c.truncated;
            return k.body(s.asString);
          };
          const rqBody = cut(rx, s.maxRx);
          const rsBody = cut(tx, s.maxTx);
          s.send({
            http_buffered_trace: {
              request: { headers: reqHeaders, ...(rqBody ? { body: rqBody } : {}) },
              response: { headers: resHeaders, ...(rsBody ? { body: rsBody } : {}) },
            },
          });
        }
      };
      if (res.body instanceof Uint8Array) tx.add(res.body);
      else if (res.body !== null) res.body = tx.wrap(res.body, () => {});
      onResponseEnd(res, publish);
      return res;
    },
  };
}
