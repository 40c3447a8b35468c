/**
 * The xDS messages on the wire (`envoy.service.discovery.v3`): `DiscoveryRequest` and
 * `DiscoveryResponse` (state of the world), `DeltaDiscoveryRequest` and `DeltaDiscoveryResponse`
 * (incremental), encoded and decoded with the Envoy descriptor set (`proto_registry.ts`). The
 * shapes here are plain objects; resources stay `Any` bytes until a subscriber decodes them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeRequest, encodeRequest } from "./xds_wire.ts";
 * const bytes = encodeRequest({
 *   version_info: "1",
 *   node: { id: "n1", cluster: "c" },
 *   resource_names: [],
 *   type_url: "type.googleapis.com/envoy.config.cluster.v3.Cluster",
 *   response_nonce: "a",
 * });
 * const back = decodeRequest(bytes);
 * assert.equal(back.node?.id, "n1");
 * assert.equal(back.response_nonce, "a");
 * ```
 * @module
 */
import { create, fromBinary, fromJson, type JsonValue, toBinary, toJson } from "@bufbuild/protobuf";
import type { JsonObject } from "./bootstrap_types.ts";
import { type AnyBytes, envoyRegistry, messageType } from "./proto_registry.ts";

const PKG = "envoy.service.discovery.v3";

/** `google.rpc.Status` as a NACK carries it. */
export interface ErrorDetail {
  code: number;
  message: string;
}

/** A state-of-the-world request (subscription, ACK or NACK). */
export interface DiscoveryRequest {
  version_info: string;
  /** `config.core.v3.Node` as proto3 JSON; sent on the first request of a stream. */
  node?: JsonObject;
  resource_names: string[];
  type_url: string;
  response_nonce: string;
  error_detail?: ErrorDetail;
}

/** A state-of-the-world response. */
export interface DiscoveryResponse {
  version_info: string;
  resources: AnyBytes[];
  type_url: string;
  nonce: string;
}

/** An incremental request. */
export interface DeltaDiscoveryRequest {
  node?: JsonObject;
  type_url: string;
  resource_names_subscribe: string[];
  resource_names_unsubscribe: string[];
  initial_resource_versions: Record<string, string>;
  response_nonce: string;
  error_detail?: ErrorDetail;
}

/** One resource of an incremental response. */
export interface DeltaResource {
  name: string;
  version: string;
  resource?: AnyBytes;
}

/** An incremental response. */
export interface DeltaDiscoveryResponse {
  system_version_info: string;
  resources: DeltaResource[];
  type_url: string;
  removed_resources: string[];
  nonce: string;
}

// deno-lint-ignore no-explicit-any
type Msg = any;

const nodeOf = (json: JsonObject | undefined) =>
  json === undefined ? undefined : fromJson(
    messageType("envoy.config.core.v3.Node"),
    json as JsonValue,
    { registry: envoyRegistry(), ignoreUnknownFields: true },
  );

const nodeJson = (m: Msg) =>
  m
    ? toJson(messageType("envoy.config.core.v3.Node"), m, {
      registry: envoyRegistry(),
      useProtoFieldName: true,
    }) as JsonObject
    : undefined;

const errOf = (e?: ErrorDetail) =>
  e ? create(messageType("google.rpc.Status"), { ...e }) : undefined;
const errJson = (m: Msg): ErrorDetail | undefined =>
  m ? { code: m.code ?? 0, message: m.message ?? "" } : undefined;
const anyOf = (a: AnyBytes) =>
  create(messageType("google.protobuf.Any"), { typeUrl: a.type_url, value: a.value });

/** Encodes a {@linkcode DiscoveryRequest}. */
export function encodeRequest(r: DiscoveryRequest): Uint8Array {
  const d = messageType(`${PKG}.DiscoveryRequest`);
  return toBinary(
    d,
    create(d, {
      versionInfo: r.version_info,
      node: nodeOf(r.node),
      resourceNames: r.resource_names,
      typeUrl: r.type_url,
      responseNonce: r.response_nonce,
      errorDetail: errOf(r.error_detail),
    } as Msg),
  );
}

/** Decodes a {@linkcode DiscoveryRequest}. */
export function decodeRequest(b: Uint8Array): DiscoveryRequest {
  const m: Msg = fromBinary(messageType(`${PKG}.DiscoveryRequest`), b);
  return {
    version_info: m.versionInfo,
    node: nodeJson(m.node),
    resource_names: [...m.resourceNames],
    type_url: m.typeUrl,
    response_nonce: m.responseNonce,
    error_detail: errJson(m.errorDetail),
  };
}

/** Encodes a {@linkcode DiscoveryResponse}. */
export function encodeResponse(r: DiscoveryResponse): Uint8Array {
  const d = messageType(`${PKG}.DiscoveryResponse`);
  return toBinary(
    d,
    create(d, {
      versionInfo: r.version_info,
      resources: r.resources.map(anyOf),
      typeUrl: r.type_url,
      nonce: r.nonce,
    } as Msg),
  );
}

