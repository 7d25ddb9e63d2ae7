import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { hashTargetId, scrollAfterNavigation, type ScrollEnvironment } from "./hash-scroll";

function env(elements: Map<string, { scrollIntoView: () => void }>): ScrollEnvironment & { top: number } {
  const result = {
    top: 0,
    findById: (id: string) => elements.get(id) ?? null,
    scrollToTop: () => {
      result.top++;
    },
    setInterval: (fn: () => void, ms: number) => setInterval(fn, ms),
    clearInterval: (h: unknown) => clearInterval(h as ReturnType<typeof setInterval>),
  };
  return result;
}

describe("scrollAfterNavigation", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("scrolls to the top without a hash", () => {
    const e = env(new Map());
    scrollAfterNavigation("", e);
    expect(e.top).toBe(1);
  });

  it("scrolls to an existing element at once", () => {
    const target = { scrollIntoView: vi.fn() };
    const e = env(new Map([["minutes", target]]));
    scrollAfterNavigation("#minutes", e);
    expect(target.scrollIntoView).toHaveBeenCalledTimes(1);
    expect(e.top).toBe(0);
  });

  it("retries every 1000 ms until the element exists", () => {
    const elements = new Map<string, { scrollIntoView: () => void }>();
    const target = { scrollIntoView: vi.fn() };
    scrollAfterNavigation("#late", env(elements));
    vi.advanceTimersByTime(2_999);
    expect(target.scrollIntoView).not.toHaveBeenCalled();
    elements.set("late", target);
    vi.advanceTimersByTime(1);
    expect(target.scrollIntoView).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(5_000);
    expect(target.scrollIntoView).toHaveBeenCalledTimes(1);
  });

  it("stops retrying when cancelled", () => {
    const elements = new Map<string, { scrollIntoView: () => void }>();
    const target = { scrollIntoView: vi.fn() };
    const stop = scrollAfterNavigation("#late", env(elements));
    stop();
    elements.set("late", target);
    vi.advanceTimersByTime(5_000);
    expect(target.scrollIntoView).not.toHaveBeenCalled();
  });
});

describe("hashTargetId", () => {
  it("decodes", () => {
    expect(hashTargetId("#caf%C3%A9")).toBe("café");
    expect(hashTargetId("#%E0%A4%A")).toBe("%E0%A4%A");
    expect(hashTargetId("#")).toBe("");
  });
});
