/**
 * SDS secrets a TLS context refers to by name (`tls_certificate_sds_secret_configs`,
 * `validation_context_sds_secret_config`): from the bootstrap's `static_resources.secrets` when
 * the reference has no `sds_config`, or from a file (`sds_config.path_config_source.path`, or the
 * older `sds_config.path`) that holds a `DiscoveryResponse` of `Secret` resources. Secrets from a
 * control plane (`api_config_source`, `ads`) are refused by the support table.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SecretStore } from "./secrets.ts";
 * const errors: { path: string; rule: string; message: string }[] = [];
 * const s = new SecretStore([{ name: "cert", tls_certificate: { certificate_chain: { inline_string: "C" } } }]);
 * assert.deepEqual(s.resolve({ name: "cert" }, "tls_certificate", "p", errors)?.value, {
 *   certificate_chain: { inline_string: "C" },
 * });
 * ```
 * @module
 */
import type { Json, JsonObject } from "./bootstrap_types.ts";
import type { ConfigError } from "./errors.ts";
import { parseDiscoveryResponse, SubscriptionError } from "./subscription.ts";
import { isJsonObject as isObj } from "./values.ts";

/** What a secret holds that a TLS context uses. */
export type SecretKind = "tls_certificate" | "validation_context";

/** A resolved secret: its content and, for a file, the file (to watch). */
export interface ResolvedSecret {
  name: string;
  value: JsonObject;
  /** The SDS file it came from; `null` for a static secret. */
  file: string | null;
}

/** The SDS file a reference names, or `null` for a static secret. */
export function sdsFile(ref: JsonObject): string | null {
  const sds = ref.sds_config;
  if (!isObj(sds)) return null;
  const pcs = sds.path_config_source;
  if (isObj(pcs) && typeof pcs.path === "string") return pcs.path;
  return typeof sds.path === "string" ? sds.path : null;
}

/** Static secrets by name, and secrets read from SDS files. */
export class SecretStore {
  readonly #static = new Map<string, JsonObject>();

  /** Takes `static_resources.secrets` (as configured). */
  constructor(secrets: Json | undefined) {
    if (!Array.isArray(secrets)) return;
    for (const s of secrets) {
      if (isObj(s) && typeof s.name === "string") this.#static.set(s.name, s);
    }
  }

  /**
   * The `kind` part of the secret `ref` (an `SdsSecretConfig` at `path`) names; `null` with an
   * error when it cannot be found.
   */
  resolve(
    ref: Json | undefined,
    kind: SecretKind,
    path: string,
    errors: ConfigError[],
  ): ResolvedSecret | null {
    const err = (p: string, message: string) => {
      errors.push({ path: p, rule: "", message });
      return null;
    };
    if (!isObj(ref) || typeof ref.name !== "string" || ref.name === "") {
      return err(`${path}.name`, "an SDS secret reference needs a name");
    }
    const name = ref.name;
    const file = sdsFile(ref);
    let secret: JsonObject | undefined;
    if (file !== null) {
      const at = isObj(ref.sds_config) && isObj(ref.sds_config.path_config_source)
        ? `${path}.sds_config.path_config_source.path`
        : `${path}.sds_config.path`;
      let found: JsonObject[];
      try {
        found = readSecretFile(file);
      } catch (e) {
        return err(at, e instanceof Error ? e.message : String(e));
      }
      secret = found.find((s) => s.name === name);
      if (!secret) return err(`${path}.name`, `${file} has no secret named "${name}"`);
    } else if (ref.sds_config !== undefined && ref.sds_config !== null) {
      return err(`${path}.sds_config`, "secrets come from static_resources.secrets or a file");
    } else {
      secret = this.#static.get(name);
      if (!secret) {
        return err(`${path}.name`, `no secret named "${name}" in static_resources.secrets`);
      }
    }
    const value = secret[kind];
    if (!isObj(value)) return err(`${path}.name`, `secret "${name}" has no ${kind}`);
    return { name, value, file };
  }
}

/** The `Secret` resources of an SDS file; throws with the reason when it cannot be used. */
export function readSecretFile(file: string): JsonObject[] {
  let text: string;
  try {
    text = Deno.readTextFileSync(file);
  } catch (e) {
    const why = e instanceof Deno.errors.NotFound ? "no such file" : (e as Error).message;
    throw new Error(`cannot read ${file}: ${why}`);
  }
  try {
    return parseDiscoveryResponse(text, file).resources.filter((r) =>
      String(r["@type"]).endsWith(".Secret")
    );
  } catch (e) {
    throw new Error(e instanceof SubscriptionError ? e.message : String(e));
  }
}
