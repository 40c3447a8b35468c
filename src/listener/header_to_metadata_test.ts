import assert from "node:assert/strict";
import type { JsonObject } from "../config/bootstrap_types.ts";
import type { Errors } from "../config/config_values.ts";
import { testCluster } from "../upstream/test_cluster.ts";
import { httpListener, rawExchange, startTestProxy, type TestProxy } from "./test_proxy.ts";
import { namedOrigin, routeAllTo } from "./test_origins.ts";
import { HEADER_TO_METADATA } from "../filters/header_to_metadata_filter.ts";

const TYPE = "type.googleapis.com/envoy.extensions.filters.http.header_to_metadata.v3.Config";
const NS = "envoy.filters.http.header_to_metadata";

/** The filter (selected by its type under any name) with `config`, then the router. */
const filters = (config: JsonObject): JsonObject[] => [
  { name: "h2m", typed_config: { "@type": TYPE, ...config } },
  { name: "envoy.filters.http.router" },
];

/** An origin that answers the request headers it got as JSON, with two response headers. */
function echoOrigin(): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (r) => {
    await r.body?.cancel();
    return Response.json(Object.fromEntries(r.headers), {
      headers: { "x-backend": "b1", "x-keep": "k" },
    });
  });
}

interface Harness {
  p: TestProxy;
  /** Sends a request with `headers`; answers the response and the access log lines it added. */
  get(
    headers: Record<string, string>,
    path?: string,
  ): Promise<{ res: Response; seen: Record<string, string>; text: string; json: JsonObject }>;
  /** Sends `head` (a whole HTTP/1.1 request head) as bytes; answers the text log line. */
  raw(head: string): Promise<string>;
}

/** Runs `fn` with a proxy whose filter is `config` and whose access logs use `text` and `json`. */
async function withProxy(
  config: JsonObject,
  text: string,
  json: JsonObject,
  fn: (h: Harness) => Promise<void>,
  routes: JsonObject = routeAllTo("echo"),
): Promise<void> {
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
    fileLog("text.log", { text_format: text + "\n" }),
    fileLog("json.log", { json_format: json }),
  ];
  const o = echoOrigin();
  const p = await startTestProxy(
    [httpListener(routes, { access_log }, filters(config))],
    [testCluster("echo", [["127.0.0.1", o.addr.port]])],
    { fileFlushIntervalMs: 0 },
  );
  let n = 0;
  const line = async (name: string) => {
    for (let i = 0; i < 200; i++) {
      const lines = (await Deno.readTextFile(`${dir}/${name}`).catch(() => "")).split("\n");
      if (lines.length > n + 1) return lines[n];
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`no access log line ${n} in ${name}`);
  };
  try {
    await fn({
      p,
      async get(headers, path = "/") {
        const res = await fetch(`http://127.0.0.1:${p.port()}${path}`, { headers });
        const seen = await res.json();
        const text = await line("text.log");
        const json = JSON.parse(await line("json.log"));
        n++;
        return { res, seen, text, json };
      },
      async raw(head) {
        await rawExchange(p.port(), head);
        const text = await line("text.log");
        n++;
        return text;
      },
    });
  } finally {
    await p.close();
    await o.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
}

const rule = (header: string, present: JsonObject | null, more: JsonObject = {}): JsonObject => ({
  header,
  ...(present ? { on_header_present: present } : {}),
  ...more,
});

