import assert from "node:assert/strict";
import type { JsonObject } from "../config/bootstrap_types.ts";
import type { Errors } from "../config/config_values.ts";
import { testCluster } from "../upstream/test_cluster.ts";
import { httpListener, startTestProxy } from "./test_proxy.ts";
import { namedOrigin } from "./test_origins.ts";
import { SET_FILTER_STATE } from "../filters/set_filter_state_filter.ts";

const TYPE = "type.googleapis.com/envoy.extensions.filters.http.set_filter_state.v3.Config";

/** A `FilterStateValue` storing `format` under key `user`. */
const value = (format: string, over: JsonObject = {}): JsonObject => ({
  object_key: "user",
  factory_key: "envoy.hashable_string",
  format_string: { text_format_source: { inline_string: format } },
  ...over,
});

/** The HTTP filters: set_filter_state with `values` (by its type, under any name), then router. */
const filters = (values: JsonObject[]): JsonObject[] => [
  { name: "state", typed_config: { "@type": TYPE, on_request_headers: values } },
  { name: "envoy.filters.http.router" },
];

/** Every path to the RING_HASH cluster `ring`, hashed by the filter-state object `user`. */
const routes: JsonObject = {
  name: "rc",
  virtual_hosts: [{
    name: "main",
    domains: ["*"],
    routes: [{
      match: { prefix: "/" },
      route: { cluster: "ring", hash_policy: [{ filter_state: { key: "user" } }] },
    }],
  }],
};

/**
 * Runs `fn` with a proxy whose listener has `values`, in front of a RING_HASH cluster of two
 * origins `a` and `b`; `get` answers the origin's name.
 */
async function withProxy(
  values: JsonObject[],
  fn: (get: (h: Record<string, string>) => Promise<string>) => Promise<void>,
  hcm: JsonObject = {},
): Promise<void> {
  const a = namedOrigin("a");
  const b = namedOrigin("b");
  const p = await startTestProxy([httpListener(routes, hcm, filters(values))], [
    testCluster("ring", [["127.0.0.1", a.addr.port], ["127.0.0.1", b.addr.port]], {
      lbPolicy: "RING_HASH",
    }),
  ], { fileFlushIntervalMs: 0 });
  try {
    await fn(async (headers) => {
      const r = await fetch(`http://127.0.0.1:${p.port()}/`, { headers });
      return await r.text();
    });
  } finally {
    await p.close();
    await a.shutdown();
    await b.shutdown();
  }
}

/** The origins `n` requests with `headers` reached. */
async function reached(
  get: (h: Record<string, string>) => Promise<string>,
  headers: Record<string, string>,
  n: number,
): Promise<Set<string>> {
  const seen = new Set<string>();
  for (let i = 0; i < n; i++) seen.add(await get(headers));
  return seen;
}

Deno.test("cluster.enums.lb-policy: RING_HASH by route hash_policy filter_state: an envoy.hashable_string object set from a header keeps each user on one origin, and users spread", async () => {
  await withProxy([value("%REQ(x-user)%")], async (get) => {
    const firsts = new Set<string>();
    for (let u = 0; u < 16; u++) {
      const seen = await reached(get, { "x-user": `user-${u}` }, 4);
      assert.equal(seen.size, 1, `user-${u} reached ${[...seen]}`);
      firsts.add([...seen][0]);
    }
    assert.deepEqual([...firsts].sort(), ["a", "b"]);
  });
});

Deno.test("cluster.enums.lb-policy: RING_HASH by route hash_policy filter_state: an envoy.string object has no hash, so the ring draws a random one per request", async () => {
  await withProxy([value("%REQ(x-user)%", { factory_key: "envoy.string" })], async (get) => {
    // 40 requests of one user all on one of two origins: probability 2^-39 with random hashes.
    assert.deepEqual([...await reached(get, { "x-user": "alice" }, 40)].sort(), ["a", "b"]);
  });
});

Deno.test("set_filter_state: a read_only object is not replaced by a later value under its key; skip_if_empty keeps the earlier one", async () => {
  const values = [
    value("%REQ(x-first)%", { read_only: true }),
    value("%REQ(x-second)%"),
  ];
  await withProxy(values, async (get) => {
    // The hash follows x-first whatever x-second says.
    for (let u = 0; u < 8; u++) {
      const seen = new Set<string>();
      for (let k = 0; k < 4; k++) {
        seen.add(await get({ "x-first": `u${u}`, "x-second": `other-${k}` }));
      }
      assert.equal(seen.size, 1);
    }
  });
  // A missing header formats as "-" unless the format omits empty values.
  const empty = {
    format_string: {
      text_format_source: { inline_string: "%REQ(x-missing)%" },
      omit_empty_values: true,
    },
  };
  const skipping = [value("%REQ(x-first)%"), value("", { ...empty, skip_if_empty: true })];
  await withProxy(skipping, async (get) => {
    const firsts = new Set<string>();
    for (let u = 0; u < 16; u++) {
      const seen = await reached(get, { "x-first": `u${u}` }, 3);
      assert.equal(seen.size, 1);
      firsts.add([...seen][0]);
    }
    assert.equal(firsts.size, 2, "the hash is x-first's, not the empty value's");
  });
  // Without skip_if_empty the empty value replaces it: every request hashes "".
  await withProxy([value("%REQ(x-first)%"), value("", empty)], async (get) => {
    const all = new Set<string>();
    for (let u = 0; u < 16; u++) all.add(await get({ "x-first": `u${u}` }));
    assert.equal(all.size, 1);
  });
});

