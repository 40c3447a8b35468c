/**
 * Layered runtime (`/runtime`, `/runtime_modify`): static layers from the bootstrap, disk
 * layers read from a directory tree (`symlink_root/subdirectory/a/b` is key `a.b`), RTDS layers
 * (empty: no RTDS client) and one admin layer that `/runtime_modify` writes to.
 *
 * Layers come from `layered_runtime.layers` in order. A `layered_runtime` with no layers is a
 * single admin layer (Envoy's `InitialImpl`). Without `layered_runtime`, Envoy v1.14-v1.17
 * translated the deprecated v2 `runtime` block (absent: empty) into a static layer `base`, disk
 * layers `root` and `override` when `symlink_root` is set, and an admin layer `admin`; this
 * implementation does the same (newer Envoy builds no layers at all then, so `/runtime_modify`
 * answers 503 there).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LayeredRuntime } from "./runtime.ts";
 * const rt = LayeredRuntime.fromBootstrap({
 *   layered_runtime: { layers: [{ name: "s", static_layer: { a: { b: 1 } } }, { name: "admin", admin_layer: {} }] },
 * });
 * assert.equal(rt.get("a.b"), "1");
 * rt.modify([["a.b", "2"]]);
 * assert.equal(rt.get("a.b"), "2");
 * ```
 * @module
 */
import type { Bootstrap, Json, JsonObject } from "../config/bootstrap_types.ts";
import { upgradeRuntime } from "../config/bootstrap_upgrade.ts";
import type { RuntimeView } from "./context.ts";
import type { Scope } from "../stats/types.ts";

/** Deepest directory level a disk layer reads (Envoy's limit). */
export const MAX_WALK_DEPTH = 16;

/** One layer: a name, a kind and its key/value map. */
export interface Layer {
  name: string;
  kind: "static" | "disk" | "admin" | "rtds";
  values: Map<string, string>;
}

/** Thrown for an unusable `layered_runtime`; `path` says where. */
export class RuntimeConfigError extends Error {
  constructor(readonly path: string, message: string) {
    super(`${path}: ${message}`);
    this.name = "RuntimeConfigError";
  }
}

function flatten(obj: JsonObject, prefix: string, out: Map<string, string>, path: string) {
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    flattenValue(v, key, out, `${path}.${k}`);
  }
}

function flattenValue(v: Json, key: string, out: Map<string, string>, path: string) {
  if (v === null) return;
  if (typeof v === "string") out.set(key, v);
  else if (typeof v === "number" || typeof v === "boolean") out.set(key, String(v));
  else if (Array.isArray(v)) {
    throw new RuntimeConfigError(path, "invalid runtime entry value: lists are not allowed");
  } else flatten(v, key, out, path);
}

function fileValue(text: string): string {
  const lines = text.split("\n").filter((l) => !l.startsWith("#"));
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  if (lines.length === 0) return "";
  lines[lines.length - 1] = lines[lines.length - 1].trimEnd();
  return lines.join("\n");
}

/** Reads a disk layer; a missing directory is an empty layer. */
export function readDiskLayer(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string, prefix: string, depth: number) => {
    if (depth > MAX_WALK_DEPTH) return;
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(dir)];
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const e of entries) {
      const full = `${dir}/${e.name}`;
      const key = prefix ? `${prefix}.${e.name}` : e.name;
      let info: Deno.FileInfo;
      try {
        info = Deno.statSync(full);
      } catch {
        continue;
      }
      if (info.isDirectory) walk(full, key, depth + 1);
      else if (info.isFile) {
        try {
          out.set(key, fileValue(Deno.readTextFileSync(full)));
        } catch {
          // unreadable files are skipped, as Envoy does
        }
      }
    }
  };
  walk(root, "", 1);
  return out;
}

type LayerSpec = { name?: unknown; [k: string]: unknown };

