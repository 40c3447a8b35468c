/**
 * `%START_TIME(...)%` formats: strftime-style specifiers in UTC, as Envoy writes them, plus
 * Envoy's `%E<n>S` (seconds with n fractional digits), `%f` (nanosecond digits, as many as the
 * clock has) and `%s` (epoch seconds). Without a format Envoy's default
 * `%Y-%m-%dT%H:%M:%E3SZ` is used. Each format is compiled once.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compileTimeFormat } from "./access_log_time.ts";
 * assert.equal(compileTimeFormat("%Y/%m/%d", "f")(0), "1970/01/01");
 * ```
 * @module
 */
import { FormatError } from "./access_log_format.ts";

/** Envoy's default START_TIME format. */
export const DEFAULT_TIME_FORMAT = "%Y-%m-%dT%H:%M:%E3SZ";

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

const p2 = (n: number) => n < 10 ? "0" + n : String(n);
const p3 = (n: number) => n < 10 ? "00" + n : n < 100 ? "0" + n : String(n);

type Piece = string | ((d: Date, ms: number) => string);

function fraction(ms: number, digits: number): string {
  const frac = String(Math.floor(((ms % 1000) + 1000) % 1000 * 1e6)).padStart(9, "0");
  return frac.slice(0, digits);
}

const SPEC: Record<string, Piece> = {
  Y: (d) => String(d.getUTCFullYear()),
  y: (d) => p2(d.getUTCFullYear() % 100),
  m: (d) => p2(d.getUTCMonth() + 1),
  d: (d) => p2(d.getUTCDate()),
  e: (d) => String(d.getUTCDate()).padStart(2, " "),
  H: (d) => p2(d.getUTCHours()),
  M: (d) => p2(d.getUTCMinutes()),
  S: (d) => p2(d.getUTCSeconds()),
  j: (d) => p3(Math.floor((d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86400000) + 1),
  a: (d) => DAYS[d.getUTCDay()],
  b: (d) => MONTHS[d.getUTCMonth()],
  s: (_d, ms) => String(Math.floor(ms / 1000)),
  f: (_d, ms) => fraction(ms, 9),
  z: "+0000",
  Z: "UTC",
  T: (d) => `${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}`,
  F: (d) => `${d.getUTCFullYear()}-${p2(d.getUTCMonth() + 1)}-${p2(d.getUTCDate())}`,
  "%": "%",
};

/** Compiles a START_TIME format (found at `path`) into a function of epoch milliseconds. */
export function compileTimeFormat(format: string, path: string): (ms: number) => string {
  const fmt = format === "" ? DEFAULT_TIME_FORMAT : format;
  const pieces: Piece[] = [];
  for (let i = 0; i < fmt.length; i++) {
    const c = fmt[i];
    if (c !== "%") {
      const last = pieces[pieces.length - 1];
      if (typeof last === "string") pieces[pieces.length - 1] = last + c;
      else pieces.push(c);
      continue;
    }
    const n = fmt[i + 1];
    if (n === "E" && /^[1-9]$/.test(fmt[i + 2] ?? "") && fmt[i + 3] === "S") {
      const digits = Number(fmt[i + 2]);
      pieces.push((d, ms) => p2(d.getUTCSeconds()) + "." + fraction(ms, digits));
      i += 3;
      continue;
    }
    const p = n === undefined ? undefined : SPEC[n];
    if (p === undefined) {
      throw new FormatError(path, `unsupported START_TIME specifier %${n ?? ""}`);
    }
    pieces.push(p);
    i++;
  }
  return (ms) => {
    const d = new Date(ms);
    let s = "";
    for (let i = 0; i < pieces.length; i++) {
      const p = pieces[i];
      s += typeof p === "string" ? p : p(d, ms);
    }
    return s;
  };
}
