/**
 * The compressor filter (`envoy.filters.http.compressor`) with the gzip library
 * (`envoy.compression.gzip.compressor`): responses are gzip-compressed, streaming, when Envoy
 * would compress them:
 *
 * - the request's `accept-encoding` accepts `gzip` (or `*`) with a non-zero q;
 * - the response has a body, no `content-encoding`, no `cache-control: no-transform`, a
 *   `content-length` (when given) of at least `min_content_length` (30), and a `content-type`
 *   (when given, without parameters) in `content_type` (Envoy's list by default);
 * - with `disable_on_etag_header`, no `etag`; otherwise a strong `etag` is made weak.
 *
 * The response then has `content-encoding: gzip`, `vary: Accept-Encoding` and no
 * `content-length`. The gzip settings (`compression_level`, `compression_strategy`,
 * `memory_level`, `window_bits`, `chunk_size`) are zlib's, given to `node:zlib` with Envoy's
 * defaults (level 6, default strategy, memory level 5, window bits 12, chunks of 4096 bytes).
 * Stats `http.<prefix>.compressor.<library name>.gzip.response.compressed`, `not_compressed`,
 * `no_accept_header`, `content_length_too_small`, `total_uncompressed_bytes`,
 * `total_compressed_bytes`. Request compression and other libraries are refused.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { acceptsGzip } from "./compressor_filter.ts";
 * assert.equal(acceptsGzip("br;q=1, gzip;q=0.5"), true);
 * assert.equal(acceptsGzip("gzip;q=0, *"), false);
 * ```
 * @module
 */
import type zlib from "node:zlib";
import { ZLIB } from "./zlib_module.ts";
import { Duplex } from "node:stream";
import type { Json } from "../config/bootstrap_types.ts";
import { type Errors, fail, isObject, unwrap } from "../config/config_values.ts";
import type { ProxyResponse } from "../http/proxy_response.ts";
import { type HttpFilterFactory, onlyFields } from "./http_filter.ts";

/** Envoy's default compressible content types. */
export const DEFAULT_CONTENT_TYPES = [
  "text/html",
  "text/plain",
  "text/css",
  "application/javascript",
  "application/x-javascript",
  "text/javascript",
  "text/x-javascript",
  "text/ecmascript",
  "text/js",
  "text/jscript",
  "text/x-js",
  "application/ecmascript",
  "application/x-json",
  "application/xml",
  "application/json",
  "image/svg+xml",
  "text/xml",
  "application/xhtml+xml",
] as const;

/** zlib compression levels by Envoy's enum names. */
const LEVELS = {
  DEFAULT_COMPRESSION: 6,
  BEST_SPEED: 1,
  COMPRESSION_LEVEL_1: 1,
  COMPRESSION_LEVEL_2: 2,
  COMPRESSION_LEVEL_3: 3,
  COMPRESSION_LEVEL_4: 4,
  COMPRESSION_LEVEL_5: 5,
  COMPRESSION_LEVEL_6: 6,
  COMPRESSION_LEVEL_7: 7,
  COMPRESSION_LEVEL_8: 8,
  COMPRESSION_LEVEL_9: 9,
  BEST_COMPRESSION: 9,
} satisfies Record<string, number>;

/** zlib strategies by Envoy's enum names. */
const STRATEGIES = {
  // zlib's Z_DEFAULT_STRATEGY, Z_FILTERED, Z_HUFFMAN_ONLY, Z_RLE and Z_FIXED.
  DEFAULT_STRATEGY: 0,
  FILTERED: 1,
  HUFFMAN_ONLY: 2,
  RLE: 3,
  FIXED: 4,
} satisfies Record<string, number>;

/** A compiled `Compressor` with its gzip library. */
export interface CompressorConfig {
  libraryName: string;
  minLength: number;
  contentTypes: ReadonlySet<string>;
  disableOnEtag: boolean;
  removeAcceptEncoding: boolean;
  enabled: boolean;
  gzip: zlib.ZlibOptions;
}

function u32(
  v: Json | undefined,
  at: string,
  errors: Errors,
  dflt: number,
  lo: number,
  hi: number,
) {
  const x = unwrap(v);
  if (x === undefined) return dflt;
  if (typeof x !== "number" || !Number.isInteger(x) || x < lo || x > hi) {
    return fail(errors, at, `must be an integer in [${lo}, ${hi}]`), dflt;
  }
  return x;
}

function enumOf<T extends Record<string, number>>(
  table: T,
  v: Json | undefined,
  at: string,
  errors: Errors,
  dflt: keyof T,
): number {
  const k = v ?? dflt;
  if (typeof k !== "string" || !(k in table)) {
    return fail(errors, at, `must be one of ${Object.keys(table).join(", ")}`), table[dflt];
  }
  return table[k as keyof T];
}