Deno.test("HttpFilter.name header_to_metadata: a request header becomes dynamic metadata that %DYNAMIC_METADATA(NS:KEY)% logs; a missing header gets on_header_missing's value; remove keeps it from the upstream", async () => {
  const config = {
    request_rules: [
      rule("x-user", { key: "user" }, {
        on_header_missing: { key: "user", value: "anonymous" },
        remove: true,
      }),
      rule("x-team", { metadata_namespace: "app", key: "team" }),
      rule("x-flag", { metadata_namespace: "app", key: "flag", value: "seen" }),
    ],
  };
  const text = `%DYNAMIC_METADATA(${NS}:user)% %DYNAMIC_METADATA(app:team)% ` +
    "%DYNAMIC_METADATA(app:flag)% %DYNAMIC_METADATA(app)% %DYNAMIC_METADATA(app):12% " +
    "%DYNAMIC_METADATA(none)% %DYNAMIC_METADATA(app:none)% %DYNAMIC_METADATA(app:team:x)%";
  const json = { user: `%DYNAMIC_METADATA(${NS}:user)%`, app: "%DYNAMIC_METADATA(app)%" };
  await withProxy(config, text, json, async ({ get, raw }) => {
    const a = await get({ "x-user": "alice", "x-team": "blue", "x-flag": "anything" });
    assert.equal(
      a.text,
      'alice blue seen {"team":"blue","flag":"seen"} {"team":"blu - - -',
    );
    assert.deepEqual(a.json, { user: "alice", app: { team: "blue", flag: "seen" } });
    assert.equal(a.seen["x-user"], undefined, "remove: the upstream does not get the header");
    assert.equal(a.seen["x-team"], "blue");

    const b = await get({});
    assert.equal(b.text, "anonymous - - - - - - -");
    assert.deepEqual(b.json, { user: "anonymous", app: null });

    // Repeated fields are joined with ",", as Envoy's getAllOfHeaderAsString.
    const c = await raw(
      "GET / HTTP/1.1\r\nhost: h\r\nx-team: a\r\nx-team: b\r\nconnection: close\r\n\r\n",
    );
    assert.match(c, /^anonymous a,b /);
    // An empty header value adds nothing.
    const d = await get({ "x-team": "" });
    assert.match(d.text, /^anonymous - /);
  });
});

Deno.test("HttpFilter.name header_to_metadata: NUMBER, BASE64, regex_value_rewrite, cookies and PROTOBUF_VALUE as Envoy reads them", async () => {
  const pb = (bytes: number[]) => btoa(String.fromCharCode(...bytes));
  const config = {
    request_rules: [
      rule("x-count", { metadata_namespace: "app", key: "count", type: "NUMBER" }),
      rule("x-b64", { metadata_namespace: "app", key: "decoded", encode: "BASE64" }),
      rule("x-version", {
        metadata_namespace: "app",
        key: "major",
        regex_value_rewrite: { pattern: { regex: "^v(\\d+)\\..*$" }, substitution: "\\1" },
      }),
      { cookie: "session", on_header_present: { metadata_namespace: "app", key: "session" } },
      rule("x-pb", {
        metadata_namespace: "app",
        key: "pb",
        type: "PROTOBUF_VALUE",
        encode: "BASE64",
      }),
    ],
  };
  const json = { app: "%DYNAMIC_METADATA(app)%", count: "%DYNAMIC_METADATA(app:count)%" };
  await withProxy(config, "%DYNAMIC_METADATA(app:count)%", json, async ({ get }) => {
    const a = await get({
      "x-count": " 42.5 ",
      "x-b64": btoa("héllo".replace(/é/, "\u00c3\u00a9")), // UTF-8 bytes of "héllo"
      "x-version": "v2.7.1",
      cookie: 'a=1; session="s-123"',
      "x-pb": pb([0x1a, 2, 0x68, 0x69]), // google.protobuf.Value{string_value: "hi"}
    });
    assert.equal(a.text, "42.5");
    assert.deepEqual(a.json, {
      app: { count: 42.5, decoded: "héllo", major: "2", session: "s-123", pb: "hi" },
      count: 42.5,
    });
    // A list value (ListValue{values: [string_value "h"]}), base64 without its padding.
    const list = pb([0x32, 5, 0x0a, 3, 0x1a, 1, 0x68]);
    assert.ok(list.endsWith("="));
    const b = await get({ "x-pb": list.replace(/=+$/, "") });
    assert.deepEqual(b.json, { app: { pb: ["h"] }, count: null });
    // What does not parse adds nothing: not a number, not base64 (a bad character, a length
    // that leaves one character over, non-zero trailing bits), not a serialized Value; an
    // empty cookie.
    const bad: Record<string, string>[] = [
      { "x-count": "0x10" },
      { "x-count": "12abc" },
      { "x-b64": "aGk*" },
      { "x-b64": "aGlsb" },
      { "x-b64": "aGl" },
      { "x-pb": pb([0x66, 0x6f, 0x6f]) },
      { "x-pb": pb([0x1a, 5, 0x68]) },
      { cookie: "session=" },
    ];
    for (const h of bad) {
      const r = await get(h);
      assert.deepEqual(r.json, { app: null, count: null }, JSON.stringify(h));
    }
    const c = await get({ "x-count": "+1e3", "x-b64": "aGk" });
    assert.deepEqual(c.json, { app: { count: 1000, decoded: "hi" }, count: 1000 });
    // A rewrite without a match leaves the value as it is.
    const d = await get({ "x-version": "latest" });
    assert.deepEqual(d.json.app, { major: "latest" });
  });
});

