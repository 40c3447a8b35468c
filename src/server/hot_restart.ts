/**
 * Hot restart between processes (`--restart-epoch`), as Envoy's: a new process (epoch N+1)
 * finds its parent (epoch N) through the hot restart datagram sockets (`hot_restart_socket.ts`:
 * `--socket-path`, `--base-id`, `_{role}_{id}`), checks that both speak the same protocol
 * ({@linkcode hotRestartProtocolVersion}), binds the same listeners (every listener is bound
 * with `reusePort`, so both processes accept on the same ports while they overlap), asks the
 * parent to drain its listeners (`--drain-time-s`, `--drain-strategy`), adds the parent's stats
 * to its own while both run (counters continue; gauges the new process does not set itself are
 * the parent's, until it exits), and after `--parent-shutdown-time-s` tells the parent to shut
 * down. `/server_info`'s `uptime_all_epochs` counts from the first epoch's start.
 *
 * Messages are JSON objects `{id, type, ...}` in datagrams, answered by `{id, type: "reply"}`;
 * a message longer than {@linkcode CHUNK_CHARS} is sent in parts. Types: `hello` (the version;
 * answered with the parent's version, PID and first-epoch start), `drain` (with `pins`: the
 * reuseport groups the child steers to its own sockets, and the index each is pinned to just
 * before the parent's listening sockets close; see `hot_restart_steering.ts`), `stats` (counter
 * increments since the last `stats`, gauge values, and histogram values: all of them the first
 * time, those recorded since the last `stats` afterwards), `terminate` (answered once the parent
 * has stopped its listeners and workers on its way out, with its last `stats`: what it counted
 * after the previous `stats`, so counters and histograms add up exactly across the epochs).
 *
 * @example Not run: it needs a parent process.
 * ```ts ignore
 * const hr = await HotRestart.start(options, log);
 * hr?.serve({ info, drain, stats, terminate });
 * await hr?.drainParent();
 * // as a parent, on the way out (listeners and workers stopped):
 * await hr?.handOver();
 * ```
 * @module
 */
import type { Options } from "../config/options.ts";
import type { ReuseportPin } from "../platform/reuseport_steering.ts";
import type { HistogramUnit } from "../stats/types.ts";
import type { LogLinearSnapshot } from "../stats/log_linear.ts";
import {
  bindHotRestartSocket,
  denoSocketPath,
  type HotRestartSocket,
  hotRestartSocketName,
  isAbstract,
} from "./hot_restart_socket.ts";

/** Largest piece of a message in one datagram (characters of its JSON). */
export const CHUNK_CHARS = 32 * 1024;

/** How long a process waits for its parent's answer. */
export const PARENT_ANSWER_MS = 10_000;

/**
 * How long a process waits for its parent's answer to `terminate`: the parent answers once its
 * listeners and workers have stopped, on its way out.
 */
export const PARENT_TERMINATE_MS = 30_000;

/** The message types of the protocol, in order; part of its version. */
export const HOT_RESTART_MESSAGES = ["hello", "drain", "stats", "terminate", "reply"] as const;

/** What a `stats` answer holds (part of the protocol version). */
const STATS_PARTS = ["counters", "gauges", "histograms"] as const;

/** Major number of the protocol: bump it when a message changes meaning. */
export const HOT_RESTART_PROTOCOL_MAJOR = 4;

/** The fields of a `drain` message (part of the protocol version). */
const DRAIN_PARTS = ["pins"] as const;

/**
 * The protocol version `--hot-restart-version` and `/hot_restart_version` print: the major
 * number, then a checksum of the message types, the framing and the chunk size, so builds whose
 * messages differ never hot-restart over each other.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hotRestartProtocolVersion } from "./hot_restart.ts";
 * assert.match(hotRestartProtocolVersion(), /^4\.\d+$/);
 * ```
 */
