/**
 * Cluster cases for the fields whose values the generic builders of `cluster.ts` cannot make:
 * the per-extension maps (`extension_protocol_options`: name → Struct,
 * `typed_extension_protocol_options`: name → Any), `cluster_type.typed_config` (an Any inside a
 * custom cluster type) and `eds_cluster_config.service_name` (a string that only an EDS cluster
 * carries). Values are made from each row's `kind` and `cardinality`; map keys are filter names
 * this implementation has, and the custom cluster type is the first one the `custom-type` rule
 * registers, both spelled as the profile says. Every rejection is checked against a control
 * that is accepted, and every acceptance against a control too, so a target that cannot load the
 * surrounding cluster ends NOT_APPLICABLE rather than FAIL.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { allRules } from "../../spec/mod.ts";
 * import { clusterExtensionCases } from "./cluster_extensions.ts";
 * const cases = clusterExtensionCases({ rules: allRules(), variant: "new" });
 * assert.ok(cases.some((c) => c.id === "cluster:Cluster:extension_protocol_options:kinds"));
 * ```
 * @module
 */
import fc from "fast-check";
import { CLUSTER_RULES } from "../../spec/mod.ts";
import type { ClusterRuleRow } from "../../spec/mod.ts";
import { CaseFailure, NotApplicable } from "../types.ts";
import type { Case, CaseContext } from "../types.ts";
import type { Profile } from "../profile.ts";
import { FIELDS } from "../arbitraries.ts";
import type { Field } from "../arbitraries.ts";
import { baseCluster } from "./bootstrap_files.ts";
import type { Obj } from "./bootstrap_files.ts";
import { accepted, passes, rejected, validate } from "./cluster_validate.ts";
import { existing, preview } from "./util.ts";
import type { BuildInput } from "./util.ts";

/** A message type every Any resolver knows (a well-known type of protobuf). */
const STRUCT_TYPE_URL = "type.googleapis.com/google.protobuf.Struct";

/** The filter name the maps are keyed by (a network filter this implementation has). */
const MAP_KEY = "proxy.filters.network.tcp_proxy";

/** Envoy's upstream HTTP protocol options: an extension with protocol options for any cluster. */
const HTTP_OPTIONS = "envoy.extensions.upstreams.http.v3.HttpProtocolOptions";

/**
 * The map entry a field's cases use where the row's kind alone does not make one an
 * implementation accepts: typed protocol options are read by the extension their key names, so
 * the entry is the upstream HTTP protocol options (HTTP/1.1, stated explicitly).
 */
const MAP_ENTRIES: Record<string, { key: string; element: unknown }> = {
  typed_extension_protocol_options: {
    key: HTTP_OPTIONS,
    element: {
      "@type": `type.googleapis.com/${HTTP_OPTIONS}`,
      explicit_http_config: { http_protocol_options: {} },
    },
  },
};

/** The key of a map field's entries. */
const keyOf = (f: Field, p: Profile) => MAP_ENTRIES[f.field]?.key ?? p.name(MAP_KEY);

/** A good element of a field: its map entry's, else its kind's. */
const goodOf = (f: Field) => MAP_ENTRIES[f.field]?.element ?? goodElement(f);

/** A labelled value. */
interface Sample {
  why: string;
  value: unknown;
}

/** The row of `message.field`, or undefined when the tables lack it. */
function rowOf(message: string, field: string): Field | undefined {
  return FIELDS.find((f) => f.message === message && f.field === field);
}

/**
 * A valid element value for a row's kind (`struct`, `any`, `string`), or null.
 *
 * @param f the row
 * @returns the value, or null when the kind is not one this file handles
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { FIELDS } from "../arbitraries.ts";
 * import { goodElement } from "./cluster_extensions.ts";
 * const any = goodElement(FIELDS.find((f) => f.kind === "any")!); // { "@type": ..., value: {...} }
 * assert.ok(typeof any === "object" && any !== null && "@type" in any);
 * ```
 */
export function goodElement(f: Field): unknown {
  switch (f.kind) {
    case "struct":
      return { conformance_key: "conformance_value", conformance_number: 1 };
    case "any":
      return { "@type": STRUCT_TYPE_URL, value: { conformance_key: "conformance_value" } };
    case "string":
      return "conformance_value";
    default:
      return null;
  }
}