Deno.test("HttpFilter.name header_to_metadata: a value of 8 KiB or more is not added (Envoy's MAX_HEADER_VALUE_LEN); stat_prefix counts Envoy's counters", async () => {
  const config = {
    stat_prefix: "meta",
    request_rules: [
      rule("x-big", { key: "big" }),
      rule("x-b64", { key: "b64", encode: "BASE64" }),
      rule("x-need", null, { on_header_missing: { key: "need", value: "no" } }),
      rule("x-strip", {
        key: "strip",
        regex_value_rewrite: { pattern: { regex: ".*" }, substitution: "" },
      }),
    ],
    response_rules: [rule("x-backend", { key: "backend" })],
  };
  await withProxy(config, `%DYNAMIC_METADATA(${NS}:big)%`, {}, async ({ get, p }) => {
    assert.equal((await get({ "x-big": "a".repeat(8191) })).text, "a".repeat(8191));
    assert.equal((await get({ "x-big": "a".repeat(8192) })).text, "-");
    await get({ "x-b64": "!!", "x-need": "1", "x-strip": "gone" });
    const c = (n: string) => p.store.counter(`http_filter_name.meta.${n}`).value();
    assert.equal(c("request_rules_processed"), 12);
    assert.equal(c("request_metadata_added"), 3, "big once, need twice");
    assert.equal(c("request_header_not_found"), 2);
    assert.equal(c("header_value_too_long"), 1);
    assert.equal(c("base64_decode_failed"), 1);
    assert.equal(c("regex_substitution_failed"), 1, "a rewrite that leaves nothing");
    assert.equal(c("response_rules_processed"), 3);
    assert.equal(c("response_metadata_added"), 3);
    assert.equal(c("response_header_not_found"), 0);
  });
});

Deno.test("HttpFilter.name header_to_metadata: response_rules read the response headers, and remove keeps one from the client", async () => {
  const config = {
    response_rules: [
      rule("x-backend", { metadata_namespace: "resp", key: "backend" }, { remove: true }),
      rule(":status", { metadata_namespace: "resp", key: "status", type: "NUMBER" }),
      rule("x-absent", null, {
        on_header_missing: { metadata_namespace: "resp", key: "absent", value: "1" },
      }),
    ],
  };
  await withProxy(config, "%DYNAMIC_METADATA(resp)%", {}, async ({ get }) => {
    const r = await get({});
    assert.equal(r.text, '{"backend":"b1","status":200,"absent":"1"}');
    assert.equal(r.res.headers.get("x-backend"), null);
    assert.equal(r.res.headers.get("x-keep"), "k");
  });
});

