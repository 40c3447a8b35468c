import assert from "node:assert/strict";
import { Store } from "./store.ts";
import { jsonNameQuoter } from "./json_name.ts";

Deno.test("jsonNameQuoter: quotes every name as JSON.stringify does", () => {
  const store = new Store();
  const names = [
    "a",
    "cluster.service_1.upstream_rq_200",
    "cluster.service_2.upstream_rq_200",
    'quote".x',
    "back\\slash.y",
    "ctl\u0001.z",
    "tab\t",
    "nl.\n",
    "emoji.\u{1F600}",
    // Lone surrogates, in the head and in the leaf.
    "hi\ud83d.\ude00",
    "split\ud83d",
    "\ude00",
    "ünïcödé.wörd",
    "head.",
    "",
  ];
  const stats = names.flatMap((n) => [store.counter(n), store.gauge(`s.${n}`)]);
  // Every stat twice, so the remembered head and leaves are used as well as computed.
  const quote = jsonNameQuoter();
  for (let round = 0; round < 2; round++) {
    for (const s of [...stats, ...stats]) assert.equal(quote(s), JSON.stringify(s.name), s.name);
  }
});

Deno.test("jsonNameQuoter: a head that changes between stats is checked again", () => {
  const store = new Store();
  const quote = jsonNameQuoter();
  assert.equal(quote(store.counter("ok.leaf")), '"ok.leaf"');
  assert.equal(quote(store.counter('b"d.leaf')), '"b\\"d.leaf"');
  assert.equal(quote(store.counter("ok.leaf")), '"ok.leaf"');
});
