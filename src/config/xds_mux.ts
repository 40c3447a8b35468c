/**
 * The xDS protocol of a client, over one bidirectional stream (an ADS stream carries every type;
 * a per-type `api_config_source` stream carries one): subscriptions by type URL and resource
 * name (`null` is the wildcard: every resource of the type), the node on the first request,
 * `version_info` and `response_nonce` echoed, an ACK when every subscriber took the update and a
 * NACK carrying `error_detail` (the subscribers' errors, with field paths) when one refused it, in
 * which case the previous version stays. State of the world (`DiscoveryRequest`) or incremental
 * (`DeltaDiscoveryRequest`, the resources of a type kept here so subscribers still see whole
 * states). A broken stream is counted (`update_failure`) and reopened with exponential back-off
 * (jittered, 0.5 s doubling to 30 s), re-sending what is subscribed with the last accepted
 * versions; nothing accepted is dropped meanwhile.
 *
 * Statistics of each subscription, under the scope it is given (Envoy's names):
 * `update_attempt`, `update_success`, `update_rejected`, `update_failure`, `init_fetch_timeout`,
 * `version` (a hash of `version_info`) and `version_text`.
 *
 * @example Not run: it needs a stream to a control plane (see `src/upstream/grpc_stream.ts`).
 * ```ts ignore
 * import { XdsMux } from "./xds_mux.ts";
 * const mux = new XdsMux(openStream, { node: { id: "n" }, method: "/...", delta: false });
 * const sub = mux.subscribe(TYPE_URLS.cds, null, scope, callbacks, { initialFetchTimeoutMs: 15000 });
 * await sub.start();
 * await mux.close();
 * ```
 * @module
 */
import type { JsonObject } from "./bootstrap_types.ts";
import type { DiscoveryResponse, SubscriptionCallbacks } from "./subscription.ts";
import type { Counter, Gauge, Scope, TextReadout } from "../stats/types.ts";
import { versionHash } from "./subscription_hash.ts";
import { anyToJson, typeName } from "./proto_registry.ts";
import {
  decodeDeltaResponse,
  decodeResponse,
  type DeltaDiscoveryResponse,
  type DiscoveryResponse as WireResponse,
  encodeDeltaRequest,
  encodeRequest,
  type ErrorDetail,
} from "./xds_wire.ts";

/** One open stream, as {@linkcode OpenStream} hands it out. */
export interface XdsStream {
  write(bytes: Uint8Array): void;
  /** Ends the stream from this side; no `onClose` follows. */
  cancel(): void;
}

/** Opens a stream on `method`; `onClose` tells why it ended (once). */
export type OpenStream = (
  method: string,
  handlers: { onMessage(bytes: Uint8Array): void; onClose(reason: string): void },
) => XdsStream;

/** Settings of a {@linkcode XdsMux}. */
export interface XdsMuxOptions {
  /**
   * `config.core.v3.Node` (proto3 JSON), sent on every request, or on the first request of each
   * stream only with `nodeFirstOnly` (`set_node_on_first_message_only`).
   */
  node: JsonObject;
  nodeFirstOnly?: boolean;
  /** gRPC method path of the stream. */
  method: string;
  delta: boolean;
  log?: (level: string, msg: string) => void;
  /**
   * Hears each field of a resource the descriptor set does not know (`resources[i].path#N`);
   * throwing refuses the update (`--reject-unknown-dynamic-fields`).
   */
  onUnknownField?: (message: string, path: string) => void;
  /** First back-off delay (ms); doubles up to `backoffMaxMs`. */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
}

/** The name of a decoded resource (Cluster, Listener, RouteConfiguration; CLA's cluster_name). */
export function resourceName(r: JsonObject): string {
  const n = r.name ?? r.cluster_name;
  return typeof n === "string" ? n : "";
}

/** Envoy's NACK status code (INTERNAL). */
const NACK_CODE = 13;

