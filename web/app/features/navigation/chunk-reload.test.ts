import { describe, expect, it, vi } from "vitest";
import { CHUNK_RELOAD_STORAGE_KEY, isChunkLoadError, reloadForChunkError } from "./chunk-reload";

function memoryStorage() {
  const data = new Map<string, string>();
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), data };
}

describe("isChunkLoadError", () => {
  it.each([
    new TypeError("Failed to fetch dynamically imported module: https://x/assets/a.js"),
    new TypeError("error loading dynamically imported module"),
    new TypeError("Importing a module script failed."),
    new Error("Unable to preload CSS for /assets/a.css"),
    Object.assign(new Error("Loading chunk 12 failed."), { name: "ChunkLoadError" }),
  ])("recognises %s", (error) => {
    expect(isChunkLoadError(error)).toBe(true);
  });

  it.each([new Error("Network down"), null, undefined, 42, { message: 5 }])("ignores %s", (error) => {
    expect(isChunkLoadError(error)).toBe(false);
  });
});

describe("reloadForChunkError", () => {
  it("reloads once, then not again within 60 s", () => {
    const storage = memoryStorage();
    const reload = vi.fn();
    expect(reloadForChunkError(storage, reload, 1_000_000)).toBe(true);
    expect(storage.data.get(CHUNK_RELOAD_STORAGE_KEY)).toBe("1000000");
    expect(reloadForChunkError(storage, reload, 1_000_000 + 59_999)).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(reloadForChunkError(storage, reload, 1_000_000 + 60_000)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it("reloads when storage is unavailable", () => {
    const reload = vi.fn();
    const broken = {
      getItem: () => {
        throw new Error("denied");
      },
      setItem: () => {
        throw new Error("denied");
      },
    };
    expect(reloadForChunkError(broken, reload, 5)).toBe(true);
    expect(reloadForChunkError(null, reload, 5)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it("ignores a timestamp from the future (clock changed)", () => {
    const storage = memoryStorage();
    storage.setItem(CHUNK_RELOAD_STORAGE_KEY, "9999999999999");
    const reload = vi.fn();
    expect(reloadForChunkError(storage, reload, 1000)).toBe(true);
  });
});
