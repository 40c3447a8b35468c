import assert from "node:assert/strict";
import { decodeBase64WithoutPadding, parseAtod } from "./metadata_values.ts";

const text = (b: Uint8Array | null) => b === null ? null : new TextDecoder().decode(b);

Deno.test("HttpFilter.name header_to_metadata BASE64: Envoy's decodeWithoutPadding (padding optional, strict alphabet and trailing bits)", () => {
  assert.equal(text(decodeBase64WithoutPadding("aGVsbG8=")), "hello");
  assert.equal(text(decodeBase64WithoutPadding("aGVsbG8")), "hello");
  assert.equal(text(decodeBase64WithoutPadding("aGk=")), "hi");
  assert.equal(text(decodeBase64WithoutPadding("aA==")), "h");
  assert.equal(text(decodeBase64WithoutPadding("aA")), "h");
  assert.equal(text(decodeBase64WithoutPadding("+/+/")), "\ufffd\ufffd\ufffd");
  assert.equal(text(decodeBase64WithoutPadding("aGk==")), "hi", "extra padding is stripped");
  for (const bad of ["", "a", "aA===", "aB", "aGl", "aG k", "aGk-", "aG=k", "ä"]) {
    assert.equal(decodeBase64WithoutPadding(bad), null, bad);
  }
});

Deno.test("HttpFilter.name header_to_metadata NUMBER: absl::SimpleAtod (whitespace trimmed, one +, decimals, inf, nan; no hex, no trailing text)", () => {
  const ok: [string, number][] = [
    ["42", 42],
    [" -1.5 ", -1.5],
    ["+3", 3],
    [".5", 0.5],
    ["5.", 5],
    ["1e3", 1000],
    ["2E-2", 0.02],
    ["inf", Infinity],
    ["-Infinity", -Infinity],
  ];
  for (const [s, n] of ok) assert.equal(parseAtod(s), n, s);
  assert.ok(Number.isNaN(parseAtod("nan")));
  for (const bad of ["", " ", "0x10", "12abc", "+-1", "--1", "1e", ".", "1,5", "one"]) {
    assert.equal(parseAtod(bad), null, bad);
  }
});
