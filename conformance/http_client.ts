/**
 * A small HTTP client for the admin interface under test. Every request is recorded as a `curl`
 * line that reproduces it; every body is read (or cancelled) so no resource leaks.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { HttpClient } from "./http_client.ts";
 * // A stand-in for the admin interface under test.
 * await using admin = Deno.serve(
 *   { hostname: "127.0.0.1", port: 0, onListen() {} },
 *   () => new Response("LIVE\n"),
 * );
 * const http = new HttpClient(`http://127.0.0.1:${admin.addr.port}`);
 * const r = await http.request("GET", "/ready");
 * assert.equal(r.status, 200);
 * assert.equal(r.body, "LIVE\n");
 * ```
 * @module
 */
import { NotRun } from "./types.ts";

/** A response with its body read. */
export interface HttpResult {
  status: number;
  headers: Headers;
  body: string;
  /** The media type without parameters, lower case (`application/json`). */
  mediaType: string;
  /** The `curl` line that reproduces the request. */
  curl: string;
}

/** Options of one request. */
export interface RequestOptions {
  body?: string;
  headers?: Record<string, string>;
  /** Read at most this many bytes, then cancel (for streams such as `text/event-stream`). */
  maxBytes?: number;
  /** Aborts this request alone (beside the client's signal and time limit). */
  signal?: AbortSignal;
}

/** Client bound to one base URL. */
export class HttpClient {
  #base: string | null;
  #timeoutMs: number;
  /** `curl` lines sent so far by the current case (the runner reads and clears them). */
  log: string[] = [];
  /** A signal that aborts requests (the case's timeout). */
  signal?: AbortSignal;

  /**
   * @param baseUrl the admin interface, or null when none was given
   * @param timeoutMs the longest one request may take
   */
  constructor(baseUrl: string | null, timeoutMs = 10_000) {
    this.#base = baseUrl === null ? null : baseUrl.replace(/\/+$/, "");
    this.#timeoutMs = timeoutMs;
  }

  /** A client for the same target with its own log, aborted by `signal`. */
  fork(signal?: AbortSignal): HttpClient {
    const c = new HttpClient(this.#base, this.#timeoutMs);
    if (signal) c.signal = signal;
    return c;
  }

  /** True when a base URL was given. */
  get available(): boolean {
    return this.#base !== null;
  }

  /** The base URL (without a trailing slash). */
  get base(): string {
    if (this.#base === null) throw new NotRun("no --base-url was given: admin rules need it");
    return this.#base;
  }

  /**
   * Sends one request and reads the answer.
   *
   * @param method HTTP method
   * @param pathAndQuery e.g. `/stats?format=json`
   * @param opts body, headers, byte limit
   * @returns the answer
   */
  async request(
    method: string,
    pathAndQuery: string,
    opts: RequestOptions = {},
  ): Promise<HttpResult> {
    const url = this.base + pathAndQuery;
    const curl = curlLine(method, url, opts);
    this.log.push(curl);
    const timeout = AbortSignal.timeout(this.#timeoutMs);
    const signal = AbortSignal.any(
      [timeout, ...(this.signal ? [this.signal] : []), ...(opts.signal ? [opts.signal] : [])],
    );
    const res = await fetch(url, { method, body: opts.body, headers: opts.headers, signal });
    const body = await readBody(res, opts.maxBytes);
    const ct = res.headers.get("content-type") ?? "";
    return {
      status: res.status,
      headers: res.headers,
      body,
      mediaType: ct.split(";")[0].trim().toLowerCase(),
      curl,
    };
  }

  /**
   * Sends a request and parses a JSON body.
   *
   * @param method HTTP method
   * @param pathAndQuery path and query
   * @returns the answer and the parsed value
   * @throws {Error} when the body is not JSON
   */
  async json(method: string, pathAndQuery: string): Promise<HttpResult & { value: unknown }> {
    const r = await this.request(method, pathAndQuery);
    try {
      return { ...r, value: JSON.parse(r.body) };
    } catch (e) {
      throw new Error(
        `${method} ${pathAndQuery}: body is not JSON (${(e as Error).message}): ${
          r.body.slice(0, 200)
        }`,
      );
    }
  }
}

async function readBody(res: Response, maxBytes?: number): Promise<string> {
  if (res.body === null) return "";
  if (maxBytes === undefined) return await res.text();
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let n = 0;
  try {
    while (n < maxBytes) {
      const { value, done } = await reader.read();
      if (done) break;
      chunks.push(value);
      n += value.length;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  const all = new Uint8Array(n);
  let off = 0;
  for (const c of chunks) {
    all.set(c, off);
    off += c.length;
  }
  return new TextDecoder().decode(all);
}

/**
 * Renders a request as a `curl` command line.
 *
 * @param method HTTP method
 * @param url full URL
 * @param opts body and headers
 * @returns the line
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { curlLine } from "./http_client.ts";
 * assert.equal(
 *   curlLine("POST", "http://127.0.0.1:9901/healthcheck/fail", {}),
 *   "curl -sS -i -X POST 'http://127.0.0.1:9901/healthcheck/fail'",
 * );
 * ```
 */
export function curlLine(method: string, url: string, opts: RequestOptions = {}): string {
  const q = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  const parts = ["curl", "-sS", "-i"];
  if (method !== "GET") parts.push("-X", method);
  for (const [k, v] of Object.entries(opts.headers ?? {})) parts.push("-H", q(`${k}: ${v}`));
  if (opts.body !== undefined) parts.push("--data-binary", q(opts.body));
  parts.push(q(url));
  return parts.join(" ");
}