export function hotRestartProtocolVersion(): string {
  const text = JSON.stringify({
    m: HOT_RESTART_MESSAGES,
    f: "json-datagram",
    c: CHUNK_CHARS,
    s: STATS_PARTS,
    d: DRAIN_PARTS,
  });
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) >>> 0;
  return `${HOT_RESTART_PROTOCOL_MAJOR}.${h % 100_000}`;
}

/** What the parent answers to `hello`. */
export interface ParentInfo {
  version: string;
  pid: number;
  /** Start of the first epoch (ms since the epoch). */
  firstEpochStartedAt: number;
}

/** Stats a parent hands over: counter increments and gauge values. */
export interface ParentStats {
  counters: Array<[string, number]>;
  gauges: Array<[string, number]>;
  /**
   * Histogram values to add to the child's: the first answer carries everything the parent
   * recorded, later ones what it recorded since the previous answer.
   */
  histograms: Array<[string, HistogramUnit, LogLinearSnapshot]>;
}

/** What a process does for its child. */
export interface ParentHandlers {
  info(): ParentInfo;
  /** Drains every listener; `pins` as {@linkcode HotRestart.drainParent} sends them. */
  drain(pins: readonly ReuseportPin[]): Promise<void>;
  stats(): ParentStats;
  /**
   * Starts shutting down; the answer to `terminate` waits for {@linkcode HotRestart.handOver}
   * (called on the way out, once nothing counts any more).
   */
  terminate(): void;
}

/** A `terminate` being answered: the last stats, once {@linkcode HotRestart.handOver} has them. */
interface Terminating {
  last: (s: ParentStats | null) => void;
  sent: Promise<void>;
}

type Message = { id: number; type: string; [k: string]: unknown };

/** A process's end of hot restart: its own socket for a child, and its parent's, if any. */
export class HotRestart {
  #nextId = 1;
  #queue: Promise<void> = Promise.resolve();
  #broken = false;
  #handlers: ParentHandlers | null = null;
  #closed = false;
  readonly #loops: Promise<void>[] = [];
  #terminating: Terminating | null = null;
  #handedOver = false;

  private constructor(
    readonly own: HotRestartSocket | null,
    readonly child: HotRestartSocket | null,
    readonly parentName: string | null,
    readonly ownChildName: string,
  ) {
    if (own) this.#loops.push(this.#serveLoop(own));
  }

  /** The parent's facts, once {@linkcode HotRestart.start} talked to it (epoch above 0). */
  parent: ParentInfo | null = null;

  /**
   * Sets up hot restart for this process, or returns null with `--disable-hot-restart`. With an
   * epoch above 0, finds the parent and checks its version (throws a clear error when there is
   * no parent, it does not answer, or its version differs). `strict`: a taken socket of this
   * process's own epoch is an error (an explicit `--base-id` or epoch); otherwise it is logged and
   * this process cannot be hot-restarted.
   */
  static async start(
    options: Options,
    log: (level: string, msg: string) => void,
    strict: boolean,
  ): Promise<HotRestart | null> {
    if (options.disable_hot_restart) return null;
    const { socket_path: path, base_id: id, restart_epoch: epoch } = options;
    const mode = isAbstract(path) ? null : options.socket_mode;
    const name = (role: "child" | "parent", e: number) => hotRestartSocketName(path, role, id, e);
    let own: HotRestartSocket | null = null;
    try {
      own = bindHotRestartSocket(name("parent", epoch), mode);
    } catch (e) {
      const why = `unable to bind hot restart socket ${name("parent", epoch)} (base id ${id}): ` +
        `${e instanceof Deno.errors.AddrInUse ? "another process holds it" : String(e)}`;
      if (strict || epoch > 0) {
        throw new Error(`${why}; choose another --base-id or use --use-dynamic-base-id`);
      }
      log("warning", `${why}: this process cannot be hot restarted`);
    }
    if (epoch === 0) return new HotRestart(own, null, null, name("child", epoch));
    let child: HotRestartSocket;
    try {
      child = bindHotRestartSocket(name("child", epoch), mode);
    } catch (e) {
      own?.close();
      throw new Error(`unable to bind hot restart socket ${name("child", epoch)}: ${e}`);
    }
    const hr = new HotRestart(own, child, name("parent", epoch - 1), name("child", epoch));
    try {
      const reply = await hr.#ask({ type: "hello", version: hotRestartProtocolVersion(), epoch });
      const info = reply.info as ParentInfo;
      if (info.version !== hotRestartProtocolVersion()) {
        throw new Error(
          `hot restart version mismatch: the parent (pid ${info.pid}) speaks ${info.version}, ` +
            `this build ${hotRestartProtocolVersion()}; stop the parent instead`,
        );
      }
      hr.parent = info;
      log("info", `hot restart: parent pid ${info.pid} (epoch ${epoch - 1}) found`);
      return hr;
    } catch (e) {
      await hr.close();
      throw e;
    }
  }

