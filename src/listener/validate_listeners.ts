/**
 * Validation of static listeners for `--mode validate` and start-up: every listener, filter and
 * route error with its path (unknown cluster in a route, bad regex, bad address, duplicate names
 * or addresses, unsupported features).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { validateListeners } from "./validate_listeners.ts";
 * const errs = validateListeners([{ address: { socket_address: { address: "nope", port_value: 1 } } }],
 *   "static_resources.listeners", new Set());
 * assert.equal(errs[0].path, "static_resources.listeners[0].address.socket_address.address");
 * ```
 * @module
 */
import type { ConfigError } from "../config/errors.ts";
import { type ListenerSpec, parseListener } from "./listener_config.ts";
import type { SecretStore } from "../config/secrets.ts";

/** Parses every listener; returns the specs and the errors. */
export function parseListeners(
  listeners: readonly unknown[],
  path: string,
  clusterNames: ReadonlySet<string> | null,
  secrets: SecretStore | null = null,
): { specs: ListenerSpec[]; errors: ConfigError[] } {
  const errors: ConfigError[] = [];
  const specs: ListenerSpec[] = [];
  const names = new Set<string>();
  const addrs = new Set<string>();
  listeners.forEach((l, i) => {
    const at = `${path}[${i}]`;
    const s = parseListener(l, at, errors, clusterNames, i, secrets);
    if (!s) return;
    if (names.has(s.name)) {
      errors.push({ path: `${at}.name`, rule: "", message: `duplicate listener name "${s.name}"` });
    }
    names.add(s.name);
    const key = `${s.address}:${s.port}`;
    if (s.port !== 0 && addrs.has(key)) {
      errors.push({
        path: `${at}.address`,
        rule: "",
        message: `another listener already uses ${key}`,
      });
    }
    addrs.add(key);
    specs.push(s);
  });
  return { specs, errors };
}

/** Every error of `listeners` (found at `path`), given the names of the configured clusters. */
export function validateListeners(
  listeners: readonly unknown[],
  path: string,
  clusterNames: ReadonlySet<string> | readonly string[],
  secrets: SecretStore | null = null,
): ConfigError[] {
  const names = clusterNames instanceof Set ? clusterNames : new Set(clusterNames);
  return parseListeners(listeners, path, names, secrets).errors;
}
