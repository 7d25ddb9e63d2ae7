import { describe, expect, it } from "vitest";
import { LruCache } from "./lru";

describe("LruCache", () => {
  it("evicts the least recently used entry", () => {
    const cache = new LruCache<number>(2);
    cache.set("a", 1);
    cache.set("b", 2);
    expect(cache.get("a")).toBe(1); // a is now most recent
    cache.set("c", 3);
    expect(cache.has("b")).toBe(false);
    expect(cache.keys()).toEqual(["a", "c"]);
  });

  it("overwrites without growing", () => {
    const cache = new LruCache<number>(2);
    cache.set("a", 1);
    cache.set("a", 2);
    expect(cache.size).toBe(1);
    expect(cache.get("a")).toBe(2);
  });

  it("rejects a non-positive size", () => {
    expect(() => new LruCache(0)).toThrow(RangeError);
    expect(() => new LruCache<string>(2, { max: 0, weigh: (v) => v.length })).toThrow(RangeError);
  });

  it("evicts the least recently used entries until the weights fit", () => {
    const cache = new LruCache<string>(10, { max: 10, weigh: (v) => v.length });
    cache.set("a", "aaaa");
    cache.set("b", "bbbb");
    cache.get("a"); // a is now most recent
    cache.set("c", "cccc");
    expect(cache.keys()).toEqual(["a", "c"]);
    expect(cache.weight).toBe(8);
    cache.set("a", "a"); // overwriting replaces its weight
    expect(cache.weight).toBe(5);
    cache.delete("c");
    expect(cache.weight).toBe(1);
    cache.clear();
    expect(cache.weight).toBe(0);
  });

  it("keeps no entry heavier than the whole limit, nor one whose weight is not a number", () => {
    const cache = new LruCache<string>(10, { max: 10, weigh: (v) => (v === "?" ? NaN : v.length) });
    cache.set("small", "ss");
    cache.set("big", "x".repeat(11));
    cache.set("odd", "?");
    expect(cache.keys()).toEqual(["small"]);
    expect(cache.weight).toBe(2);
  });
});
