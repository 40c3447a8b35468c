import assert from "node:assert/strict";
import fc from "fast-check";
import { MAX_HEADERS, parseRequestHead, responseHead, statusLine } from "./http1_codec.ts";
import { HeaderMap } from "./header_map.ts";

const TOKEN_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-.^_`|~";
const tokenArb = fc.array(fc.constantFrom(...TOKEN_CHARS), { minLength: 1, maxLength: 12 })
  .map((a) => a.join(""));
const lowerTokenArb = tokenArb.map((t) => t.toLowerCase());
/** Printable field value without leading/trailing whitespace (the codec trims it). */
const valueArb = fc.string({ maxLength: 20 })
  .map((s) => s.replace(/[^\x21-\x7e ]/g, "x").trim());
const pathArb = fc.array(fc.constantFrom(..."abcxyz019-._~!$&'()*+,;=:@/?%"), { maxLength: 20 })
  .map((a) => "/" + a.join(""));

const isTok = (s: string) => /^[A-Za-z0-9!#$%&'*+\-.^_`|~]+$/.test(s);
const isTarget = (s: string) => /^[\x21-\x7e]+$/.test(s);

/** Any string turned into one-byte characters, as the server hands heads to the parser. */
const latin1 = (s: string) =>
  Array.from(s, (ch) => String.fromCharCode((ch.codePointAt(0) ?? 0) & 0xff)).join("");

Deno.test("listener http1 codec: parseRequestHead never throws and yields an error or a token method and a target", () => {
  const check = (text: string) => {
    const h = parseRequestHead(text);
    if (h.error === null) {
      assert.ok(isTok(h.method), JSON.stringify(h.method));
      assert.ok(isTarget(h.path), JSON.stringify(h.path));
      assert.ok(h.path === "*" || h.path.startsWith("/"), h.path);
    } else {
      assert.ok(h.error.status === 400 || h.error.status === 431);
      assert.equal(h.keepAlive, false);
    }
  };
  fc.assert(fc.property(fc.string(), (s) => check(latin1(s))), { numRuns: 500 });
  fc.assert(fc.property(fc.fullUnicodeString(), (s) => check(latin1(s))), { numRuns: 500 });
  // Strings that start like a request, so the header parser is reached.
  fc.assert(
    fc.property(fc.string(), fc.string(), (a, b) => {
      check(latin1(`GET /${a} HTTP/1.1\r\nhost: h\r\n${b}`));
      check(latin1(`GET / HTTP/1.1\r\n${a}:${b}`));
    }),
    { numRuns: 500 },
  );
});