/** One subscriber: a type, a resource name or the wildcard, and where updates go. */
export class XdsSubscription {
  readonly #s: {
    attempt: Counter;
    success: Counter;
    rejected: Counter;
    failure: Counter;
    timeout: Counter;
    version: Gauge;
    versionText: TextReadout;
  };
  #started: Promise<void> | null = null;
  #ready: () => void = () => {};
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Set once the first update (or failure) arrived. */
  settled = false;
  closed = false;

  /** Made by {@linkcode XdsMux.subscribe}. */
  constructor(
    readonly mux: XdsMux,
    readonly typeUrl: string,
    readonly name: string | null,
    scope: Scope,
    readonly callbacks: SubscriptionCallbacks,
    readonly initialFetchTimeoutMs: number,
  ) {
    this.#s = {
      attempt: scope.counter("update_attempt"),
      success: scope.counter("update_success"),
      rejected: scope.counter("update_rejected"),
      failure: scope.counter("update_failure"),
      timeout: scope.counter("init_fetch_timeout"),
      version: scope.gauge("version"),
      versionText: scope.textReadout("version_text"),
    };
  }

  #settle() {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.#timer);
    this.#ready();
  }

  /**
   * Subscribes; resolves at the first update (taken or refused), a connection failure, or after
   * `initial_fetch_timeout` (counted as `init_fetch_timeout`), whichever comes first.
   */
  start(): Promise<void> {
    if (this.#started) return this.#started;
    this.#started = new Promise((resolve) => {
      this.#ready = resolve;
      if (this.initialFetchTimeoutMs > 0) {
        this.#timer = setTimeout(() => {
          if (this.settled) return;
          this.#s.timeout.inc();
          this.mux.log("warning", `${typeName(this.typeUrl)}: initial fetch timed out`);
          this.#settle();
        }, this.initialFetchTimeoutMs);
      }
    });
    this.mux.add(this);
    return this.#started;
  }

  /** A control plane pushes: nothing to re-read. */
  refresh(): Promise<void> {
    return Promise.resolve();
  }

  /** Unsubscribes. */
  close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.#timer);
    this.mux.remove(this);
    this.#settle();
    return Promise.resolve();
  }

  /** Delivers an update; returns the reason when the subscriber refused it. */
  deliver(r: DiscoveryResponse): string | null {
    this.#s.attempt.inc();
    try {
      this.callbacks.onConfigUpdate(r);
    } catch (e) {
      const why = (e as Error).message;
      this.#s.rejected.inc();
      this.callbacks.onConfigUpdateFailed(why);
      this.#settle();
      return why;
    }
    this.#s.success.inc();
    this.#s.version.set(versionHash(r.version_info));
    this.#s.versionText.set(r.version_info);
    this.#settle();
    return null;
  }

  /** Counts a refused response (malformed resources) without delivering it. */
  refuse(why: string) {
    this.#s.attempt.inc();
    this.#s.rejected.inc();
    this.callbacks.onConfigUpdateFailed(why);
    this.#settle();
  }

  /** Counts a broken stream. */
  failed(why: string) {
    this.#s.attempt.inc();
    this.#s.failure.inc();
    this.callbacks.onConfigUpdateFailed(why);
    this.#settle();
  }
}

/** What the mux keeps per type URL. */
interface TypeState {
  subs: Set<XdsSubscription>;
  /** Last accepted version (SotW) and the nonce of the last response. */
  version: string;
  nonce: string;
  /** Delta: the accepted resources by name, with their versions. */
  resources: Map<string, { version: string; json: JsonObject }>;
  /** SotW: the last accepted resource of each name (for subscribers that come later). */
  accepted: Map<string, JsonObject>;
  /** Names last sent (delta: subscribed). */
  sentNames: Set<string>;
  sentWildcard: boolean;
}

/** The client side of one xDS stream; see the module documentation. */
export class XdsMux {
  readonly #types = new Map<string, TypeState>();
  #stream: XdsStream | null = null;
  #nodeSent = false;
  #retry: ReturnType<typeof setTimeout> | undefined;
  #backoff: number;
  #closed = false;

  /** A mux that opens streams with `open`. */
  constructor(readonly open: OpenStream, readonly opts: XdsMuxOptions) {
    this.#backoff = opts.backoffBaseMs ?? 500;
  }

  /** Logs through the options' logger. */
  log(level: string, msg: string) {
    this.opts.log?.(level, `xds: ${msg}`);
  }

  /** A subscription to `name` (or every resource with `null`) of `typeUrl`; call `start()`. */
  subscribe(
    typeUrl: string,
    name: string | null,
    scope: Scope,
    callbacks: SubscriptionCallbacks,
    opts: { initialFetchTimeoutMs?: number } = {},
  ): XdsSubscription {
    return new XdsSubscription(
      this,
      typeUrl,
      name,
      scope,
      callbacks,
      opts.initialFetchTimeoutMs ?? 15000,
    );
  }