  /** Answers a child's messages with `handlers`. */
  serve(handlers: ParentHandlers): void {
    this.#handlers = handlers;
  }

  /**
   * Asks the parent to drain its listeners, and to pin each of `pins`'s reuseport groups to the
   * given index just before its listening sockets close.
   */
  async drainParent(pins: readonly ReuseportPin[] = []): Promise<void> {
    await this.#ask({ type: "drain", pins });
  }

  /** The parent's stats changes since the last call. */
  async parentStats(): Promise<ParentStats> {
    return (await this.#ask({ type: "stats" })).stats as ParentStats;
  }

  /**
   * Tells the parent to shut down; resolves with its last stats (what it counted since the
   * previous {@linkcode parentStats}, up to when its listeners and workers stopped).
   */
  async terminateParent(): Promise<ParentStats | null> {
    const reply = await this.#ask({ type: "terminate" }, PARENT_TERMINATE_MS);
    return (reply.stats as ParentStats | undefined) ?? null;
  }

  /**
   * On this process's way out, once its listeners and workers have stopped (nothing counts any
   * more): answers a child's `terminate` with the stats not handed over yet and resolves once
   * the answer is sent. Does nothing when no child asked this process to end.
   */
  async handOver(): Promise<void> {
    this.#handedOver = true;
    const t = this.#terminating;
    if (!t) return;
    let last: ParentStats | null = null;
    try {
      last = this.#handlers?.stats() ?? null;
    } finally {
      t.last(last);
    }
    await t.sent;
  }

  /** Closes both sockets (their files are removed). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#handedOver = true;
    this.#terminating?.last(null);
    this.own?.close();
    this.child?.close();
    await Promise.allSettled(this.#loops);
  }

  async #send(via: Deno.DatagramConn, to: string, m: Message): Promise<void> {
    const text = JSON.stringify(m);
    const parts = Math.max(1, Math.ceil(text.length / CHUNK_CHARS));
    const addr = { transport: "unixpacket" as const, path: denoSocketPath(to) };
    for (let i = 0; i < parts; i++) {
      const chunk = text.slice(i * CHUNK_CHARS, (i + 1) * CHUNK_CHARS);
      const frame = JSON.stringify({ id: m.id, part: i, parts, chunk });
      await via.send(new TextEncoder().encode(frame), addr);
    }
  }

  /**
   * The next whole message on `conn` (parts joined). Deno cannot send on a datagram socket while
   * a receive is pending on it, so each socket is either receiving or sending, never both.
   */
  async #next(conn: Deno.DatagramConn): Promise<Message | null> {
    const parts = new Map<number, string[]>();
    for (;;) {
      let data: Uint8Array;
      try {
        [data] = await conn.receive();
      } catch {
        return null; // closed
      }
      let frame: { id: number; part: number; parts: number; chunk: string };
      try {
        frame = JSON.parse(new TextDecoder().decode(data));
      } catch {
        continue;
      }
      const list = parts.get(frame.id) ?? [];
      list[frame.part] = frame.chunk;
      parts.set(frame.id, list);
      if (list.filter((p) => p !== undefined).length < frame.parts) continue;
      try {
        return JSON.parse(list.join("")) as Message;
      } catch {
        parts.delete(frame.id);
      }
    }
  }

