/**
 * `--disable-extensions`: which extensions the option disables, and the places of a bootstrap
 * that use one. Names are `<category>/<name>`; both parts may be spelled with `envoy.` or
 * `proxy.` (and a filter in its v2 short form), so `envoy.filters.http/envoy.router` disables
 * the router however the configuration spells it. Names this implementation does not have are
 * warned about and ignored, as Envoy does (`cli.constraints.disable-extensions-unknown`,
 * `cli.constraints.disable-extensions-invalid`).
 *
 * The places and their categories, as Envoy's factories are registered:
 * - `static_resources.listeners[].filter_chains[].filters[]` (and `default_filter_chain`):
 *   `filters.network`; the `http_filters[]` of an HTTP connection manager: `filters.http`;
 * - `...filter_chains[].transport_socket` (v2: `tls_context`): `transport_sockets.downstream`;
 * - `static_resources.listeners[].listener_filters[]`: `filters.listener`;
 * - `static_resources.clusters[].transport_socket` (v2: `tls_context`; and
 *   `transport_socket_matches[]`):
 *   `transport_sockets.upstream`; `clusters[].cluster_type`: `clusters`;
 * - `stats_sinks[]`: `stats_sinks`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { disabledExtensionErrors, parseDisabledExtensions } from "./bootstrap_extensions.ts";
 * const { disabled } = parseDisabledExtensions(["envoy.filters.http/envoy.filters.http.router"]);
 * assert.deepEqual(disabledExtensionErrors({}, disabled), []);
 * ```
 * @module
 */
import { OPTION_CONSTRAINTS, row, type RowId as TableRowId } from "../../spec/mod.ts";
import type { Json, JsonObject } from "./bootstrap_types.ts";
import type { ConfigError } from "./errors.ts";
import { canonicalCategory, canonicalFilterName, EXTENSIONS } from "./filter_names.ts";
import { isJsonObject as isObj } from "./values.ts";

type RowId = TableRowId<typeof OPTION_CONSTRAINTS>;

function message(id: RowId, ...args: string[]): string {
  let i = 0;
  return row(OPTION_CONSTRAINTS, id).message.replace(/\{\}/g, () => args[i++] ?? "");
}

/** What {@linkcode parseDisabledExtensions} returns. */
export interface DisabledExtensions {
  /** Canonical `<category>/<name>` of every disabled extension. */
  disabled: Set<string>;
  /** One warning per name that is malformed or unknown. */
  warnings: string[];
}

/**
 * Reads the `--disable-extensions` list.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseDisabledExtensions } from "./bootstrap_extensions.ts";
 * const r = parseDisabledExtensions(["envoy.stats_sinks/envoy.stat_sinks.hystrix", "nope"]);
 * assert.deepEqual(r.disabled, new Set(["proxy.stats_sinks/proxy.stat_sinks.hystrix"]));
 * assert.deepEqual(r.warnings, ["failed to disable invalid extension name 'nope'"]);
 * ```
 */
export function parseDisabledExtensions(names: readonly string[]): DisabledExtensions {
  const disabled = new Set<string>();
  const warnings: string[] = [];
  for (const item of names) {
    const slash = item.indexOf("/");
    if (slash < 0) {
      warnings.push(message("cli.constraints.disable-extensions-invalid", item));
      continue;
    }
    const category = canonicalCategory(item.slice(0, slash));
    const name = canonicalFilterName(item.slice(slash + 1));
    if (EXTENSIONS[category]?.includes(name)) disabled.add(`${category}/${name}`);
    else warnings.push(message("cli.constraints.disable-extensions-unknown", item));
  }
  return { disabled, warnings };
}

const list = (v: Json | undefined): Json[] => (Array.isArray(v) ? v : []);

