/**
 * Table `events`: the two numbered rules of the specification's Events section.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { EVENTS } from "./events.ts";
 * assert.equal(EVENTS[0].id, "events.hystrix-only-stream");
 * ```
 * @module
 */
import type { Rule } from "./rule.ts";

/** Rows of the `events` table, one per numbered rule. */
export const EVENTS = [
  {
    id: "events.hystrix-only-stream",
    level: "MUST",
    statement:
      "GET /hystrix_event_stream is the only streaming interface: `text/event-stream`, one batch per stats flush interval while a dashboard stats sink is enabled.",
    cite: {
      section: "Events",
      quote:
        "The only streaming interface is GET /hystrix_event_stream (`text/event-stream`), emitted at each stats flush interval while a dashboard stats sink is enabled.",
    },
    envoy:
      "Real Envoy sends per cluster a `HystrixCommand` and a `HystrixThreadPool` `data:` event, then a `:` keep-alive line, with `Cache-Control: no-cache` and `Access-Control-Allow-Origin: *`.",
    check: "fixture:dashboard-sink",
  },
  {
    id: "events.webhooks-not-shown",
    level: "MAY",
    statement:
      "The admin interface emits no webhooks or other outbound notifications that are specified.",
    cite: {
      section: "Events",
      quote:
        "Webhooks or other outbound notifications emitted by the administration interface: not shown.",
    },
    check: "internal",
  },
] as const satisfies readonly Rule[];
