// A worker that loads and then never answers: it says it is loaded (its handler is set) and
// ignores every message, `init` included, as a worker stuck in its start-up would.
const scope = self as unknown as {
  onmessage: ((e: MessageEvent<unknown>) => void) | null;
  postMessage(m: unknown): void;
};
scope.onmessage = () => {};
scope.postMessage({ type: "loaded" });