/**
 * Element values a row's kind forbids, each with what makes it bad.
 *
 * @param f the row
 * @returns labelled bad values (empty for kinds this file does not handle)
 * @example
 * ```ts
 * import { FIELDS } from "../arbitraries.ts";
 * import { badElements } from "./cluster_extensions.ts";
 * badElements(FIELDS.find((f) => f.kind === "struct")!).map((b) => b.why);
 * ```
 */
export function badElements(f: Field): Sample[] {
  switch (f.kind) {
    case "struct":
      return [
        { why: "a number where a Struct belongs", value: 3 },
        { why: "a string where a Struct belongs", value: "conformance" },
      ];
    case "any":
      return [
        { why: "a string where an Any belongs", value: "conformance" },
        { why: "an Any without @type", value: { conformance_key: "conformance_value" } },
      ];
    case "string":
      return [
        { why: "a number where a string belongs", value: 42 },
        { why: "a list where a string belongs", value: ["conformance"] },
      ];
    default:
      return [];
  }
}

/** The row's value holding `element`, shaped by its cardinality (a map gets one key). */
function shaped(f: Field, element: unknown, key: string): unknown {
  if (f.cardinality === "map") return { [key]: element };
  if (f.cardinality === "repeated") return [element];
  return element;
}

/** Bad values of the whole field: bad elements, and for a map a list in its place. */
function badValues(f: Field, key: string): Sample[] {
  const out = badElements(f).map((b) => ({ why: b.why, value: shaped(f, b.value, key) }));
  if (f.cardinality === "map") {
    out.push({ why: "a list where a map belongs", value: [goodOf(f)] });
  }
  return out;
}

/** Fails unless `cluster` is accepted, once `control` (the same without the field) is. */
async function acceptedGiven(ctx: CaseContext, control: Obj, cluster: Obj, what: string) {
  const r = await validate(ctx, [control], 0);
  if (r.code !== 0) {
    throw new NotApplicable(
      `the cluster without ${what} is itself rejected, so its acceptance proves nothing: ` +
        preview(r.stderr || r.stdout),
    );
  }
  await accepted(ctx, [cluster], what);
}

/** Accepts the good value, rejects every bad one, at `field` of the object `put` builds. */
async function checkKinds(
  ctx: CaseContext,
  f: Field,
  control: Obj,
  put: (value: unknown) => Obj,
  key: string,
): Promise<void> {
  const good = shaped(f, goodOf(f), key);
  await acceptedGiven(ctx, control, put(good), `${f.message}.${f.field} = ${JSON.stringify(good)}`);
  for (const b of badValues(f, key)) {
    await rejected(
      ctx,
      [control],
      [put(b.value)],
      `${f.message}.${f.field} = ${JSON.stringify(b.value)} (${b.why})`,
    );
  }
}

/** The first custom cluster type of the `custom-type` rule that is a STATIC cluster. */
function staticCustomType(p: Profile): string | null {
  for (const r of CLUSTER_RULES as readonly ClusterRuleRow[]) {
    if (r.rule.kind !== "custom-type") continue;
    const hit = r.rule.names.find((n) => n.type === "STATIC" && n.name.startsWith("proxy."));
    if (hit) return p.name(hit.name);
  }
  return null;
}

/** A STATIC cluster chosen through `cluster_type` instead of `type`. */
function customCluster(p: Profile): Obj | null {
  const name = staticCustomType(p);
  if (name === null) return null;
  const c = baseCluster();
  delete c.type;
  return { ...c, cluster_type: { name } };
}

/** The EDS file source of the cases (validation does not read it). */
export const EDS_FILE = { path: "/nonexistent/proxyspec-conformance-eds.yaml" };

/** An EDS cluster whose updates would come from a file (no members of its own). */
export function edsCluster(): Obj {
  const c: Obj = {
    ...baseCluster(),
    type: "EDS",
    eds_cluster_config: { eds_config: { ...EDS_FILE } },
  };
  delete c.load_assignment;
  return c;
}

