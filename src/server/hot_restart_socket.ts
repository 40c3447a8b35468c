/**
 * Hot restart domain sockets: their names (`--socket-path` + `_{role}_{id}`, as Envoy), binding
 * them with `--socket-mode`, and `--use-dynamic-base-id`'s search for an unused base ID.
 *
 * Naming, as Envoy's hot restart: the base ID is scaled by 10, and the id of the socket of
 * restart epoch `e` is `base_id * 10 + e % 3` (at most three processes overlap). Each process
 * binds a `child` and a `parent` socket for its own epoch; a child talks to the `parent`
 * socket of epoch `e - 1`. A name that starts with `@` is in the abstract namespace, which Deno
 * writes with a leading NUL (`"\0name"`); any other name is a file, created with the mode of
 * `--socket-mode`. The sockets are datagram sockets (as Envoy's) when `Deno.listenDatagram` is
 * available (`--unstable-net`, which deno.json turns on), stream sockets otherwise.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hotRestartSocketName, pickDynamicBaseId } from "./hot_restart_socket.ts";
 * assert.equal(
 *   hotRestartSocketName("@proxy_domain_socket", "child", 5, 1),
 *   "@proxy_domain_socket_child_51",
 * );
 * const baseId = pickDynamicBaseId("@proxy_domain_socket");
 * ```
 * @module
 */

/** The two roles of a hot restart socket. */
export type HotRestartRole = "child" | "parent";

/** At most this many processes overlap during hot restarts (socket ids wrap modulo it). */
export const MAX_CONCURRENT_PROCESSES = 3;

/** Tries of {@linkcode pickDynamicBaseId} before it gives up (as Envoy). */
export const DYNAMIC_BASE_ID_TRIES = 100;

/** The error of {@linkcode pickDynamicBaseId} when every try was in use (Envoy's words). */
export const NO_DYNAMIC_BASE_ID = "unable to select a dynamic base id";

/**
 * The socket name of a role and restart epoch: `<socket_path>_<role>_<base_id*10 + epoch%3>`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hotRestartSocketName } from "./hot_restart_socket.ts";
 * assert.equal(hotRestartSocketName("/run/proxy/hr", "parent", 0, 4), "/run/proxy/hr_parent_1");
 * ```
 */
export function hotRestartSocketName(
  socketPath: string,
  role: HotRestartRole,
  baseId: number,
  epoch: number,
): string {
  return `${socketPath}_${role}_${baseId * 10 + (epoch % MAX_CONCURRENT_PROCESSES)}`;
}

/**
 * True when a socket name is in the abstract namespace (a leading `@`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isAbstract } from "./hot_restart_socket.ts";
 * assert.equal(isAbstract("@proxy_domain_socket"), true);
 * ```
 */
export function isAbstract(name: string): boolean {
  return name.startsWith("@");
}

/**
 * The path Deno binds for a socket name: `@name` becomes `"\0name"`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { denoSocketPath } from "./hot_restart_socket.ts";
 * assert.equal(denoSocketPath("@a_child_0"), "\0a_child_0");
 * ```
 */
export function denoSocketPath(name: string): string {
  return isAbstract(name) ? "\0" + name.slice(1) : name;
}

/** A bound hot restart socket. */
export interface HotRestartSocket {
  /** The name as the options spell it (`@...` or a file path). */
  readonly name: string;
  /** `datagram` (as Envoy) or `stream`. */
  readonly kind: "datagram" | "stream";
  /** The bound socket. */
  readonly socket: Deno.DatagramConn | Deno.Listener;
  /** Closes the socket and removes its file (filesystem names). */
  close(): void;
}

function datagramAvailable(): boolean {
  return typeof (Deno as { listenDatagram?: unknown }).listenDatagram === "function";
}

/**
 * Binds a hot restart socket. A filesystem socket gets `mode` (`--socket-mode`, e.g. `0o600`)
 * right after it is created; an existing file is never removed, so a name in use fails with
 * `Deno.errors.AddrInUse` (for a file too).
 *
 * @example
 * ```ts
 * import { bindHotRestartSocket } from "./hot_restart_socket.ts";
 * const dir = Deno.makeTempDirSync();
 * const s = bindHotRestartSocket(`${dir}/hr_child_0`, 0o600); // a file socket, mode 0600
 * s.close();
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export function bindHotRestartSocket(name: string, mode: number | null): HotRestartSocket {
  const path = denoSocketPath(name);
  const file = !isAbstract(name);
  if (file) {
    let exists = true;
    try {
      Deno.lstatSync(path);
    } catch {
      exists = false;
    }
    if (exists) throw new Deno.errors.AddrInUse(`hot restart socket '${name}' already exists`);
  }
  const kind = datagramAvailable() ? "datagram" : "stream";
  let socket: Deno.DatagramConn | Deno.Listener;
  try {
    socket = kind === "datagram"
      ? Deno.listenDatagram({ transport: "unixpacket", path })
      : Deno.listen({ transport: "unix", path });
  } catch (e) {
    if (e instanceof Deno.errors.AddrInUse) throw e;
    const why = e instanceof Error ? e.message : String(e);
    throw new Error(`cannot bind hot restart socket '${name}': ${why}`, { cause: e });
  }
  if (file && mode !== null) {
    try {
      Deno.chmodSync(path, mode);
    } catch (e) {
      socket.close();
      removeQuietly(path);
      throw e;
    }
  }
  let open = true;
  return {
    name,
    kind,
    socket,
    close() {
      if (!open) return;
      open = false;
      socket.close();
      if (file) removeQuietly(path);
    },
  };
}

function removeQuietly(path: string): void {
  try {
    Deno.removeSync(path);
  } catch {
    // already gone
  }
}

/**
 * True when the sockets of restart epoch 0 of `baseId` can be bound; they are released at once.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { baseIdIsFree } from "./hot_restart_socket.ts";
 * // true unless a proxy on this machine uses base ID 7
 * assert.equal(typeof baseIdIsFree("@proxy_domain_socket", 7, null), "boolean");
 * ```
 */
export function baseIdIsFree(socketPath: string, baseId: number, mode: number | null): boolean {
  const bound: HotRestartSocket[] = [];
  try {
    for (const role of ["child", "parent"] as const) {
      bound.push(bindHotRestartSocket(hotRestartSocketName(socketPath, role, baseId, 0), mode));
    }
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.AddrInUse) return false;
    throw e;
  } finally {
    for (const s of bound) s.close();
  }
}

/**
 * `--use-dynamic-base-id`: a random base ID (below 2^28, leaving room for the scaling by 10)
 * whose hot restart sockets are free, probed by binding and releasing them; throws
 * {@linkcode NO_DYNAMIC_BASE_ID} after {@linkcode DYNAMIC_BASE_ID_TRIES} tries.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pickDynamicBaseId } from "./hot_restart_socket.ts";
 * const id = pickDynamicBaseId("@proxy_domain_socket"); // a base ID no running proxy uses
 * assert.ok(Number.isInteger(id));
 * ```
 */
export function pickDynamicBaseId(
  socketPath: string,
  mode: number | null = null,
  random: () => number = () => Math.floor(Math.random() * 0x1000_0000),
): number {
  for (let i = 0; i < DYNAMIC_BASE_ID_TRIES; i++) {
    const id = random() & 0x0fff_ffff;
    if (baseIdIsFree(socketPath, id, mode)) return id;
  }
  throw new Error(NO_DYNAMIC_BASE_ID);
}