Deno.test("HttpFilter.name header_to_metadata: a route's typed_per_filter_config replaces the filter's rules", async () => {
  const routes: JsonObject = {
    name: "rc",
    virtual_hosts: [{
      name: "main",
      domains: ["*"],
      routes: [
        {
          match: { prefix: "/special" },
          route: { cluster: "echo" },
          typed_per_filter_config: {
            "envoy.filters.http.header_to_metadata": {
              "@type": TYPE,
              request_rules: [rule("x-user", { key: "special" })],
            },
          },
        },
        { match: { prefix: "/" }, route: { cluster: "echo" } },
      ],
    }],
  };
  const config = { request_rules: [rule("x-user", { key: "user" })] };
  const json = { all: `%DYNAMIC_METADATA(${NS})%` };
  await withProxy(config, "-", json, async ({ get }) => {
    assert.deepEqual((await get({ "x-user": "a" })).json, { all: { user: "a" } });
    assert.deepEqual((await get({ "x-user": "a" }, "/special")).json, { all: { special: "a" } });
  }, routes);
});

Deno.test("cluster.fields.lb-subset-config: envoy.lb dynamic metadata from header_to_metadata selects the subset (Envoy's documented example), over the route's metadata_match", async () => {
  const origins = [namedOrigin("v1"), namedOrigin("v2"), namedOrigin("default")];
  const c = testCluster("svc", origins.map((o) => ["127.0.0.1", o.addr.port]), {
    config: {
      name: "svc",
      lb_subset_config: {
        fallback_policy: "ANY_ENDPOINT",
        subset_selectors: [{ keys: ["default"] }, { keys: ["version"] }],
      },
    },
  });
  const meta: JsonObject[] = [{ version: "v1" }, { version: "v2" }, { default: "true" }];
  c.hosts.forEach((h, i) => h.metadata = meta[i]);
  const routes: JsonObject = {
    name: "rc",
    virtual_hosts: [{
      name: "main",
      domains: ["*"],
      routes: [
        {
          match: { prefix: "/pinned" },
          route: {
            cluster: "svc",
            metadata_match: { filter_metadata: { "envoy.lb": { version: "v2" } } },
          },
        },
        { match: { prefix: "/" }, route: { cluster: "svc" } },
      ],
    }],
  };
  const config = {
    request_rules: [{
      header: "x-version",
      on_header_present: { metadata_namespace: "envoy.lb", key: "version", type: "STRING" },
      on_header_missing: {
        metadata_namespace: "envoy.lb",
        key: "default",
        value: "true",
        type: "STRING",
      },
      remove: false,
    }],
  };
  const p = await startTestProxy([httpListener(routes, {}, filters(config))], [c]);
  try {
    const seen = async (path: string, headers: Record<string, string>) => {
      const out = new Set<string>();
      for (let i = 0; i < 6; i++) {
        const r = await fetch(`http://127.0.0.1:${p.port()}${path}`, { headers });
        out.add(await r.text());
      }
      return [...out].sort();
    };
    assert.deepEqual(await seen("/", { "x-version": "v1" }), ["v1"]);
    assert.deepEqual(await seen("/", { "x-version": "v2" }), ["v2"]);
    assert.deepEqual(await seen("/", {}), ["default"]);
    // The request's metadata overrides the route's criteria key by key.
    assert.deepEqual(await seen("/pinned", { "x-version": "v1" }), ["v1"]);
    assert.equal(p.store.counter("cluster.svc.lb_subsets.selected").value(), 24);
  } finally {
    await p.close();
    for (const o of origins) await o.shutdown();
  }
});

