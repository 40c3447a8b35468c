/**
 * Drives the admin home page in headless Chromium over the DevTools protocol: opens `/`, clicks
 * the link to `stats`, and reads the statistics page. Skips, saying so, when Chromium is absent.
 */
import assert from "node:assert/strict";
import { parseArgs } from "../config/args.ts";
import { createLogging } from "../server/logger.ts";
import { startServer } from "../server/server.ts";
import { ADMIN } from "./mod.ts";

const CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].find(
  (p) => {
    try {
      return Deno.statSync(p).isFile;
    } catch {
      return false;
    }
  },
);

if (!CHROMIUM) {
  console.warn(
    "home_browser_test: SKIPPED: no Chromium at /usr/bin/chromium (apt-get install -y chromium)",
  );
}

/** A tiny DevTools protocol client over one page's WebSocket. */
class Page {
  #id = 0;
  #pending = new Map<number, (v: { result?: unknown; error?: unknown }) => void>();
  constructor(readonly ws: WebSocket) {
    ws.onmessage = (e) => {
      const msg = JSON.parse(String(e.data));
      this.#pending.get(msg.id)?.(msg);
      this.#pending.delete(msg.id);
    };
  }
  static open(url: string): Promise<Page> {
    const ws = new WebSocket(url);
    return new Promise((resolve, reject) => {
      ws.onopen = () => resolve(new Page(ws));
      ws.onerror = () => reject(new Error(`cannot connect to ${url}`));
    });
  }
  send(method: string, params: object = {}): Promise<{ result?: unknown; error?: unknown }> {
    const id = ++this.#id;
    this.ws.send(JSON.stringify({ id, method, params }));
    return new Promise((r) => this.#pending.set(id, r));
  }
  async eval(expression: string): Promise<unknown> {
    const r = await this.send("Runtime.evaluate", { expression, returnByValue: true });
    return (r.result as { result?: { value?: unknown } } | undefined)?.result?.value;
  }
  close(): Promise<void> {
    return new Promise((r) => {
      this.ws.onclose = () => r();
      this.ws.close();
    });
  }
}

async function readUntil(stream: ReadableStream<Uint8Array>, re: RegExp): Promise<RegExpExecArray> {
  const reader = stream.getReader();
  let text = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`Chromium exited before printing ${re}: ${text}`);
      text += new TextDecoder().decode(value);
      const m = re.exec(text);
      if (m) return m;
    }
  } finally {
    reader.releaseLock();
  }
}

Deno.test({
  name:
    "admin.endpoints.home, admin.general.home-page-links: the home page works in a browser and its stats link shows stats",
  ignore: !CHROMIUM,
  async fn() {
    const lines: string[] = [];
    const logging = createLogging(parseArgs(["--config-yaml", "{}"]), {
      sink: { write: (l) => void lines.push(l), reopen: () => Promise.resolve(), close() {} },
    });
    const running = await startServer(
      parseArgs(["--config-yaml", "{}"]),
      { admin: { address: { socket_address: { address: "127.0.0.1", port_value: 0 } } } },
      { signals: false, admin: ADMIN, logging },
    );
    const profile = await Deno.makeTempDir({ prefix: "proxyspec_chromium_" });
    const child = new Deno.Command(CHROMIUM!, {
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--no-first-run",
        `--user-data-dir=${profile}`,
        "--remote-debugging-port=0",
        `http://${running.adminAddress}/`,
      ],
      stdout: "null",
      stderr: "piped",
    }).spawn();
    let page: Page | undefined;
    try {
      const m = await readUntil(child.stderr, /DevTools listening on ws:\/\/([^/\s]+)\//);
      let target: { type: string; url: string; webSocketDebuggerUrl: string } | undefined;
      for (let i = 0; i < 100 && !target; i++) {
        const list = await (await fetch(`http://${m[1]}/json/list`)).json();
        target = list.find((t: { type: string; url: string }) =>
          t.type === "page" && t.url.endsWith("/")
        );
        if (!target) await new Promise((r) => setTimeout(r, 100));
      }
      assert.ok(target, "Chromium opened no page");
      page = await Page.open(target.webSocketDebuggerUrl);
      let title = "";
      for (let i = 0; i < 100 && title !== "Proxy Admin"; i++) {
        title = String(await page.eval("document.readyState === 'complete' ? document.title : ''"));
        if (title !== "Proxy Admin") await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(title, "Proxy Admin");
      const forms = await page.eval("document.querySelectorAll(\"form[method='post']\").length");
      assert.ok(Number(forms) > 5);
      await page.eval("document.querySelector(\"a[href='stats']\").click()");
      let body = "";
      for (let i = 0; i < 100 && !/server\.live: 1/.test(body); i++) {
        body = String(
          await page.eval("location.pathname === '/stats' ? document.body.innerText : ''"),
        );
        if (!/server\.live: 1/.test(body)) await new Promise((r) => setTimeout(r, 100));
      }
      assert.match(body, /^server\.live: 1$/m);
      assert.match(body, /^http\.admin\.downstream_rq_total: \d+$/m);
    } finally {
      await page?.close();
      child.kill("SIGKILL");
      await child.stderr.cancel().catch(() => {});
      await child.status;
      await running.shutdown();
      await Deno.remove(profile, { recursive: true }).catch(() => {});
    }
  },
});