/** Decodes a {@linkcode DiscoveryResponse}. */
export function decodeResponse(b: Uint8Array): DiscoveryResponse {
  const m: Msg = fromBinary(messageType(`${PKG}.DiscoveryResponse`), b);
  return {
    version_info: m.versionInfo,
    resources: m.resources.map((a: Msg) => ({ type_url: a.typeUrl, value: a.value })),
    type_url: m.typeUrl,
    nonce: m.nonce,
  };
}

/** Encodes a {@linkcode DeltaDiscoveryRequest}. */
export function encodeDeltaRequest(r: DeltaDiscoveryRequest): Uint8Array {
  const d = messageType(`${PKG}.DeltaDiscoveryRequest`);
  return toBinary(
    d,
    create(d, {
      node: nodeOf(r.node),
      typeUrl: r.type_url,
      resourceNamesSubscribe: r.resource_names_subscribe,
      resourceNamesUnsubscribe: r.resource_names_unsubscribe,
      initialResourceVersions: r.initial_resource_versions,
      responseNonce: r.response_nonce,
      errorDetail: errOf(r.error_detail),
    } as Msg),
  );
}

/** Decodes a {@linkcode DeltaDiscoveryRequest}. */
export function decodeDeltaRequest(b: Uint8Array): DeltaDiscoveryRequest {
  const m: Msg = fromBinary(messageType(`${PKG}.DeltaDiscoveryRequest`), b);
  return {
    node: nodeJson(m.node),
    type_url: m.typeUrl,
    resource_names_subscribe: [...m.resourceNamesSubscribe],
    resource_names_unsubscribe: [...m.resourceNamesUnsubscribe],
    initial_resource_versions: { ...m.initialResourceVersions },
    response_nonce: m.responseNonce,
    error_detail: errJson(m.errorDetail),
  };
}

/** Encodes a {@linkcode DeltaDiscoveryResponse}. */
export function encodeDeltaResponse(r: DeltaDiscoveryResponse): Uint8Array {
  const d = messageType(`${PKG}.DeltaDiscoveryResponse`);
  const res = messageType(`${PKG}.Resource`);
  return toBinary(
    d,
    create(d, {
      systemVersionInfo: r.system_version_info,
      resources: r.resources.map((x) =>
        create(res, {
          name: x.name,
          version: x.version,
          resource: x.resource ? anyOf(x.resource) : undefined,
        } as Msg)
      ),
      typeUrl: r.type_url,
      removedResources: r.removed_resources,
      nonce: r.nonce,
    } as Msg),
  );
}

/** Decodes a {@linkcode DeltaDiscoveryResponse}. */
export function decodeDeltaResponse(b: Uint8Array): DeltaDiscoveryResponse {
  const m: Msg = fromBinary(messageType(`${PKG}.DeltaDiscoveryResponse`), b);
  return {
    system_version_info: m.systemVersionInfo,
    resources: m.resources.map((x: Msg) => ({
      name: x.name,
      version: x.version,
      resource: x.resource ? { type_url: x.resource.typeUrl, value: x.resource.value } : undefined,
    })),
    type_url: m.typeUrl,
    removed_resources: [...m.removedResources],
    nonce: m.nonce,
  };
}

const jsonOpts = () => ({ registry: envoyRegistry(), useProtoFieldName: true });

/** A {@linkcode DiscoveryRequest} as proto3 JSON (the body of a REST request). */
export function requestToJson(r: DiscoveryRequest): JsonObject {
  const d = messageType(`${PKG}.DiscoveryRequest`);
  return toJson(d, fromBinary(d, encodeRequest(r)), jsonOpts()) as JsonObject;
}

/** A REST request body (proto3 JSON) read; throws on what does not decode. */
export function requestFromJson(json: unknown): DiscoveryRequest {
  const d = messageType(`${PKG}.DiscoveryRequest`);
  return decodeRequest(toBinary(d, fromJson(d, json as JsonValue, { registry: envoyRegistry() })));
}

/** A {@linkcode DiscoveryResponse} as proto3 JSON (resources as `Any` with `@type`). */
export function responseToJson(r: DiscoveryResponse): JsonObject {
  const d = messageType(`${PKG}.DiscoveryResponse`);
  return toJson(d, fromBinary(d, encodeResponse(r)), jsonOpts()) as JsonObject;
}

/** A REST response body (proto3 JSON) encoded as binary; throws on what does not decode. */
export function responseJsonToBinary(json: unknown): Uint8Array {
  const d = messageType(`${PKG}.DiscoveryResponse`);
  return toBinary(d, fromJson(d, json as JsonValue, { registry: envoyRegistry() }));
}

export { GRPC_METHODS, REST_PATHS, TYPE_URLS } from "./xds_names.ts";
