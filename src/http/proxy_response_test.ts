import assert from "node:assert/strict";
import { HeaderMap } from "./header_map.ts";
import {
  bodyText,
  onResponseEnd,
  proxyResponse,
  type ResponseEnd,
  toResponse,
} from "./proxy_response.ts";

Deno.test("proxy response: end callbacks run in the order added, once each", () => {
  const r = proxyResponse(200, new HeaderMap(), "abc");
  const seen: string[] = [];
  onResponseEnd(r, (n, e) => seen.push(`a ${n} ${e}`));
  onResponseEnd(r, (n, e) => seen.push(`b ${n} ${e}`));
  r.onEnd?.(3, "complete");
  assert.deepEqual(seen, ["a 3 complete", "b 3 complete"]);
});

Deno.test("proxy response: toResponse reports the bytes sent once the body has been read", async () => {
  const ends: [number, ResponseEnd][] = [];
  const r = proxyResponse(201, new HeaderMap([["x-a", "1"]]), "hello");
  onResponseEnd(r, (n, e) => ends.push([n, e]));
  const res = toResponse(r);
  assert.equal(res.status, 201);
  assert.equal(res.headers.get("x-a"), "1");
  assert.deepEqual(ends, []);
  assert.equal(await res.text(), "hello");
  assert.deepEqual(ends, [[5, "complete"]]);
});

Deno.test("proxy response: a cancelled streamed body is reported as the client going away", async () => {
  const ends: [number, ResponseEnd][] = [];
  const body = new ReadableStream<Uint8Array>({
    pull(c) {
      c.enqueue(new Uint8Array(4));
    },
  });
  const r = proxyResponse(200, new HeaderMap(), body);
  onResponseEnd(r, (n, e) => ends.push([n, e]));
  const rd = toResponse(r).body!.getReader();
  await rd.read();
  await rd.cancel();
  assert.deepEqual(ends, [[4, "client_gone"]]);
});

Deno.test("proxy response: bodyText reads bytes, streams and empty bodies", async () => {
  assert.equal(await bodyText(proxyResponse(200, new HeaderMap(), "é")), "é");
  assert.equal(await bodyText(proxyResponse(204)), "");
  const s = new Response("streamed").body!;
  assert.equal(await bodyText(proxyResponse(200, new HeaderMap(), s)), "streamed");
});
