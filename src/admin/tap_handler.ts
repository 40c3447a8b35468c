/**
 * `/tap` (POST; only when a tap filter is configured with `admin_config`): the body is a YAML or
 * JSON `TapRequest {config_id, tap_config}`; a valid request attaches a streaming answer to which
 * every trace of that tap configuration is written as one JSON line, until the client detaches.
 * Error texts are Envoy's (400): no body -> `/tap requires a JSON/YAML body`; unknown id ->
 * `Unknown config id '<id>'. No extension has registered with this id.`; a second stream ->
 * `An attached /tap admin stream already exists. Detach it.`; an invalid request -> the reason.
 *
 * The proxy core publishes traces with {@linkcode publishTap}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { publishTap } from "./tap_handler.ts";
 * import { testContext } from "./testing_context.ts";
 * const server = testContext();
 * const trace = { http_buffered_trace: { request: { headers: [] } } };
 * assert.equal(publishTap(server, "my_tap", trace), false); // no /tap session is listening
 * ```
 * @module
 */
// @ts-types="@types/js-yaml"
import yaml from "js-yaml";
import type { ServerContext } from "../server/context.ts";
import type { Json } from "../config/bootstrap_types.ts";
import type { ConfigError } from "../config/errors.ts";
import type { Handler } from "./types.ts";
import { loadYamlBounded } from "../config/yaml_limits.ts";
import { textResponse } from "../config/proto_json.ts";
import { attachTapSession, compileTapMatch, type TapMatch } from "../filters/tap_filter.ts";

/** Largest accepted request body. */
export const MAX_TAP_BODY = 1 << 20;

interface Attached {
  configId: string;
  controller: ReadableStreamDefaultController<Uint8Array>;
  /** Removes the session from the tap filters' registry. */
  detach: () => void;
}

/** Default of `max_buffered_rx_bytes` / `max_buffered_tx_bytes`. */
export const DEFAULT_MAX_BUFFERED_BYTES = 1024;

const FORMATS = ["JSON_BODY_AS_BYTES", "JSON_BODY_AS_STRING"];

/**
 * The output options of a tap config (`format` read from the sink, as in v3, or from
 * `output_config`), or the reason they are invalid.
 */
export function tapOutput(
  out: Record<string, unknown>,
): { maxRx: number; maxTx: number; asString: boolean } | string {
  const size = (k: string): number | string => {
    let v = out[k];
    if (v !== null && typeof v === "object" && "value" in v) v = (v as { value: unknown }).value;
    if (v === undefined) return DEFAULT_MAX_BUFFERED_BYTES;
    const n = typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v;
    if (typeof n !== "number" || !Number.isInteger(n) || n < 0 || n > 0xffffffff) {
      return `TapRequest.tap_config.output_config.${k}: must be an unsigned 32-bit integer`;
    }
    return n;
  };
  const maxRx = size("max_buffered_rx_bytes");
  if (typeof maxRx === "string") return maxRx;
  const maxTx = size("max_buffered_tx_bytes");
  if (typeof maxTx === "string") return maxTx;
  const sink = Array.isArray(out.sinks) ? out.sinks[0] as Record<string, unknown> | null : null;
  const format = sink?.format ?? out.format ?? "JSON_BODY_AS_BYTES";
  if (typeof format !== "string" || !FORMATS.includes(format)) {
    return `TapRequest.tap_config.output_config.format: the admin sink supports only ${
      FORMATS.join(" and ")
    }`;
  }
  return { maxRx, maxTx, asString: format === "JSON_BODY_AS_STRING" };
}

const ATTACHED = new WeakMap<ServerContext, Attached>();
const enc = new TextEncoder();

/** The `admin_config.config_id`s of tap filters anywhere in the server's listeners. */
export function tapConfigIds(server: ServerContext): Set<string> {
  const ids = new Set<string>();
  const walk = (v: unknown, depth: number) => {
    if (depth > 64 || v === null || typeof v !== "object") return;
    if (Array.isArray(v)) return v.forEach((x) => walk(x, depth + 1));
    const o = v as Record<string, unknown>;
    const admin = o.admin_config as Record<string, unknown> | undefined;
    if (admin && typeof admin === "object" && typeof admin.config_id === "string") {
      ids.add(admin.config_id);
    }
    for (const x of Object.values(o)) walk(x, depth + 1);
  };
  walk(server.bootstrap.static_resources?.listeners ?? [], 0);
  return ids;
}

