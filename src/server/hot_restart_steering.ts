/**
 * The child's side of steering a hot restart's new connections (`src/platform/reuseport_steering.ts`):
 * once its listeners are bound, for each listening address it shares with its parent it counts
 * its own sockets (C) and the group's (from `/proc/net/tcp{,6}`); the parent's are the first
 * P = group - C, since they joined before. It attaches a program that sends every new
 * connection to one of its own (P + random mod C), so the parent's accept queues get nothing
 * new and empty while the parent keeps accepting through its drain, and it asks the parent
 * (`drain` message, `pins`) to pin the group to index P just before the parent's sockets close
 * (only with C >= P: see the platform module). Once the group holds only its own sockets, it
 * detaches the program and the kernel's hash spreads new connections over its workers again.
 *
 * Where a step fails (no FFI, not Linux, an old kernel) it logs a warning and that listener
 * behaves as without steering: connections waiting in the parent's accept queues when its
 * sockets close are reset unless `net.ipv4.tcp_migrate_req` is 1.
 *
 * @example Not run: it needs a parent process sharing the listeners' ports.
 * ```ts ignore
 * const steering = ChildSteering.start(server.listeners.listeners(), log);
 * await hr.drainParent(steering.pins);
 * steering.release(); // every second: detaches groups the parent has left
 * steering.release(true); // once the parent has exited
 * ```
 * @module
 */
import {
  attachProgram,
  detachProgram,
  groupSize,
  listeningDescriptors,
  type ReuseportPin,
  spreadProgram,
} from "../platform/reuseport_steering.ts";
import { tcpMigrateReq } from "../platform/tcp_migrate_req.ts";
import { libc } from "../platform/libc.ts";
import { hostPort } from "../upstream/host.ts";
import type { GroupAddress } from "../platform/reuseport_steering.ts";

/** One group this process steers to its own sockets. */
type Steered = GroupAddress;

/** The child's steering of every listener it shares with its parent. */
export class ChildSteering {
  readonly #steered: Steered[] = [];
  /** Pins the parent applies before closing its sockets (groups where C >= P). */
  readonly pins: ReuseportPin[] = [];

  private constructor(readonly log: (level: string, msg: string) => void) {}

  /** Steers each of `listeners`' addresses that the parent listens on too. */
  static start(
    listeners: readonly GroupAddress[],
    log: (level: string, msg: string) => void,
  ): ChildSteering {
    const s = new ChildSteering(log);
    const seen = new Set<string>();
    let unprotected = false;
    if (Deno.build.os === "linux" && libc() === null && listeners.length > 0) {
      log(
        "warning",
        "hot restart: cannot steer new connections to this process's sockets: the C library " +
          "cannot be used (FFI permission, or no libc.so.6)",
      );
      unprotected = true;
      listeners = [];
    }
    for (const { address, port } of listeners) {
      const where = hostPort(address, port);
      if (seen.has(where)) continue;
      seen.add(where);
      const fds = listeningDescriptors(address, port);
      const size = groupSize(address, port);
      if (fds.length === 0 || size === null) {
        // Not a TCP listener, or sockets this build cannot see (no FFI, not Linux).
        if (Deno.build.os === "linux") {
          log("warning", `hot restart: cannot steer ${where} (its sockets cannot be found)`);
          unprotected = true;
        }
        continue;
      }
      const own = fds.length;
      const parent = size - own;
      if (parent <= 0) continue; // a listener the parent does not have
      const r = attachProgram(fds[0], spreadProgram(parent, own));
      if (!r.ok) {
        log("warning", `hot restart: cannot steer ${where}: ${r.reason}`);
        unprotected = true;
        continue;
      }
      s.#steered.push({ address, port });
      log(
        "info",
        `hot restart: new connections to ${where} go to this process's ${own} sockets; the ` +
          `parent's ${parent} keep accepting until its drain ends`,
      );
      if (own >= parent) s.pins.push({ address, port, index: parent });
      else {
        log(
          "warning",
          `hot restart: ${where} has fewer sockets here (${own}) than in the parent (${parent}): ` +
            "connections arriving while the parent's sockets close may be reset",
        );
        unprotected = true;
      }
    }
    if (unprotected && tcpMigrateReq() === false) {
      log(
        "info",
        "hot restart: net.ipv4.tcp_migrate_req is 0, so connections still waiting in the " +
          "parent's accept queues when its listeners close are reset; with 1 the kernel moves " +
          "them to this process's listeners",
      );
    }
    return s;
  }

  /** How many groups are still steered. */
  get steering(): number {
    return this.#steered.length;
  }

  /**
   * Detaches the program of every group that holds only this process's sockets again (all of
   * them with `all`, once the parent has exited).
   */
  release(all = false): void {
    for (const g of [...this.#steered]) {
      const fds = listeningDescriptors(g.address, g.port);
      if (!all && fds.length > 0 && groupSize(g.address, g.port) !== fds.length) continue;
      this.#steered.splice(this.#steered.indexOf(g), 1);
      if (fds.length === 0) continue; // this process no longer listens there
      const r = detachProgram(fds[0]);
      const where = hostPort(g.address, g.port);
      if (r.ok) {
        this.log("info", `hot restart: the parent left ${where}; new connections spread again`);
      } else this.log("warning", `hot restart: cannot stop steering ${where}: ${r.reason}`);
    }
  }
}