function buildLayer(l: LayerSpec, i: number, serviceCluster: string): Layer {
  const path = `layered_runtime.layers[${i}]`;
  if (typeof l !== "object" || l === null) throw new RuntimeConfigError(path, "not an object");
  const name = typeof l.name === "string" ? l.name : "";
  const kinds = ["static_layer", "disk_layer", "admin_layer", "rtds_layer"].filter((k) =>
    l[k] !== undefined
  );
  if (kinds.length !== 1) {
    throw new RuntimeConfigError(
      path,
      "exactly one of static_layer, disk_layer, admin_layer, rtds_layer must be set",
    );
  }
  const values = new Map<string, string>();
  switch (kinds[0]) {
    case "static_layer": {
      const s = l.static_layer;
      if (typeof s !== "object" || s === null || Array.isArray(s)) {
        throw new RuntimeConfigError(`${path}.static_layer`, "must be an object");
      }
      flatten(s as JsonObject, "", values, `${path}.static_layer`);
      return { name, kind: "static", values };
    }
    case "disk_layer": {
      const d = (l.disk_layer ?? {}) as Record<string, unknown>;
      let root = typeof d.symlink_root === "string" ? d.symlink_root : "";
      if (typeof d.subdirectory === "string" && d.subdirectory) root += `/${d.subdirectory}`;
      if (d.append_service_cluster === true && serviceCluster) root += `/${serviceCluster}`;
      return { name, kind: "disk", values: root ? readDiskLayer(root) : values };
    }
    case "admin_layer":
      return { name, kind: "admin", values };
    default:
      return { name, kind: "rtds", values };
  }
}

/** The runtime: an ordered stack of layers; later layers win. */
export class LayeredRuntime implements RuntimeView {
  #layers: Layer[];
  #stats?: Scope;

  constructor(layers: Layer[], stats?: Scope) {
    const admins = layers.filter((l) => l.kind === "admin").length;
    if (admins > 1) {
      throw new RuntimeConfigError("layered_runtime.layers", "too many admin layers specified");
    }
    this.#layers = layers;
    this.#stats = stats;
    this.#updateStats();
    stats?.counter("load_success").inc();
  }

  /** Builds the runtime of a bootstrap (see the module documentation for the defaults). */
  static fromBootstrap(b: Bootstrap, serviceCluster = "", stats?: Scope): LayeredRuntime {
    const lr = b.layered_runtime;
    if (lr !== undefined) {
      const specs = (lr as { layers?: unknown }).layers;
      if (specs !== undefined && !Array.isArray(specs)) {
        throw new RuntimeConfigError("layered_runtime.layers", "must be a list");
      }
      if (!specs || specs.length === 0) {
        return new LayeredRuntime([{ name: "", kind: "admin", values: new Map() }], stats);
      }
      return new LayeredRuntime(
        specs.map((l, i) => buildLayer(l as LayerSpec, i, serviceCluster)),
        stats,
      );
    }
    // A v2 `runtime` block (a bootstrap that was not loaded through the upgrade).
    const specs = upgradeRuntime((b.runtime ?? {}) as JsonObject).layers as LayerSpec[];
    return new LayeredRuntime(specs.map((l, i) => buildLayer(l, i, serviceCluster)), stats);
  }

  layerNames(): readonly string[] {
    return this.#layers.map((l) => l.name);
  }

  entries(): Map<string, { layer_values: string[]; final_value: string }> {
    const keys = new Set<string>();
    for (const l of this.#layers) for (const k of l.values.keys()) keys.add(k);
    const out = new Map<string, { layer_values: string[]; final_value: string }>();
    for (const k of [...keys].sort()) {
      const layer_values = this.#layers.map((l) => l.values.get(k) ?? "");
      out.set(k, { layer_values, final_value: this.get(k) ?? "" });
    }
    return out;
  }

  get(key: string): string | undefined {
    for (let i = this.#layers.length - 1; i >= 0; i--) {
      const v = this.#layers[i].values.get(key);
      if (v !== undefined) return v;
    }
    return undefined;
  }

  hasAdminLayer(): boolean {
    return this.#layers.some((l) => l.kind === "admin");
  }

  modify(pairs: ReadonlyArray<[string, string]>): void {
    const admin = this.#layers.find((l) => l.kind === "admin");
    if (!admin) throw new Error("No admin layer specified");
    for (const [k, v] of pairs) {
      if (v === "") admin.values.delete(k);
      else admin.values.set(k, v);
    }
    this.#updateStats();
  }

  /** Re-reads every disk layer (what a symlink swap of the runtime root asks for). */
  reloadDisk(b: Bootstrap, serviceCluster = ""): void {
    const fresh = LayeredRuntime.fromBootstrap(b, serviceCluster);
    fresh.#layers.forEach((l, i) => {
      if (l.kind === "disk" && this.#layers[i]?.kind === "disk") this.#layers[i].values = l.values;
    });
    this.#updateStats();
  }

  #updateStats(): void {
    if (!this.#stats) return;
    const keys = new Set<string>();
    for (const l of this.#layers) for (const k of l.values.keys()) keys.add(k);
    this.#stats.gauge("num_keys").set(keys.size);
    this.#stats.gauge("num_layers").set(this.#layers.length);
    this.#stats.gauge("admin_overrides_active").set(
      this.#layers.find((l) => l.kind === "admin")?.values.size ?? 0,
    );
  }
}