Deno.test("set_filter_state: the stored objects show in access logs as %FILTER_STATE(KEY)% (JSON-quoted), :PLAIN and in JSON formats", async () => {
  const dir = await Deno.makeTempDir();
  const fileLog = (name: string, log_format: JsonObject) => ({
    name: "envoy.access_loggers.file",
    typed_config: {
      "@type": "type.googleapis.com/envoy.extensions.access_loggers.file.v3.FileAccessLog",
      path: `${dir}/${name}`,
      log_format,
    },
  });
  const access_log = [
    fileLog("text.log", {
      text_format: "%FILTER_STATE(user)% %FILTER_STATE(user:PLAIN)% %FILTER_STATE(user:PLAIN):2% " +
        "%FILTER_STATE(none)%\n",
    }),
    fileLog("json.log", {
      json_format: { typed: "%FILTER_STATE(user:TYPED)%", plain: "%FILTER_STATE(user:PLAIN)%" },
    }),
  ];
  const read = async (name: string) => {
    for (let i = 0; i < 100; i++) {
      const t = await Deno.readTextFile(`${dir}/${name}`).catch(() => "");
      if (t.endsWith("\n")) return t;
      await new Promise((r) => setTimeout(r, 20));
    }
    return "";
  };
  try {
    await withProxy([value("%REQ(x-user)%")], async (get) => {
      await get({ "x-user": 'al"ice' });
      assert.equal(await read("text.log"), '"al\\"ice" al"ice al -\n');
      assert.equal(await read("json.log"), '{"typed":"al\\"ice","plain":"al\\"ice"}\n');
    }, { access_log });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("set_filter_state: bad values are refused with their field path", () => {
  const parse = (values: unknown) => {
    const errors: Errors = [];
    SET_FILTER_STATE.parse({ on_request_headers: values } as JsonObject, "f", errors);
    return errors.map((e) => `${e.path}: ${e.message}`);
  };
  assert.deepEqual(parse([{ format_string: { text_format: "x" } }]), [
    "f.on_request_headers[0].object_key: object_key is required (a non-empty string)",
  ]);
  assert.deepEqual(parse([value("x", { factory_key: "envoy.tcp_proxy.cluster" })]), [
    "f.on_request_headers[0].factory_key: 'envoy.tcp_proxy.cluster' does not have an object " +
    "factory (this build has envoy.string, envoy.hashable_string)",
  ]);
  assert.deepEqual(parse([{ object_key: "k", format_string: { text_format: "x" } }]), [
    "f.on_request_headers[0].object_key: 'k' does not have an object factory (this build has " +
    "envoy.string, envoy.hashable_string)",
  ]);
  assert.match(
    parse([value("x", { shared_with_upstream: "TRANSITIVE" })])[0],
    /^f\.on_request_headers\[0\]\.shared_with_upstream: shared_with_upstream is not supported by this build/,
  );
  assert.deepEqual(parse([value("x", { read_only: "yes" })]), [
    "f.on_request_headers[0].read_only: must be a boolean",
  ]);
  assert.deepEqual(parse([{ object_key: "user", factory_key: "envoy.string" }]), [
    "f.on_request_headers[0].format_string: format_string is required",
  ]);
  assert.deepEqual(parse([value("%BOGUS%")]).length, 1);
  assert.deepEqual(parse("x"), ["f.on_request_headers: must be a list"]);
  assert.deepEqual(parse([value("x", { clear_route_cache: true })]), [
    "f.on_request_headers[0].clear_route_cache: clear_route_cache is not supported by this build",
  ]);
});

Deno.test("set_filter_state: selected by its typed config under any name; a bad value stops the listener with its path", async () => {
  const bad = httpListener(routes, {}, filters([value("x", { factory_key: "nope" })]));
  await assert.rejects(
    startTestProxy([bad], [testCluster("ring", [["127.0.0.1", 9]])]),
    /http_filters\[0\]\.typed_config\.on_request_headers\[0\]\.factory_key/,
  );
});