Deno.test("listener http1 codec: generated valid requests parse back to the same method, path and headers in order", () => {
  fc.assert(
    fc.property(
      tokenArb,
      pathArb,
      fc.array(fc.tuple(lowerTokenArb, valueArb), { maxLength: 20 }),
      (method, path, hs) => {
        const fields = hs.filter(([n]) =>
          !["host", "content-length", "transfer-encoding", "expect", "connection"].includes(n)
        );
        const all: [string, string][] = [["host", "example.test"], ...fields];
        const text = `${method} ${path} HTTP/1.1\r\n` +
          all.map(([n, v]) => `${n}: ${v}`).join("\r\n");
        const h = parseRequestHead(text);
        assert.equal(h.error, null);
        assert.equal(h.method, method);
        assert.equal(h.path, path);
        assert.equal(h.authority, "example.test");
        assert.deepEqual([...h.headers.entries()], all);
        assert.equal(h.keepAlive, true);
        assert.equal(h.contentLength, 0);
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("listener http1 codec: header names are lower-cased and mixed-case values kept", () => {
  const h = parseRequestHead("GET / HTTP/1.1\r\nHost: a\r\nX-Mixed-Case:  Value Kept \t");
  assert.equal(h.error, null);
  assert.deepEqual([...h.headers.entries()], [["host", "a"], ["x-mixed-case", "Value Kept"]]);
});

Deno.test("listener request smuggling: every ambiguous or malformed head shape is rejected with 400", () => {
  const shapes: Record<string, string> = {
    "cl+te": "POST / HTTP/1.1\r\nhost: a\r\ncontent-length: 5\r\ntransfer-encoding: chunked",
    "te+cl": "POST / HTTP/1.1\r\nhost: a\r\ntransfer-encoding: chunked\r\ncontent-length: 5",
    "two differing cl": "POST / HTTP/1.1\r\nhost: a\r\ncontent-length: 5\r\ncontent-length: 6",
    "cl list differing": "POST / HTTP/1.1\r\nhost: a\r\ncontent-length: 5, 6",
    "cl not a number": "POST / HTTP/1.1\r\nhost: a\r\ncontent-length: 5x",
    "cl negative": "POST / HTTP/1.1\r\nhost: a\r\ncontent-length: -1",
    "te gzip": "POST / HTTP/1.1\r\nhost: a\r\ntransfer-encoding: gzip",
    "te gzip, chunked": "POST / HTTP/1.1\r\nhost: a\r\ntransfer-encoding: gzip, chunked",
    "te chunked twice": "POST / HTTP/1.1\r\nhost: a\r\ntransfer-encoding: chunked\r\n" +
      "transfer-encoding: chunked",
    "te identity": "POST / HTTP/1.1\r\nhost: a\r\ntransfer-encoding: identity",
    "obs-fold": "GET / HTTP/1.1\r\nhost: a\r\nx-a: b\r\n c",
    "obs-fold tab": "GET / HTTP/1.1\r\nhost: a\r\nx-a: b\r\n\tc",
    "space before colon": "GET / HTTP/1.1\r\nhost : a",
    "tab before colon": "GET / HTTP/1.1\r\nhost\t: a",
    "space in name": "GET / HTTP/1.1\r\nhost: a\r\nx a: b",
    "empty name": "GET / HTTP/1.1\r\nhost: a\r\n: b",
    "no colon": "GET / HTTP/1.1\r\nhost: a\r\nnocolon",
    "nul in value": "GET / HTTP/1.1\r\nhost: a\r\nx-a: b\0c",
    "cr in value": "GET / HTTP/1.1\r\nhost: a\r\nx-a: b\rc",
    "lf in value": "GET / HTTP/1.1\r\nhost: a\r\nx-a: b\nc",
    "del in value": "GET / HTTP/1.1\r\nhost: a\r\nx-a: b\x7fc",
    "missing host on 1.1": "GET / HTTP/1.1\r\nx-a: b",
    "two hosts": "GET / HTTP/1.1\r\nhost: a\r\nhost: b",
    "two equal hosts": "GET / HTTP/1.1\r\nhost: a\r\nhost: a",
    "version 1.2": "GET / HTTP/1.2\r\nhost: a",
    "version 2.0": "GET / HTTP/2.0\r\nhost: a",
    "version lower-case": "GET / http/1.1\r\nhost: a",
    "version 0.9": "GET /",
    "version missing": "GET / \r\nhost: a",
    "bad method": "G(T / HTTP/1.1\r\nhost: a",
    "double space": "GET  / HTTP/1.1\r\nhost: a",
    "space in target": "GET /a b HTTP/1.1\r\nhost: a",
    "relative target": "GET a HTTP/1.1\r\nhost: a",
    "bare lf request line": "GET / HTTP/1.1\nhost: a",
  };
  for (const [name, text] of Object.entries(shapes)) {
    const h = parseRequestHead(text);
    assert.equal(h.error?.status, 400, `${name}: ${JSON.stringify(h.error)}`);
    assert.equal(h.keepAlive, false, name);
  }
  // Equal repeated content-length values are one length, as in Envoy.
  const same = parseRequestHead(
    "POST / HTTP/1.1\r\nhost: a\r\ncontent-length: 5\r\ncontent-length: 5",
  );
  assert.equal(same.error, null);
  assert.equal(same.contentLength, 5);
  const chunked = parseRequestHead("POST / HTTP/1.1\r\nhost: a\r\ntransfer-encoding: Chunked");
  assert.equal(chunked.error, null);
  assert.equal(chunked.contentLength, -1);
});

Deno.test("listener http1 codec: more than 100 header fields is 431, exactly 100 is accepted", () => {
  const fields = (n: number) =>
    Array.from({ length: n }, (_, i) => (i === 0 ? "host: a" : `x-h${i}: v`)).join("\r\n");
  const ok = parseRequestHead(`GET / HTTP/1.1\r\n${fields(MAX_HEADERS)}`);
  assert.equal(ok.error, null);
  assert.equal(ok.headers.get("x-h99"), "v");
  const over = parseRequestHead(`GET / HTTP/1.1\r\n${fields(MAX_HEADERS + 1)}`);
  assert.equal(over.error?.status, 431);
  assert.equal(over.keepAlive, false);
});

Deno.test("listener http1 codec: absolute-form target gives authority and origin-form path", () => {
  const a = parseRequestHead("GET http://up.test:8080/p/q?x=1 HTTP/1.1\r\nhost: other");
  assert.equal(a.error, null);
  assert.equal(a.authority, "up.test:8080");
  assert.equal(a.path, "/p/q?x=1");
  const b = parseRequestHead("GET https://up.test HTTP/1.1");
  assert.equal(b.error, null);
  assert.equal(b.authority, "up.test");
  assert.equal(b.path, "/");
  const c = parseRequestHead("GET http://up.test?x=1 HTTP/1.1");
  assert.equal(c.error, null);
  assert.equal(c.authority, "up.test");
  assert.equal(c.path, "/?x=1");
  assert.equal(parseRequestHead("GET http:///p HTTP/1.1").error?.status, 400);
  assert.equal(parseRequestHead("GET ftp://a/p HTTP/1.1\r\nhost: a").error?.status, 400);
  const star = parseRequestHead("OPTIONS * HTTP/1.1\r\nhost: a");
  assert.equal(star.error, null);
  assert.equal(star.path, "*");
});

Deno.test("listener http1 codec: keep-alive rules for HTTP/1.0 and HTTP/1.1", () => {
  const ka = (t: string) => {
    const h = parseRequestHead(t);
    assert.equal(h.error, null, t);
    return h.keepAlive;
  };
  assert.equal(ka("GET / HTTP/1.0"), false);
  assert.equal(parseRequestHead("GET / HTTP/1.0").http10, true);
  assert.equal(ka("GET / HTTP/1.0\r\nconnection: keep-alive"), true);
  assert.equal(ka("GET / HTTP/1.0\r\nConnection: Keep-Alive"), true);
  assert.equal(ka("GET / HTTP/1.0\r\nconnection: keep-alive, close"), false);
  assert.equal(ka("GET / HTTP/1.1\r\nhost: a"), true);
  assert.equal(ka("GET / HTTP/1.1\r\nhost: a\r\nconnection: close"), false);
  assert.equal(ka("GET / HTTP/1.1\r\nhost: a\r\nconnection: Close"), false);
  assert.equal(ka("GET / HTTP/1.1\r\nhost: a\r\nconnection: keep-alive"), true);
  // HTTP/1.0 needs no host; expect: 100-continue is ignored for it.
  const h10 = parseRequestHead("POST / HTTP/1.0\r\nexpect: 100-continue\r\ncontent-length: 1");
  assert.equal(h10.expectContinue, false);
  const h11 = parseRequestHead(
    "POST / HTTP/1.1\r\nhost: a\r\nexpect: 100-continue\r\ncontent-length: 1",
  );
  assert.equal(h11.expectContinue, true);
  assert.equal(h11.headers.has("expect"), false);
});

Deno.test("listener http1 codec: HTTP/2 preface is recognised", () => {
  const h = parseRequestHead("PRI * HTTP/2.0");
  assert.equal(h.h2Preface, true);
});

const hm = (pairs: [string, string][] = []) => new HeaderMap(pairs);

Deno.test("listener http1 codec: responseHead framing table", () => {
  type Row = [
    string, // case
    number, // status
    [string, string][], // headers
    number, // body length (-1 stream, -2 none)
    string, // method
    boolean, // http10
    boolean, // close
    string, // framing
    string | null, // content-length written
    boolean, // transfer-encoding chunked written
    string | null, // connection written
  ];
  const rows: Row[] = [
    ["bytes", 200, [], 5, "GET", false, false, "length", "5", false, null],
    ["empty bytes", 200, [], 0, "GET", false, false, "none", "0", false, null],
    ["no body", 200, [], -2, "GET", false, false, "none", "0", false, null],
    [
      "stream declared",
      200,
      [["content-length", "7"]],
      -1,
      "GET",
      false,
      false,
      "length",
      "7",
      false,
      null,
    ],
    ["stream unknown", 200, [], -1, "GET", false, false, "chunked", null, true, null],
    ["stream unknown 1.0", 200, [], -1, "GET", true, false, "close", null, false, "close"],
    [
      "stream declared 1.0 ka",
      200,
      [["content-length", "3"]],
      -1,
      "GET",
      true,
      false,
      "length",
      "3",
      false,
      "keep-alive",
    ],
    ["1.0 close", 200, [], 2, "GET", true, true, "length", "2", false, "close"],
    ["HEAD bytes", 200, [], 9, "HEAD", false, false, "none", "9", false, null],
    [
      "HEAD declared stream",
      200,
      [["content-length", "42"]],
      -1,
      "HEAD",
      false,
      false,
      "none",
      "42",
      false,
      null,
    ],
    ["HEAD unknown", 200, [], -1, "HEAD", false, false, "none", null, false, null],
    ["204", 204, [["content-length", "0"]], -1, "GET", false, false, "none", null, false, null],
    ["204 bytes", 204, [], 3, "GET", false, false, "none", null, false, null],
    [
      "304 keeps cl",
      304,
      [["content-length", "12"]],
      -1,
      "GET",
      false,
      false,
      "none",
      "12",
      false,
      null,
    ],
    ["304 without", 304, [], -2, "GET", false, false, "none", null, false, null],
    ["close", 200, [], 1, "GET", false, true, "length", "1", false, "close"],
    [
      "upstream te dropped",
      200,
      [["transfer-encoding", "chunked"], ["connection", "x"], ["keep-alive", "1"]],
      -1,
      "GET",
      false,
      false,
      "chunked",
      null,
      true,
      null,
    ],
  ];
  for (const [name, status, hs, len, method, h10, close, framing, cl, te, conn] of rows) {
    const out = responseHead(status, hm(hs), len, method, h10, close);
    assert.ok(out.text.startsWith(statusLine(status)), name);
    assert.ok(out.text.endsWith("\r\n\r\n"), name);
    const lines = out.text.slice(0, -4).split("\r\n").slice(1);
    const get = (n: string) =>
      lines.filter((l) => l.startsWith(n + ": ")).map((l) => l.slice(n.length + 2));
    assert.equal(out.framing, framing, name);
    assert.deepEqual(get("content-length"), cl === null ? [] : [cl], name);
    assert.deepEqual(get("transfer-encoding"), te ? ["chunked"] : [], name);
    assert.deepEqual(get("connection"), conn === null ? [] : [conn], name);
    assert.deepEqual(get("keep-alive"), [], name);
    assert.equal(get("date").length, 1, name);
    if (framing === "length") assert.equal(out.length, Number(cl), name);
  }
});

Deno.test("listener http1 codec: responseHead keeps header order and an upstream date", () => {
  const out = responseHead(
    200,
    hm([["x-b", "1"], ["date", "Thu, 01 Jan 1970 00:00:00 GMT"], ["x-a", "2"], ["x-b", "3"]]),
    0,
    "GET",
    false,
    false,
  );
  assert.equal(
    out.text,
    "HTTP/1.1 200 OK\r\nx-b: 1\r\ndate: Thu, 01 Jan 1970 00:00:00 GMT\r\nx-a: 2\r\nx-b: 3\r\n" +
      "content-length: 0\r\n\r\n",
  );
  assert.equal(statusLine(299), "HTTP/1.1 299 Unknown\r\n");
  assert.equal(statusLine(431), "HTTP/1.1 431 Request Header Fields Too Large\r\n");
});
