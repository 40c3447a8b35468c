/**
 * Placeholder stats store (replaced by the stats engine): a minimal in-memory {@linkcode Scope}.
 *
 * @module
 */
import type { Counter, Gauge, Histogram, HistogramUnit, Scope, TextReadout } from "./types.ts";

class SimpleCounter implements Counter {
  #v = 0;
  used = false;
  constructor(readonly name: string) {}
  inc(n = 1) {
    this.#v += n;
    this.used = true;
  }
  value() {
    return this.#v;
  }
}

class SimpleGauge implements Gauge {
  #v = 0;
  used = false;
  constructor(readonly name: string) {}
  set(v: number) {
    this.#v = v;
    this.used = true;
  }
  inc(n = 1) {
    this.set(this.#v + n);
  }
  dec(n = 1) {
    this.set(this.#v - n);
  }
  value() {
    return this.#v;
  }
}

class SimpleHistogram implements Histogram {
  used = false;
  values: number[] = [];
  constructor(readonly name: string, readonly unit: HistogramUnit) {}
  record(v: number) {
    this.values.push(v);
    this.used = true;
  }
}

class SimpleText implements TextReadout {
  #v = "";
  used = false;
  constructor(readonly name: string) {}
  set(v: string) {
    this.#v = v;
    this.used = true;
  }
  value() {
    return this.#v;
  }
}

/** The root of all stats. */
export class Store implements Scope {
  readonly prefix = "";
  readonly stats = new Map<string, Counter | Gauge | Histogram | TextReadout>();
  #get<T extends Counter | Gauge | Histogram | TextReadout>(name: string, make: () => T): T {
    let s = this.stats.get(name);
    if (!s) this.stats.set(name, s = make());
    return s as T;
  }
  counter(name: string): Counter {
    return this.#get(name, () => new SimpleCounter(name));
  }
  gauge(name: string): Gauge {
    return this.#get(name, () => new SimpleGauge(name));
  }
  histogram(name: string, unit: HistogramUnit = "unspecified"): Histogram {
    return this.#get(name, () => new SimpleHistogram(name, unit));
  }
  textReadout(name: string): TextReadout {
    return this.#get(name, () => new SimpleText(name));
  }
  scope(name: string): Scope {
    return new Prefixed(this, name);
  }
}

class Prefixed implements Scope {
  constructor(readonly root: Store, readonly prefix: string) {}
  counter(name: string) {
    return this.root.counter(`${this.prefix}.${name}`);
  }
  gauge(name: string) {
    return this.root.gauge(`${this.prefix}.${name}`);
  }
  histogram(name: string, unit?: HistogramUnit) {
    return this.root.histogram(`${this.prefix}.${name}`, unit);
  }
  textReadout(name: string) {
    return this.root.textReadout(`${this.prefix}.${name}`);
  }
  scope(name: string): Scope {
    return new Prefixed(this.root, `${this.prefix}.${name}`);
  }
}