  /** One request to the parent at a time: send, then wait for its reply on the same socket. */
  #ask(body: { type: string; [k: string]: unknown }, waitMs = PARENT_ANSWER_MS): Promise<Message> {
    const run = this.#queue.then(() => this.#askNow(body, waitMs));
    this.#queue = run.then(() => {}, () => {});
    return run;
  }

  async #askNow(body: { type: string; [k: string]: unknown }, waitMs: number): Promise<Message> {
    const to = this.parentName;
    const s = this.child;
    if (!to || !s || s.kind !== "datagram") throw new Error("this process has no parent");
    if (this.#broken) throw new Error("the parent stopped answering");
    const conn = s.socket as Deno.DatagramConn;
    const id = this.#nextId++;
    try {
      await this.#send(conn, to, { id, ...body });
    } catch (e) {
      throw new Error(
        `unable to reach the parent process on hot restart socket ${to}: no process of the ` +
          "previous restart epoch listens there (same --base-id and --socket-path?): " +
          (e instanceof Error ? e.message : String(e)),
      );
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        this.#broken = true;
        reject(
          new Error(
            `the parent process did not answer '${body.type}' within ${waitMs} ms on ${to}`,
          ),
        );
      }, waitMs);
    });
    try {
      for (;;) {
        const m = await Promise.race([this.#next(conn), timeout]);
        if (m === null) throw new Error("hot restart socket closed");
        if (m.type !== "reply" || m.id !== id) continue;
        if (m.error) throw new Error(String(m.error));
        return m;
      }
    } finally {
      clearTimeout(timer);
    }
  }

  /** Answers the child's messages on this process's own socket, one at a time. */
  async #serveLoop(s: HotRestartSocket): Promise<void> {
    if (s.kind !== "datagram") return;
    const conn = s.socket as Deno.DatagramConn;
    for (;;) {
      const m = await this.#next(conn);
      if (m === null) return;
      if (m.type === "reply") continue;
      await this.#answer(conn, m);
    }
  }

  /** Answers one message (`terminate`: once {@linkcode handOver} has the last stats). */
  async #answer(conn: Deno.DatagramConn, m: Message): Promise<void> {
    const h = this.#handlers;
    const reply: Message = { id: m.id, type: "reply" };
    let sent = () => {};
    try {
      if (!h) throw new Error("this process is not ready to hand over yet");
      if (m.type === "hello") reply.info = h.info();
      else if (m.type === "drain") await h.drain(pinsOf(m.pins));
      else if (m.type === "stats") reply.stats = h.stats();
      else if (m.type === "terminate") {
        if (!this.#handedOver && !this.#terminating) {
          const last = Promise.withResolvers<ParentStats | null>();
          const done = Promise.withResolvers<void>();
          this.#terminating = { last: last.resolve, sent: done.promise };
          sent = done.resolve;
          h.terminate();
          reply.stats = await last.promise;
        }
      } else throw new Error(`unknown message type '${m.type}'`);
    } catch (e) {
      reply.error = e instanceof Error ? e.message : String(e);
    }
    // The child's socket: same id as ours, role "child", the next epoch.
    const to = this.ownChildName.replace(
      /_child_(\d+)$/,
      (_m, n) => `_child_${childId(Number(n))}`,
    );
    await this.#send(conn, to, reply).catch(() => {});
    sent();
  }
}

/** The socket id of the next epoch (`base_id*10 + (epoch+1)%3`). */
function childId(ownId: number): number {
  const base = Math.floor(ownId / 10) * 10;
  return base + ((ownId % 10) + 1) % 3;
}

/** The well-formed pins of a `drain` message (none when absent). */
function pinsOf(v: unknown): ReuseportPin[] {
  if (!Array.isArray(v)) return [];
  return v.filter((p): p is ReuseportPin =>
    typeof p?.address === "string" && Number.isInteger(p?.port) && Number.isInteger(p?.index) &&
    p.index >= 0
  ).map((p) => ({ address: p.address, port: p.port, index: p.index }));
}