function parseGzip(v: Json, at: string, errors: Errors): zlib.ZlibOptions {
  if (!isObject(v)) return fail(errors, at, "must be an object"), {};
  onlyFields(
    v,
    ["memory_level", "compression_level", "compression_strategy", "window_bits", "chunk_size"],
    at,
    errors,
  );
  return {
    memLevel: u32(v.memory_level, `${at}.memory_level`, errors, 5, 1, 9),
    level: enumOf(
      LEVELS,
      v.compression_level,
      `${at}.compression_level`,
      errors,
      "DEFAULT_COMPRESSION",
    ),
    strategy: enumOf(
      STRATEGIES,
      v.compression_strategy,
      `${at}.compression_strategy`,
      errors,
      "DEFAULT_STRATEGY",
    ),
    windowBits: u32(v.window_bits, `${at}.window_bits`, errors, 12, 9, 15),
    chunkSize: u32(v.chunk_size, `${at}.chunk_size`, errors, 4096, 4096, 65536),
  };
}

function featureFlag(v: Json | undefined, at: string, errors: Errors): boolean {
  if (v === undefined) return true;
  if (!isObject(v)) return fail(errors, at, "must be an object"), true;
  const d = unwrap(v.default_value);
  if (d !== undefined && typeof d !== "boolean") {
    fail(errors, `${at}.default_value`, "must be a boolean");
  }
  return d !== false;
}

/** Compiles a `Compressor` found at `at`. */
export function parseCompressor(
  c: Record<string, Json>,
  at: string,
  errors: Errors,
): CompressorConfig | null {
  const n = errors.length;
  onlyFields(
    c,
    [
      "compressor_library",
      "response_direction_config",
      "content_length",
      "content_type",
      "disable_on_etag_header",
      "remove_accept_encoding_header",
      "runtime_enabled",
    ],
    at,
    errors,
  );
  const lib = c.compressor_library;
  const libAt = `${at}.compressor_library`;
  let gzip: zlib.ZlibOptions = {};
  let libraryName = "";
  if (!isObject(lib)) fail(errors, libAt, "compressor_library is required");
  else {
    libraryName = typeof lib.name === "string" ? lib.name : "";
    const tc = lib.typed_config;
    const t = isObject(tc) && typeof tc["@type"] === "string" ? tc["@type"] : "";
    if (!t.endsWith("compression.gzip.compressor.v3.Gzip")) {
      fail(
        errors,
        `${libAt}.typed_config`,
        "only the gzip compressor library (envoy.extensions.compression.gzip.compressor.v3.Gzip) is supported by this build",
      );
    } else {
      const { "@type": _t, ...rest } = tc as Record<string, Json>;
      gzip = parseGzip(rest, `${libAt}.typed_config`, errors);
    }
  }
  let common: Record<string, Json> = {};
  let disableOnEtag = unwrap(c.disable_on_etag_header) === true;
  let removeAe = unwrap(c.remove_accept_encoding_header) === true;
  const rd = c.response_direction_config;
  const rdAt = `${at}.response_direction_config`;
  if (rd !== undefined) {
    if (!isObject(rd)) fail(errors, rdAt, "must be an object");
    else {
      onlyFields(
        rd,
        ["common_config", "disable_on_etag_header", "remove_accept_encoding_header"],
        rdAt,
        errors,
      );
      if (isObject(rd.common_config)) common = rd.common_config;
      disableOnEtag ||= unwrap(rd.disable_on_etag_header) === true;
      removeAe ||= unwrap(rd.remove_accept_encoding_header) === true;
    }
  }
  const ccAt = `${rdAt}.common_config`;
  onlyFields(common, ["enabled", "min_content_length", "content_type"], ccAt, errors);
  const minLength = common.min_content_length !== undefined
    ? u32(common.min_content_length, `${ccAt}.min_content_length`, errors, 30, 0, 4294967295)
    : u32(c.content_length, `${at}.content_length`, errors, 30, 0, 4294967295);
  const typesRaw = common.content_type ?? c.content_type;
  let types: readonly string[] = DEFAULT_CONTENT_TYPES;
  if (typesRaw !== undefined) {
    if (!Array.isArray(typesRaw) || typesRaw.some((x) => typeof x !== "string")) {
      fail(errors, `${ccAt}.content_type`, "must be a list of strings");
    } else if (typesRaw.length > 0) types = (typesRaw as string[]).map((x) => x.toLowerCase());
  }
  const enabled = featureFlag(common.enabled ?? c.runtime_enabled, `${ccAt}.enabled`, errors);
  if (errors.length > n) return null;
  return {
    libraryName,
    minLength,
    contentTypes: new Set(types),
    disableOnEtag,
    removeAcceptEncoding: removeAe,
    enabled,
    gzip,
  };
}

