// A worker whose module graph has a top-level await before its handler is set (as the proxy's
// worker has, through the hashing module's WebAssembly start-up): it echoes each message, then
// says it is loaded. It says when its module is being evaluated, so a test sends its messages
// during the top-level await.
const scope = self as unknown as {
  onmessage: ((e: MessageEvent<string>) => void) | null;
  postMessage(m: unknown): void;
};
const delay = Number(new URL(import.meta.url).searchParams.get("delay") ?? "300");
scope.postMessage({ type: "evaluating" });
await new Promise((r) => setTimeout(r, delay));
scope.onmessage = (e) => scope.postMessage({ type: "echo", value: e.data });
scope.postMessage({ type: "loaded" });