Deno.test("HttpFilter.name header_to_metadata: configurations Envoy rejects, and fields this build does not take, are refused with their paths", async () => {
  const parse = (c: unknown, perRoute = false) => {
    const errors: Errors = [];
    if (perRoute) HEADER_TO_METADATA.parsePerRoute!(c as JsonObject, "f", errors);
    else HEADER_TO_METADATA.parse(c as JsonObject, "f", errors);
    return errors.map((e) => `${e.path}: ${e.message}`);
  };
  const rules = (...r: JsonObject[]): JsonObject => ({ request_rules: r });
  const kv = { key: "k" };
  assert.deepEqual(parse(rules({ header: "a", cookie: "b", on_header_present: kv })), [
    "f.request_rules[0]: Cannot specify both header and cookie in the same rule",
  ]);
  assert.deepEqual(parse(rules({ on_header_present: kv })), [
    "f.request_rules[0]: One of Cookie or Header option needs to be specified",
  ]);
  assert.deepEqual(parse(rules({ header: "x-a" })), [
    "f.request_rules[0]: header to metadata filter: rule for header 'x-a' has neither " +
    "`on_header_present` nor `on_header_missing` set",
  ]);
  assert.deepEqual(parse(rules({ cookie: "c", on_header_present: kv, remove: true })), [
    "f.request_rules[0].remove: Cannot specify remove for cookie",
  ]);
  assert.deepEqual(parse(rules({ header: "a", on_header_missing: kv })), [
    "f.request_rules[0].on_header_missing.value: Cannot specify on_header_missing rule with an " +
    "empty value",
  ]);
  const rw = { pattern: { regex: "a" }, substitution: "b" };
  assert.deepEqual(
    parse(
      rules({ header: "a", on_header_present: { ...kv, value: "v", regex_value_rewrite: rw } }),
    ),
    [
      "f.request_rules[0].on_header_present.regex_value_rewrite: Cannot specify both value and " +
      "regex_value_rewrite",
    ],
  );
  assert.match(
    parse(
      rules({ header: "a", on_header_missing: { ...kv, value: "v", regex_value_rewrite: rw } }),
    )[0],
    /^f\.request_rules\[0\]\.on_header_missing\.regex_value_rewrite: regex_value_rewrite is not supported by this build/,
  );
  assert.deepEqual(parse(rules({ header: "a", on_header_present: {} })), [
    "f.request_rules[0].on_header_present.key: key is required (min_len 1)",
  ]);
  assert.deepEqual(parse(rules({ header: "a", on_header_present: { ...kv, type: "BOOL" } })), [
    'f.request_rules[0].on_header_present.type: unknown value "BOOL" (one of STRING, NUMBER, ' +
    "PROTOBUF_VALUE)",
  ]);
  assert.deepEqual(parse(rules({ header: "a", on_header_present: { ...kv, encode: 2 } })), [
    "f.request_rules[0].on_header_present.encode: unknown value 2 (one of NONE, BASE64)",
  ]);
  assert.deepEqual(parse(rules({ header: "a\nb", on_header_present: kv })), [
    'f.request_rules[0].header: invalid header name "a\\nb"',
  ]);
  assert.deepEqual(parse(rules({ header: ":path", on_header_present: kv, remove: true })), [
    "f.request_rules[0].remove: pseudo-headers are not removed",
  ]);
  assert.deepEqual(parse({ response_rules: [{ header: ":path", on_header_present: kv }] }), [
    "f.response_rules[0].header: no such pseudo-header",
  ]);
  assert.deepEqual(parse(rules({ header: "a", on_header_present: { ...kv, extra: 1 } })), [
    "f.request_rules[0].on_header_present.extra: extra is not supported by this build",
  ]);
  assert.deepEqual(parse({}), []);
  assert.deepEqual(parse({}, true), [
    "f: header_to_metadata_filter: Per filter configs must at least specify either request or " +
    "response rules",
  ]);
  assert.deepEqual(parse({ request_rules: "x" }), ["f.request_rules: must be a list"]);
  // A bad rule stops the listener with its path, under any filter name.
  const bad = httpListener(routeAllTo("echo"), {}, filters(rules({ header: "a" })));
  await assert.rejects(
    startTestProxy([bad], [testCluster("echo", [["127.0.0.1", 9]])]),
    /http_filters\[0\]\.typed_config\.request_rules\[0\]: header to metadata filter/,
  );
});

