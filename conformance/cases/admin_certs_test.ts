/**
 * The `/certs` case passes on a listing like Envoy's and fails on one that lacks a certificate,
 * its SANs, its source or its days until expiration.
 */
import assert from "node:assert/strict";
import { runForReport } from "../testing.ts";
import { expectedCert, FIXTURE_CERTS, listingProblem } from "./admin_certs.ts";

const DAY_MS = 86_400_000;

async function envoyLike(now: number) {
  const details = await Promise.all(FIXTURE_CERTS.map(async (f) => {
    const c = await expectedCert(f);
    return {
      path: "<inline>",
      serial_number: c.serial,
      subject_alt_names: c.sans.map((s) => /^[\d.:a-f]+$/.test(s) ? { ip_address: s } : { dns: s }),
      days_until_expiration: String(Math.floor((c.validTo - now) / DAY_MS)),
    };
  }));
  return { certificates: [{ ca_cert: [details[0]], cert_chain: [details[1]] }] };
}

Deno.test("admin.resources.certs.listing: an Envoy-like listing of the fixture passes", async () => {
  const now = Date.now();
  const listing = await envoyLike(now);
  for (const f of FIXTURE_CERTS) {
    assert.equal(listingProblem(listing, await expectedCert(f), now), null, f);
  }
});

Deno.test("admin.resources.certs.listing: listings missing a fact are found wrong", async () => {
  const now = Date.now();
  const server = await expectedCert("server.pem");
  assert.match(listingProblem({ certificates: [] }, server, now)!, /no entry has the serial/);
  const good = await envoyLike(now);
  const cut = (edit: (d: Record<string, unknown>) => void) => {
    const l = structuredClone(good);
    edit(l.certificates[0].cert_chain[0]);
    return l;
  };
  assert.match(
    listingProblem(cut((d) => d.subject_alt_names = []), server, now)!,
    /subject alternate names/,
  );
  assert.match(listingProblem(cut((d) => delete d.path), server, now)!, /no source/);
  assert.match(
    listingProblem(cut((d) => d.days_until_expiration = "3"), server, now)!,
    /days until expiration/,
  );
});

Deno.test("admin.resources.certs.listing: a target with the fixture but an empty /certs fails", async () => {
  const ac = new AbortController();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: ac.signal, onListen: () => {} },
    (req) => {
      const path = new URL(req.url).pathname;
      if (path === "/config_dump") return Response.json({ configs: [{ name: "conformance_tls" }] });
      if (path === "/certs") return Response.json({ certificates: [] });
      return new Response("not found", { status: 404 });
    },
  );
  const dir = await Deno.makeTempDir({ prefix: "certs-case-" });
  try {
    const { code, results } = await runForReport([
      "--base-url",
      `http://127.0.0.1:${server.addr.port}`,
      "admin.resources.certs.listing",
    ], dir);
    assert.equal(code, 1);
    const [result] = results.values();
    assert.equal(result.status, "FAIL", JSON.stringify(result));
  } finally {
    ac.abort();
    await server.finished;
    await Deno.remove(dir, { recursive: true });
  }
});