/** Sends a trace to the attached stream of `configId`, if any. Returns whether it was sent. */
export function publishTap(server: ServerContext, configId: string, trace: unknown): boolean {
  const a = ATTACHED.get(server);
  if (!a || a.configId !== configId) return false;
  try {
    a.controller.enqueue(enc.encode(JSON.stringify(trace) + "\n"));
    return true;
  } catch {
    ATTACHED.delete(server);
    a.detach();
    return false;
  }
}

/** Detaches the stream of a server (at shutdown). */
export function detachTap(server: ServerContext): void {
  const a = ATTACHED.get(server);
  ATTACHED.delete(server);
  a?.detach();
  try {
    a?.controller.close();
  } catch {
    // already closed
  }
}

/** Checks a parsed TapRequest; returns the reason it is invalid, or null. */
export function validateTapRequest(v: unknown): string | null {
  if (v === null || typeof v !== "object" || Array.isArray(v)) {
    return "TapRequest: the body must be an object with config_id and tap_config";
  }
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (k !== "config_id" && k !== "tap_config") return `TapRequest: unknown field "${k}"`;
  }
  if (typeof o.config_id !== "string" || o.config_id === "") {
    return "TapRequest.config_id: value length must be at least 1 characters";
  }
  const tc = o.tap_config as Record<string, unknown> | undefined;
  if (!tc || typeof tc !== "object" || Array.isArray(tc)) {
    return "TapRequest.tap_config: value is required";
  }
  if (typeof (tc.match ?? tc.match_config) !== "object" || (tc.match ?? tc.match_config) === null) {
    return "TapRequest.tap_config.match: value is required";
  }
  const out = tc.output_config as Record<string, unknown> | undefined;
  const sinks = out && typeof out === "object" ? out.sinks : undefined;
  if (!Array.isArray(sinks) || sinks.length !== 1) {
    return "TapRequest.tap_config.output_config.sinks: exactly one sink is required";
  }
  const sink = sinks[0] as Record<string, unknown> | null;
  if (!sink || typeof sink !== "object" || !("streaming_admin" in sink)) {
    return "TapRequest.tap_config.output_config.sinks[0]: an admin tap needs a streaming_admin sink";
  }
  return null;
}

/**
 * Reads the body, checking {@linkcode MAX_TAP_BODY} as the bytes arrive: a larger body is
 * cancelled at the first chunk past the limit (null), never buffered whole.
 */
async function readBody(req: Request): Promise<string | null> {
  if (!req.body || req.bodyUsed) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_TAP_BODY) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return new TextDecoder().decode(all);
}

const tap: Handler = async (req, server) => {
  const text = req.formBody ?? await readBody(req.raw);
  if (text === null) return textResponse(`/tap body larger than ${MAX_TAP_BODY} bytes`, 413);
  if (text.trim() === "") return textResponse("/tap requires a JSON/YAML body", 400);
  let parsed: unknown;
  try {
    parsed = loadYamlBounded(text, {}, yaml.JSON_SCHEMA);
  } catch (e) {
    return textResponse(
      `/tap: unable to parse the body as JSON/YAML: ${(e as Error).message}`,
      400,
    );
  }
  const why = validateTapRequest(parsed);
  if (why) return textResponse(why, 400);
  const { config_id, tap_config } = parsed as {
    config_id: string;
    tap_config: { match?: Json; match_config?: Json; output_config: Record<string, unknown> };
  };
  const errors: ConfigError[] = [];
  const match = compileTapMatch(
    tap_config.match ?? tap_config.match_config,
    `TapRequest.tap_config.${tap_config.match === undefined ? "match_config" : "match"}`,
    errors,
  );
  if (!match) return textResponse(errors.map((e) => `${e.path}: ${e.message}`).join("\n"), 400);
  const output = tapOutput(tap_config.output_config);
  if (typeof output === "string") return textResponse(output, 400);
  if (!tapConfigIds(server).has(config_id)) {
    return textResponse(
      `Unknown config id '${config_id}'. No extension has registered with this id.`,
      400,
    );
  }
  if (ATTACHED.has(server)) {
    return textResponse("An attached /tap admin stream already exists. Detach it.", 400);
  }
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const a: Attached = { configId: config_id, controller, detach: () => {} };
      a.detach = attachTapSession({
        configId: config_id,
        match: match as TapMatch,
        matchConfig: tap_config.match ?? tap_config.match_config,
        ...output,
        send: (trace) => publishTap(server, config_id, trace),
      });
      ATTACHED.set(server, a);
    },
    cancel() {
      ATTACHED.get(server)?.detach();
      ATTACHED.delete(server);
    },
  });
  return new Response(body, { headers: { "content-type": "application/json" } });
};

/** Handlers of this family, by path. */
export const TAP_HANDLERS = { "/tap": tap } satisfies Record<string, Handler>;
