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
  });
});