Deno.test("HttpFilter.name header_to_metadata with an access log metadata_filter: only requests whose metadata matches are logged", async () => {
  const dir = await Deno.makeTempDir();
  const access_log = [{
    name: "envoy.access_loggers.file",
    filter: {
      metadata_filter: {
        matcher: {
          filter: "app",
          path: [{ key: "tier" }],
          value: { string_match: { exact: "gold" } },
        },
        match_if_key_not_found: false,
      },
    },
    typed_config: {
      "@type": "type.googleapis.com/envoy.extensions.access_loggers.file.v3.FileAccessLog",
      path: `${dir}/gold.log`,
      log_format: { text_format: "%REQ(:PATH)% %DYNAMIC_METADATA(app:tier)%\n" },
    },
  }];
  const config = { request_rules: [rule("x-tier", { metadata_namespace: "app", key: "tier" })] };
  const o = namedOrigin("o");
  const p = await startTestProxy(
    [httpListener(routeAllTo("echo"), { access_log }, filters(config))],
    [testCluster("echo", [["127.0.0.1", o.addr.port]])],
    { fileFlushIntervalMs: 0 },
  );
  try {
    const get = async (path: string, headers: Record<string, string>) => {
      const r = await fetch(`http://127.0.0.1:${p.port()}${path}`, { headers });
      await r.body?.cancel();
    };
    await get("/a", { "x-tier": "gold" });
    await get("/b", { "x-tier": "silver" });
    await get("/c", {});
    await get("/d", { "x-tier": "gold" });
    let log = "";
    for (let i = 0; i < 200 && log.split("\n").length < 3; i++) {
      log = await Deno.readTextFile(`${dir}/gold.log`).catch(() => "");
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.equal(log, "/a gold\n/d gold\n");
  } finally {
    await p.close();
    await o.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("HttpFilter.name header_to_metadata: a route's request_headers_to_add formats %DYNAMIC_METADATA(...)% from the metadata the filter wrote", async () => {
  const routes: JsonObject = {
    name: "rc",
    virtual_hosts: [{
      name: "main",
      domains: ["*"],
      routes: [{
        match: { prefix: "/" },
        route: { cluster: "echo" },
        request_headers_to_add: [{
          header: { key: "x-team-meta", value: "%DYNAMIC_METADATA(app:team)%" },
        }],
      }],
    }],
  };
  const config = { request_rules: [rule("x-team", { metadata_namespace: "app", key: "team" })] };
  await withProxy(config, "-", {}, async ({ get }) => {
    assert.equal((await get({ "x-team": "red" })).seen["x-team-meta"], "red");
    assert.equal((await get({})).seen["x-team-meta"], undefined, "an empty value adds no header");
  }, routes);
});

Deno.test("HttpFilter.name header_to_metadata: local_reply_config mappers filter on the dynamic metadata (metadata_filter) and body formats show it", async () => {
  const routes: JsonObject = {
    name: "rc",
    virtual_hosts: [{
      name: "main",
      domains: ["*"],
      routes: [{ match: { prefix: "/only" }, route: { cluster: "echo" } }],
    }],
  };
  const local_reply_config = {
    mappers: [{
      filter: {
        metadata_filter: {
          matcher: {
            filter: "app",
            path: [{ key: "tier" }],
            value: { string_match: { exact: "gold" } },
          },
          match_if_key_not_found: false,
        },
      },
      status_code: 418,
    }],
    body_format: { text_format: "%DYNAMIC_METADATA(app:tier)% %RESPONSE_CODE%" },
  };
  const config = { request_rules: [rule("x-tier", { metadata_namespace: "app", key: "tier" })] };
  const o = namedOrigin("o");
  const p = await startTestProxy(
    [httpListener(routes, { local_reply_config }, filters(config))],
    [testCluster("echo", [["127.0.0.1", o.addr.port]])],
  );
  try {
    const get = async (headers: Record<string, string>) => {
      const r = await fetch(`http://127.0.0.1:${p.port()}/x`, { headers });
      return `${r.status} ${await r.text()}`;
    };
    assert.equal(await get({ "x-tier": "gold" }), "418 gold 418");
    assert.equal(await get({ "x-tier": "silver" }), "404 silver 404");
    assert.equal(await get({}), "404 - 404");
  } finally {
    await p.close();
    await o.shutdown();
  }
});