/**
 * Every place of a bootstrap (v2 or v3, as checked and before the upgrade, so that paths are
 * the ones written) that uses a disabled extension, as a {@linkcode ConfigError} on its `name`
 * field (or on a v2 `tls_context`, which stands for the TLS transport socket).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { disabledExtensionErrors, parseDisabledExtensions } from "./bootstrap_extensions.ts";
 * const { disabled } = parseDisabledExtensions(["proxy.stats_sinks/proxy.stat_sinks.hystrix"]);
 * const errors = disabledExtensionErrors(
 *   { stats_sinks: [{ name: "envoy.stat_sinks.hystrix" }] },
 *   disabled,
 * );
 * assert.equal(errors[0].path, "stats_sinks[0].name");
 * assert.equal(errors[0].rule, "cli.constraints.disabled-extension");
 * ```
 */
export function disabledExtensionErrors(
  bootstrap: JsonObject,
  disabled: ReadonlySet<string>,
): ConfigError[] {
  const errors: ConfigError[] = [];
  if (disabled.size === 0) return errors;
  /** Checks `obj.name` against `category`; true when the extension is the one named. */
  const use = (obj: Json | undefined, path: string, category: string): string | null => {
    if (!isObj(obj) || typeof obj.name !== "string") return null;
    const name = canonicalFilterName(obj.name);
    const full = `proxy.${category}/${name}`;
    if (disabled.has(full)) {
      errors.push({
        path: `${path}.name`,
        rule: "cli.constraints.disabled-extension",
        message: message("cli.constraints.disabled-extension", obj.name, full),
      });
    }
    return name;
  };
  /** A `transport_socket`, or the v2 `tls_context` that stands for the TLS transport socket. */
  const tls = (owner: JsonObject, path: string, category: string) => {
    use(owner.transport_socket, `${path}.transport_socket`, category);
    if (isObj(owner.tls_context) && owner.transport_socket === undefined) {
      const name = "envoy.transport_sockets.tls";
      const full = `proxy.${category}/${canonicalFilterName(name)}`;
      if (disabled.has(full)) {
        errors.push({
          path: `${path}.tls_context`,
          rule: "cli.constraints.disabled-extension",
          message: message("cli.constraints.disabled-extension", name, full),
        });
      }
    }
  };
  const chain = (fc: Json | undefined, path: string) => {
    if (!isObj(fc)) return;
    list(fc.filters).forEach((f, k) => {
      const at = `${path}.filters[${k}]`;
      const name = use(f, at, "filters.network");
      if (name !== "proxy.filters.network.http_connection_manager" || !isObj(f)) return;
      const cfg = isObj(f.typed_config) ? f.typed_config : isObj(f.config) ? f.config : null;
      const key = cfg === f.typed_config ? "typed_config" : "config";
      list(cfg?.http_filters).forEach((h, m) => {
        use(h, `${at}.${key}.http_filters[${m}]`, "filters.http");
      });
    });
    tls(fc, path, "transport_sockets.downstream");
  };
  const sr = isObj(bootstrap.static_resources) ? bootstrap.static_resources : {};
  list(sr.listeners).forEach((l, i) => {
    if (!isObj(l)) return;
    const at = `static_resources.listeners[${i}]`;
    list(l.filter_chains).forEach((fc, j) => chain(fc, `${at}.filter_chains[${j}]`));
    chain(l.default_filter_chain, `${at}.default_filter_chain`);
    list(l.listener_filters).forEach((f, k) => {
      use(f, `${at}.listener_filters[${k}]`, "filters.listener");
    });
  });
  list(sr.clusters).forEach((c, i) => {
    if (!isObj(c)) return;
    const at = `static_resources.clusters[${i}]`;
    tls(c, at, "transport_sockets.upstream");
    list(c.transport_socket_matches).forEach((m, j) => {
      if (isObj(m)) {
        const p = `${at}.transport_socket_matches[${j}].transport_socket`;
        use(m.transport_socket, p, "transport_sockets.upstream");
      }
    });
    use(c.cluster_type, `${at}.cluster_type`, "clusters");
  });
  list(bootstrap.stats_sinks).forEach((s, i) => use(s, `stats_sinks[${i}]`, "stats_sinks"));
  return errors;
}
