import assert from "node:assert/strict";
import { checkAddress } from "./lds_update.ts";
import { parseListeners } from "./validate_listeners.ts";
import type { ListenerSpec } from "./listener_config.ts";
import type { ListenerView } from "./types.ts";

/** The spec of a TCP proxy listener `name` on 127.0.0.1:`port`. */
function spec(name: string, port: number): ListenerSpec {
  const { specs, errors } = parseListeners(
    [{
      name,
      address: { socket_address: { address: "127.0.0.1", port_value: port } },
      filter_chains: [{
        filters: [{
          name: "envoy.filters.network.tcp_proxy",
          typed_config: { stat_prefix: name, cluster: "c" },
        }],
      }],
    }],
    "resources",
    null,
  );
  assert.deepEqual(errors, []);
  return specs[0];
}

/** A live listener view of `s` (from LDS with `lds`). */
function view(s: ListenerSpec, lds = false): ListenerView {
  return {
    name: s.name,
    address: s.address,
    port: s.port,
    direction: s.direction,
    config: s.config,
    stopped: false,
    ...(lds ? { apiUpdate: { version_info: "1", last_updated: "" } } : {}),
  };
}

Deno.test("cli.options.concurrency: an LDS listener on an address another socket holds is refused before the update applies, in Envoy's words", () => {
  const held = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (held.addr as Deno.NetAddr).port;
  try {
    const s = spec("busy", port);
    const r = checkAddress(s, [], new Map([["busy", s]]), true);
    assert.match(
      String(r),
      new RegExp(`^listener 'busy': cannot bind '127\\.0\\.0\\.1:${port}': `),
    );
  } finally {
    held.close();
  }
});

Deno.test("cli.options.concurrency: an LDS listener takes the address of its own older version or of a listener the update moves, but not that of another listener that keeps it", () => {
  const held = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (held.addr as Deno.NetAddr).port;
  try {
    const s = spec("a", port);
    // Its own older version holds the address: not tried (it binds beside it).
    assert.equal(checkAddress(s, [view(spec("a", port), true)], new Map([["a", s]]), true), port);
    // Another LDS listener held it and moves elsewhere in the same update: free.
    const moved = spec("b", 0);
    const live = [view(spec("b", port), true)];
    assert.equal(checkAddress(s, live, new Map([["a", s], ["b", moved]]), true), port);
    // A static listener keeps it: refused.
    assert.match(
      String(checkAddress(s, [view(spec("b", port))], new Map([["a", s]]), true)),
      /listener 'b' has duplicate address as existing listener/,
    );
  } finally {
    held.close();
  }
});
