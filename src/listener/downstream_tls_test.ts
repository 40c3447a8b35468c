import assert from "node:assert/strict";
import { parseDownstreamTls, sanMatches } from "./downstream_tls.ts";

function sanContext(regex: string) {
  return {
    common_tls_context: {
      tls_certificates: [{
        certificate_chain: { inline_string: "CERT" },
        private_key: { inline_string: "KEY" },
      }],
      validation_context: {
        trusted_ca: { inline_string: "CA" },
        match_typed_subject_alt_names: [{ san_type: "URI", matcher: { safe_regex: { regex } } }],
      },
    },
  };
}

const AT = "tc.common_tls_context.validation_context.match_typed_subject_alt_names[0].matcher" +
  ".safe_regex.regex";

Deno.test("downstream TLS: a SAN safe_regex is RE2 on the linear-time engine, matching the whole name", () => {
  const errors: { path: string; rule: string; message: string }[] = [];
  const t = parseDownstreamTls(sanContext("spiffe://ns/(a|b)+"), "tc", errors);
  assert.deepEqual(errors, []);
  const m = t!.sanMatchers[0];
  assert.equal(sanMatches(m, "URI", "spiffe://ns/abba"), true);
  assert.equal(sanMatches(m, "URI", "spiffe://ns/abc"), false, "a full match, not a search");
  // A pattern that backtracks exponentially on ECMAScript's engine answers at once.
  const slow = parseDownstreamTls(sanContext("(a|a)*b"), "tc", errors)!.sanMatchers[0];
  assert.equal(sanMatches(slow, "URI", "a".repeat(64)), false);
});

Deno.test("downstream TLS: a SAN safe_regex outside RE2 (look-around, over the length limit) is refused with its path", () => {
  for (const regex of ["(?=a)a", "a".repeat(100_000)]) {
    const errors: { path: string; rule: string; message: string }[] = [];
    parseDownstreamTls(sanContext(regex), "tc", errors);
    assert.equal(errors.length, 1, regex.slice(0, 20));
    assert.equal(errors[0].path, AT);
    assert.match(errors[0].message, /invalid regex/);
  }
});
