import assert from "node:assert/strict";
import { type CertificateDetails, daysUntil, firstCertExpiry } from "./certs.ts";

const DAY = 86_400_000;

function details(expiration_time: string): CertificateDetails {
  return {
    path: "<inline>",
    serial_number: "01",
    subject_alt_names: [],
    days_until_expiration: "0",
    valid_from: "2020-01-01T00:00:00Z",
    expiration_time,
  };
}

Deno.test("admin.resources.certs.listing: whole days until expiry, 0 once expired", () => {
  const now = Date.UTC(2030, 0, 1, 12);
  assert.equal(daysUntil(now + 2 * DAY - 1, now), 1);
  assert.equal(daysUntil(now + 2 * DAY, now), 2);
  assert.equal(daysUntil(now - DAY, now), 0);
});

Deno.test("admin.resources.certs.listing: the first expiry over CA and chain certificates; none without any", () => {
  assert.equal(firstCertExpiry([]), undefined);
  assert.equal(firstCertExpiry([{ ca_cert: [], cert_chain: [] }]), undefined);
  assert.equal(
    firstCertExpiry([
      { ca_cert: [details("2031-05-01T00:00:00Z")], cert_chain: [] },
      {
        ca_cert: [],
        cert_chain: [details("2030-02-01T00:00:00Z"), details("2032-01-01T00:00:00Z")],
      },
    ]),
    Date.UTC(2030, 1, 1),
  );
});