/** True when an `accept-encoding` value accepts gzip (by name or by `*`) with q > 0. */
export function acceptsGzip(ae: string): boolean {
  let gzip: number | null = null;
  let star: number | null = null;
  for (const part of ae.split(",")) {
    const [name, ...params] = part.trim().split(";");
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p);
      if (m) q = Number(m[1]);
    }
    const n = name.trim().toLowerCase();
    if (n === "gzip") gzip = q;
    else if (n === "*") star = q;
  }
  if (gzip !== null) return gzip > 0;
  return star !== null && star > 0;
}

function gzipStream(
  body: Uint8Array | ReadableStream<Uint8Array>,
  opts: zlib.ZlibOptions,
  count: (inBytes: number, outBytes: number) => void,
): ReadableStream<Uint8Array> {
  const src = body instanceof Uint8Array
    ? new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(body);
        c.close();
      },
    })
    : body;
  let inBytes = 0;
  let outBytes = 0;
  const counted = src.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, c) {
        inBytes += chunk.byteLength;
        c.enqueue(chunk);
      },
    }),
  );
  const { readable, writable } = Duplex.toWeb(ZLIB.get().createGzip(opts)) as unknown as {
    readable: ReadableStream<Uint8Array>;
    writable: WritableStream<Uint8Array>;
  };
  return counted.pipeThrough({ readable, writable }).pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, c) {
        outBytes += chunk.byteLength;
        c.enqueue(new Uint8Array(chunk));
      },
      flush() {
        count(inBytes, outBytes);
      },
    }),
  );
}

/** The compressor filter. */
export const COMPRESSOR: HttpFilterFactory<CompressorConfig> = {
  kind: "compressor",
  types: ["Compressor"],
  parse: parseCompressor,
  create(c, deps) {
    const s = deps.stats.scope("compressor").scope(c.libraryName).scope("gzip").scope("response");
    const compressed = s.counter("compressed");
    const notCompressed = s.counter("not_compressed");
    const noAccept = s.counter("no_accept_header");
    const tooSmall = s.counter("content_length_too_small");
    const totalIn = s.counter("total_uncompressed_bytes");
    const totalOut = s.counter("total_compressed_bytes");
    // Loading starts with the filter, so the first response seldom waits for it.
    ZLIB.load().catch(() => {});
    return async (ctx, next) => {
      if (!c.enabled) return next();
      const ae = ctx.req.headers.get("accept-encoding");
      if (c.removeAcceptEncoding) ctx.req.headers.delete("accept-encoding");
      const head = ctx.req.method === "HEAD";
      const res = await next();
      if (ae === null) {
        noAccept.inc();
        notCompressed.inc();
        return res;
      }
      if (!compressible(res, c, head, ae, tooSmall)) {
        notCompressed.inc();
        return res;
      }
      if (!ZLIB.loaded) await ZLIB.load();
      compressed.inc();
      const h = res.headers;
      const etag = h.get("etag");
      if (etag !== null && !etag.startsWith("W/")) h.set("etag", `W/${etag}`);
      h.delete("content-length");
      h.set("content-encoding", "gzip");
      const vary = h.get("vary");
      if (vary === null) h.set("vary", "Accept-Encoding");
      else if (!/(^|,)\s*accept-encoding\s*(,|$)/i.test(vary)) {
        h.set("vary", `${vary}, Accept-Encoding`);
      }
      res.body = gzipStream(res.body!, c.gzip, (i, o) => {
        totalIn.inc(i);
        totalOut.inc(o);
      });
      return res;
    };
  },
};

function compressible(
  res: ProxyResponse,
  c: CompressorConfig,
  head: boolean,
  ae: string,
  tooSmall: { inc(): void },
): boolean {
  if (head || res.body === null || res.status === 204 || res.status === 304) return false;
  if (res.body instanceof Uint8Array && res.body.byteLength === 0) return false;
  if (!acceptsGzip(ae)) return false;
  const h = res.headers;
  if (h.has("content-encoding")) return false;
  const te = h.get("transfer-encoding");
  if (te !== null && /gzip|deflate/i.test(te)) return false;
  if (/(^|,)\s*no-transform\s*(,|$)/i.test(h.get("cache-control") ?? "")) return false;
  if (c.disableOnEtag && h.has("etag")) return false;
  const cl = h.get("content-length");
  const len = cl !== null
    ? Number(cl)
    : res.body instanceof Uint8Array
    ? res.body.byteLength
    : null;
  if (len !== null && len < c.minLength) {
    tooSmall.inc();
    return false;
  }
  const ct = h.get("content-type");
  if (ct !== null && ct !== "") {
    const t = ct.split(";")[0].trim().toLowerCase();
    if (!c.contentTypes.has(t)) return false;
  }
  return true;
}
