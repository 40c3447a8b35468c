/**
 * `/` (the HTML home page) and `/help` (the text listing). Both list every registered path of
 * the endpoint table, sorted: on the home page a non-mutating path is a link and a mutating one
 * is a `method=post` form (with inputs for its parameters), so the page works in a browser
 * without JavaScript. Help texts are HTML-escaped. Links are relative, as Envoy's.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { homePage } from "./home_handler.ts";
 * import { indexEndpoints } from "./endpoint_index.ts";
 * const html = homePage(indexEndpoints([]), new Set());
 * assert.equal(html.includes("<title>Proxy Admin</title>"), true);
 * ```
 * @module
 */
import { ENDPOINTS } from "../../spec/admin/endpoints.ts";
import type { Feature, QueryParam } from "../../spec/rule.ts";
import type { Handler } from "./types.ts";
import { type EndpointEntry, indexEndpoints, sortedEntries } from "./endpoint_index.ts";
import { isRegistered } from "./feature_gate.ts";
import { helpText } from "./help_text.ts";
import { textResponse } from "../config/proto_json.ts";

/** Escapes text for HTML. */
export function escapeHtml(s: string): string {
  return s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;").replaceAll("'", "&#39;");
}

function input(p: QueryParam): string {
  const name = escapeHtml(p.name);
  const title = escapeHtml(p.help);
  if (p.kind === "flag") {
    return `<label title='${title}'><input type='checkbox' name='${name}' value=''>${name}</label>`;
  }
  if (p.kind === "enum" && p.values) {
    const opts = ["", ...p.values].map((v) =>
      `<option value='${escapeHtml(v)}'>${escapeHtml(v)}</option>`
    );
    return `<label title='${title}'>${name} <select name='${name}'>${
      opts.join("")
    }</select></label>`;
  }
  if (p.kind === "pairs") return "";
  return `<label title='${title}'>${name} <input type='text' name='${name}'></label>`;
}

function row(e: EndpointEntry): string {
  const rel = escapeHtml(e.path.slice(1));
  const link = e.mutating
    ? `<form action='${rel}' method='post' class='home-form'><button>${rel}</button> ${
      e.params.map(input).join(" ")
    }</form>`
    : `<a href='${rel}'>${rel}</a>`;
  return `<tr class='home-row'><td class='home-data'>${link}</td>` +
    `<td class='home-data'>${escapeHtml(e.help)}</td></tr>\n`;
}

/** Renders the home page. */
export function homePage(
  index: ReadonlyMap<string, EndpointEntry>,
  features: ReadonlySet<Feature>,
): string {
  const rows = sortedEntries(index)
    .filter((e) => e.path !== "/" && isRegistered(e.requires, features))
    .map(row).join("");
  return `<!DOCTYPE html>
<html><head><meta charset='UTF-8'><title>Proxy Admin</title>
<style>
.home-table { font-family: sans-serif; border-collapse: collapse; }
.home-data { padding: 2px 10px; border-bottom: 1px solid #ddd; }
.home-form { margin: 0; }
</style></head>
<body>
<table class='home-table'>
<thead><tr><th>Command</th><th>Description</th></tr></thead>
<tbody>
${rows}</tbody>
</table>
</body></html>
`;
}

/** Handlers of this family, by path. */
export const HOME_HANDLERS = {
  "/": (_req, server) =>
    textResponse(
      homePage(indexEndpoints(ENDPOINTS), server.features),
      200,
      "text/html; charset=UTF-8",
    ),
  "/help": (_req, server) => textResponse(helpText(indexEndpoints(ENDPOINTS), server.features)),
} satisfies Record<string, Handler>;