/**
 * Builds the cases.
 *
 * @param input every rule and the variant
 * @returns the cases (those whose rows are gone are left out)
 * @example
 * ```ts
 * import { allRules } from "../../spec/mod.ts";
 * import { clusterExtensionCases } from "./cluster_extensions.ts";
 * clusterExtensionCases({ rules: allRules(), variant: "new" }).length;
 * ```
 */
export function clusterExtensionCases(input: BuildInput): Case[] {
  const out: Case[] = [];
  const add = (id: string, title: string, ids: string[], run: Case["run"]) =>
    out.push({
      id: `cluster:${id}`,
      title,
      rules: existing(input.rules, ...ids),
      target: "command",
      phase: "read",
      run,
    });

  const maps = ["extension_protocol_options", "typed_extension_protocol_options"]
    .map((name) => rowOf("Cluster", name))
    .filter((f): f is Field => f !== undefined && goodElement(f) !== null);
  for (const f of maps) {
    add(
      `Cluster:${f.field}:kinds`,
      `${f.field} takes a map from a filter name to its kind of value, and nothing else`,
      [f.id],
      async (ctx) => {
        const base = baseCluster();
        await checkKinds(
          ctx,
          f,
          base,
          (v) => ({ ...base, [f.field]: v }),
          keyOf(f, ctx.profile),
        );
      },
    );
  }
  const exclusive = (CLUSTER_RULES as readonly ClusterRuleRow[]).find((r) =>
    r.rule.kind === "group" && maps.length === 2 &&
    maps.every((m) => m.group === (r.rule as { group: string }).group)
  );
  if (exclusive) {
    add(
      "Cluster:extension-protocol-options:each-alone",
      "each per-extension options map is accepted alone, and the two together are rejected",
      [...maps.map((m) => m.id), exclusive.id],
      async (ctx) => {
        const withMap = (c: Obj, f: Field) => ({
          ...c,
          [f.field]: { [keyOf(f, ctx.profile)]: goodOf(f) },
        });
        const base = baseCluster();
        for (const f of maps) await acceptedGiven(ctx, base, withMap(base, f), f.field);
        await rejected(
          ctx,
          [withMap(base, maps[0])],
          [withMap(withMap(base, maps[0]), maps[1])],
          `a cluster with both ${maps[0].field} and ${maps[1].field}`,
        );
      },
    );
  }

  const typed = rowOf("Cluster.CustomClusterType", "typed_config");
  if (typed && goodElement(typed) !== null) {
    add(
      "Cluster.CustomClusterType:typed_config:kinds",
      "cluster_type.typed_config takes an Any, and nothing else",
      [typed.id],
      async (ctx) => {
        const control = customCluster(ctx.profile);
        if (control === null) {
          throw new NotApplicable("the custom-type rule registers no STATIC cluster type");
        }
        const put = (v: unknown) => ({
          ...control,
          cluster_type: { ...(control.cluster_type as Obj), typed_config: v },
        });
        await checkKinds(ctx, typed, control, put, "");
      },
    );
  }

  const service = rowOf("Cluster.EdsClusterConfig", "service_name");
  if (service && goodElement(service) !== null) {
    add(
      "Cluster.EdsClusterConfig:service_name:kinds",
      "eds_cluster_config.service_name takes strings of any length, and nothing else",
      [service.id],
      async (ctx) => {
        const control = edsCluster();
        const put = (v: unknown) => ({
          ...control,
          eds_cluster_config: { ...(control.eds_cluster_config as Obj), service_name: v },
        });
        await checkKinds(ctx, service, control, put, "");
        await accepted(ctx, [put("s".repeat(4096))], "a service_name of 4096 characters");
        const res = await fc.check(
          fc.asyncProperty(
            fc.string({ minLength: 1, maxLength: 64 }),
            async (s) => passes(await validate(ctx, [put(s)])),
          ),
          { seed: ctx.seed, numRuns: Math.max(1, Math.ceil(ctx.numRuns / 10)) },
        );
        if (res.failed) {
          throw new CaseFailure(
            "eds_cluster_config.service_name: a string was rejected",
            JSON.stringify(res.counterexample?.[0]),
          );
        }
      },
    );
  }
  return out.filter((c) => c.rules.length > 0);
}