  /** Registers a started subscription and sends the new interest. */
  add(sub: XdsSubscription) {
    let st = this.#types.get(sub.typeUrl);
    if (!st) {
      st = {
        subs: new Set(),
        version: "",
        nonce: "",
        resources: new Map(),
        accepted: new Map(),
        sentNames: new Set(),
        sentWildcard: false,
      };
      this.#types.set(sub.typeUrl, st);
    }
    st.subs.add(sub);
    if (this.#closed) return;
    if (!this.#stream) this.#connect();
    else this.#send(sub.typeUrl);
    // A delta resource already known is delivered to a late subscriber at once.
    if (this.opts.delta && sub.name !== null && st.resources.has(sub.name)) {
      const r = st.resources.get(sub.name)!;
      sub.deliver({ version_info: r.version, resources: [r.json] });
    }
    // So is a SotW resource another subscriber already took: asking for a name already asked
    // for brings no response from the control plane.
    if (!this.opts.delta && sub.name !== null && st.accepted.has(sub.name)) {
      sub.deliver({ version_info: st.version, resources: [st.accepted.get(sub.name)!] });
    }
  }

  /** Drops a subscription and sends the reduced interest. */
  remove(sub: XdsSubscription) {
    const st = this.#types.get(sub.typeUrl);
    if (!st?.subs.delete(sub)) return;
    this.#prune(st);
    if (this.#stream && !this.#closed) this.#send(sub.typeUrl);
  }

  /** Forgets the accepted SotW resources no subscription asks for any more. */
  #prune(st: TypeState): void {
    const { wildcard, names } = this.#interest(st);
    if (wildcard) return;
    const wanted = new Set(names);
    for (const name of st.accepted.keys()) if (!wanted.has(name)) st.accepted.delete(name);
  }

  #interest(st: TypeState): { wildcard: boolean; names: string[] } {
    const names = new Set<string>();
    let wildcard = false;
    for (const s of st.subs) {
      if (s.name === null) wildcard = true;
      else names.add(s.name);
    }
    return { wildcard, names: [...names].sort() };
  }

  #connect() {
    if (this.#closed) return;
    this.#nodeSent = false;
    let closed = false;
    const stream = this.open(this.opts.method, {
      onMessage: (b) => {
        if (this.#stream !== stream) return;
        this.#backoff = this.opts.backoffBaseMs ?? 500;
        try {
          if (this.opts.delta) this.#onDelta(decodeDeltaResponse(b));
          else this.#onSotw(decodeResponse(b));
        } catch (e) {
          this.log("warning", `malformed response: ${(e as Error).message}`);
          stream.cancel();
          this.#broken(stream, `malformed response: ${(e as Error).message}`);
        }
      },
      onClose: (reason) => {
        if (closed) return;
        closed = true;
        this.#broken(stream, reason);
      },
    });
    this.#stream = stream;
    for (const st of this.#types.values()) {
      st.nonce = "";
      st.sentNames = new Set();
      st.sentWildcard = false;
    }
    for (const t of this.#types.keys()) this.#send(t, true);
  }

  #broken(stream: XdsStream, reason: string) {
    if (this.#stream !== stream) return;
    this.#stream = null;
    if (this.#closed) return;
    this.log("warning", `stream closed: ${reason}; retrying in ${this.#backoff} ms`);
    for (const st of this.#types.values()) for (const s of st.subs) s.failed(reason);
    const max = this.opts.backoffMaxMs ?? 30000;
    const wait = Math.round(this.#backoff * (0.5 + Math.random() / 2));
    this.#backoff = Math.min(this.#backoff * 2, max);
    this.#retry = setTimeout(() => this.#connect(), wait);
  }

  #node(): JsonObject | undefined {
    if (!this.opts.nodeFirstOnly) return this.opts.node;
    if (this.#nodeSent) return undefined;
    this.#nodeSent = true;
    return this.opts.node;
  }

  /** Sends the current interest in `typeUrl` (first: also on a fresh stream). */
  #send(typeUrl: string, fresh = false, error?: ErrorDetail, nackVersion?: string) {
    const st = this.#types.get(typeUrl);
    const stream = this.#stream;
    if (!st || !stream) return;
    const { wildcard, names } = this.#interest(st);
    if (this.opts.delta) {
      const subscribe = fresh ? (wildcard ? ["*", ...names] : names) : [
        ...(wildcard && !st.sentWildcard ? ["*"] : []),
        ...names.filter((n) => !st.sentNames.has(n)),
      ];
      const unsubscribe = fresh ? [] : [
        ...(!wildcard && st.sentWildcard ? ["*"] : []),
        ...[...st.sentNames].filter((n) => !names.includes(n)),
      ];
      if (!fresh && !error && subscribe.length === 0 && unsubscribe.length === 0) return;
      const initial: Record<string, string> = {};
      if (fresh) { for (const [n, r] of st.resources) initial[n] = r.version; }
      stream.write(encodeDeltaRequest({
        node: this.#node(),
        type_url: typeUrl,
        resource_names_subscribe: subscribe,
        resource_names_unsubscribe: unsubscribe,
        initial_resource_versions: initial,
        response_nonce: fresh ? "" : st.nonce,
        error_detail: error,
      }));
    } else {
      stream.write(encodeRequest({
        version_info: nackVersion ?? st.version,
        node: this.#node(),
        resource_names: wildcard ? [] : names,
        type_url: typeUrl,
        response_nonce: st.nonce,
        error_detail: error,
      }));
    }
    st.sentNames = new Set(names);
    st.sentWildcard = wildcard;
  }

  /** Decodes the resources of a response; the errors name `resources[i]`. */
  #decode(typeUrl: string, items: { any?: { type_url: string; value: Uint8Array } }[]) {
    const out: JsonObject[] = [];
    const errors: string[] = [];
    items.forEach(({ any }, i) => {
      if (!any) return;
      if (typeName(any.type_url) !== typeName(typeUrl)) {
        errors.push(`resources[${i}]: type ${any.type_url} in a response for ${typeUrl}`);
        return;
      }
      try {
        const on = this.opts.onUnknownField;
        const t = typeName(any.type_url);
        out.push(
          anyToJson(
            any,
            on && ((p) => on(t, `resources[${i}]${p.startsWith("#") ? "" : "."}${p}`)),
          ),
        );
      } catch (e) {
        errors.push(`resources[${i}]: ${(e as Error).message}`);
      }
    });
    return { out, errors };
  }

  #nack(st: TypeState, typeUrl: string, why: string) {
    this.log("warning", `${typeName(typeUrl)} update rejected: ${why}`);
    this.#send(typeUrl, false, { code: NACK_CODE, message: why });
    void st;
  }

  #onSotw(r: WireResponse) {
    const st = this.#types.get(r.type_url);
    if (!st) {
      this.log("warning", `response for ${r.type_url}, which nothing subscribed to`);
      return;
    }
    st.nonce = r.nonce;
    const { out, errors } = this.#decode(r.type_url, r.resources.map((any) => ({ any })));
    if (errors.length) {
      const why = errors.join("; ");
      for (const s of st.subs) s.refuse(why);
      return this.#nack(st, r.type_url, why);
    }
    const problems: string[] = [];
    for (const s of [...st.subs]) {
      const mine = s.name === null ? out : out.filter((x) => resourceName(x) === s.name);
      if (s.name !== null && mine.length === 0) continue;
      const why = s.deliver({ version_info: r.version_info, resources: mine });
      if (why) problems.push(why);
    }
    if (problems.length) return this.#nack(st, r.type_url, problems.join("; "));
    st.version = r.version_info;
    // A wildcard SotW response is the whole set: what it lacks is gone. Named resources stay
    // while someone subscribes to them.
    if (this.#interest(st).wildcard) st.accepted.clear();
    for (const x of out) st.accepted.set(resourceName(x), x);
    this.#prune(st);
    this.#send(r.type_url);
  }

  #onDelta(r: DeltaDiscoveryResponse) {
    const st = this.#types.get(r.type_url);
    if (!st) {
      this.log("warning", `response for ${r.type_url}, which nothing subscribed to`);
      return;
    }
    st.nonce = r.nonce;
    const { out, errors } = this.#decode(
      r.type_url,
      r.resources.map((x) => ({ any: x.resource })),
    );
    if (errors.length) {
      const why = errors.join("; ");
      for (const s of st.subs) s.refuse(why);
      return this.#nack(st, r.type_url, why);
    }
    const next = new Map(st.resources);
    out.forEach((json) => {
      const n = resourceName(json);
      const v = r.resources.find((x) => x.name === n)?.version ?? r.system_version_info;
      next.set(n, { version: v, json });
    });
    for (const n of r.removed_resources) next.delete(n);
    const changed = new Set([...out.map(resourceName), ...r.removed_resources]);
    const version = r.system_version_info;
    const problems: string[] = [];
    for (const s of [...st.subs]) {
      if (s.name !== null && !changed.has(s.name)) continue;
      const mine = s.name === null
        ? [...next.values()].map((x) => x.json)
        : next.has(s.name)
        ? [next.get(s.name)!.json]
        : [];
      const why = s.deliver({ version_info: version, resources: mine });
      if (why) problems.push(why);
    }
    if (problems.length) return this.#nack(st, r.type_url, problems.join("; "));
    st.resources = next;
    st.version = version;
    this.#stream?.write(encodeDeltaRequest({
      type_url: r.type_url,
      resource_names_subscribe: [],
      resource_names_unsubscribe: [],
      initial_resource_versions: {},
      response_nonce: r.nonce,
    }));
  }

  /** Ends the stream and stops retrying. */
  close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    const s = this.#stream;
    this.#stream = null;
    s?.cancel();
    return Promise.resolve();
  }
}
