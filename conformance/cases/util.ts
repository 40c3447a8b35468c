/**
 * Helpers shared by the case builders: rule lookup, assertions that say what was expected and
 * what came back, and small readers of the admin interface's outputs.
 *
 * @example
 * ```ts
 * import { expect } from "./util.ts";
 * expect(1 + 1 === 2, "arithmetic works");
 * ```
 * @module
 */
import type { TaggedRule } from "../../spec/mod.ts";
import { CaseFailure, NotApplicable } from "../types.ts";
import type { CaseContext } from "../types.ts";
import type { HttpResult } from "../http_client.ts";

/** What every case builder receives. */
export interface BuildInput {
  /** Every rule of every table. */
  rules: readonly TaggedRule[];
  variant: "new" | "v2";
}

/**
 * Keeps the IDs that name existing rules, so a renamed row drops a case instead of breaking it.
 *
 * @param rules every rule
 * @param ids candidate IDs
 * @returns the existing ones
 */
export function existing(rules: readonly TaggedRule[], ...ids: string[]): string[] {
  const known = new Set(rules.map((r) => r.id));
  return [...new Set(ids.filter((id) => known.has(id)))];
}

/**
 * Fails the case with `message` unless `ok`.
 *
 * @param ok the condition
 * @param message expected vs actual
 */
export function expect(ok: boolean, message: string): asserts ok {
  if (!ok) throw new CaseFailure(message);
}

/**
 * Fails unless the answer has the status.
 *
 * @param r the answer
 * @param status the expected status
 * @param what the request, for the message
 */
export function expectStatus(r: HttpResult, status: number, what: string): void {
  expect(
    r.status === status,
    `${what}: expected HTTP ${status}, got ${r.status} with body ${preview(r.body)}`,
  );
}

/**
 * Shortens a body for messages.
 *
 * @param body any text
 * @returns at most 160 characters, quoted
 */
export function preview(body: string): string {
  const s = body.length > 160 ? body.slice(0, 160) + "…" : body;
  return JSON.stringify(s);
}

/**
 * The media type of a content type, lower case, without parameters.
 *
 * @param contentType e.g. `text/plain; charset=UTF-8`
 * @returns e.g. `text/plain`
 */
export function mediaOf(contentType: string): string {
  return contentType.split(";")[0].trim().toLowerCase();
}

/**
 * Reads a JSON object from an endpoint, failing the case with a clear message otherwise.
 *
 * @param ctx the case context
 * @param pathAndQuery what to GET
 * @returns the parsed object
 */
export async function getJson(
  ctx: CaseContext,
  pathAndQuery: string,
): Promise<Record<string, unknown>> {
  const r = await ctx.http.request("GET", pathAndQuery);
  expectStatus(r, 200, `GET ${pathAndQuery}`);
  let v: unknown;
  try {
    v = JSON.parse(r.body);
  } catch (e) {
    throw new CaseFailure(
      `GET ${pathAndQuery}: body is not JSON (${(e as Error).message}): ${preview(r.body)}`,
    );
  }
  expect(
    typeof v === "object" && v !== null && !Array.isArray(v),
    `GET ${pathAndQuery}: expected a JSON object, got ${preview(r.body)}`,
  );
  return v as Record<string, unknown>;
}

/** One per-host line of `/clusters`: `cluster::host:port::name::value`. */
export interface HostLine {
  cluster: string;
  host: string;
  name: string;
  value: string;
}

const HOST_LINE = /^(.+?)::((?:\[[0-9A-Fa-f:.]+\]|[^:\s]+):\d+)::([A-Za-z_]+)::(.*)$/;

/**
 * Parses the per-host lines of `/clusters` text.
 *
 * @param body the text
 * @returns every per-host line
 */
export function hostLines(body: string): HostLine[] {
  const out: HostLine[] = [];
  for (const line of body.split("\n")) {
    const m = HOST_LINE.exec(line);
    if (m) out.push({ cluster: m[1], host: m[2], name: m[3], value: m[4] });
  }
  return out;
}

/** Text stats: `name: value` lines, split at the first `: `. */
export function statLines(body: string): Array<{ name: string; value: string }> {
  return body.split("\n").filter((l) => l.trim() !== "").map((l) => {
    const i = l.indexOf(": ");
    return i < 0 ? { name: l, value: "" } : { name: l.slice(0, i), value: l.slice(i + 2) };
  });
}

/**
 * Finds the first listener of the target that serves HTTP on a concrete address, to send it
 * traffic; throws NotApplicable when there is none.
 *
 * @param ctx the case context
 * @returns `http://host:port`
 */
export async function listenerUrl(ctx: CaseContext): Promise<string> {
  const r = await ctx.http.request("GET", "/listeners?format=json");
  let v: { listener_statuses?: Array<{ name?: string; local_address?: unknown }> } = {};
  try {
    v = JSON.parse(r.body);
  } catch { /* handled below */ }
  for (const l of v.listener_statuses ?? []) {
    const sa = (l.local_address as { socket_address?: { address?: string; port_value?: number } })
      ?.socket_address;
    if (sa?.address && sa.port_value) {
      const host = sa.address === "0.0.0.0"
        ? "127.0.0.1"
        : sa.address === "::"
        ? "::1"
        : sa.address;
      return `http://${host.includes(":") ? `[${host}]` : host}:${sa.port_value}`;
    }
  }
  throw new NotApplicable("the target has no listener to send traffic to (load the fixture)");
}

/**
 * Sends a few requests through the target's first listener, so histograms and per-host counters
 * get values. Answers are read and ignored (the fixture's upstreams do not exist).
 *
 * @param ctx the case context
 * @param paths request paths
 */
export async function makeTraffic(ctx: CaseContext, paths = ["/conformance", "/healthz"]) {
  const base = await listenerUrl(ctx);
  for (const p of paths) {
    try {
      const res = await fetch(base + p, { signal: AbortSignal.timeout(5000) });
      await res.body?.cancel();
    } catch { /* a failed request still counts downstream */ }
  }
}
