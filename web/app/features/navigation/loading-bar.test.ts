import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LoadingBarController, type LoadingBarPhase } from "./loading-bar";

function controller() {
  const phases: LoadingBarPhase[] = [];
  const c = new LoadingBarController((p) => phases.push(p), {
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
  });
  return { c, phases };
}

describe("LoadingBarController", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("never shows for loads shorter than 200 ms", () => {
    const { c, phases } = controller();
    c.start();
    vi.advanceTimersByTime(199);
    c.finish();
    vi.advanceTimersByTime(1_000);
    expect(phases).toEqual(["waiting", "idle"]);
  });

  it("shows after 200 ms and hides 500 ms after loading ends", () => {
    const { c, phases } = controller();
    c.start();
    vi.advanceTimersByTime(200);
    expect(c.phase).toBe("running");
    vi.advanceTimersByTime(3_000);
    c.finish();
    expect(c.phase).toBe("finishing");
    vi.advanceTimersByTime(499);
    expect(c.phase).toBe("finishing");
    vi.advanceTimersByTime(1);
    expect(phases).toEqual(["waiting", "running", "finishing", "idle"]);
  });

  it("keeps running when a new load starts while finishing", () => {
    const { c } = controller();
    c.start();
    vi.advanceTimersByTime(200);
    c.finish();
    c.start();
    vi.advanceTimersByTime(1_000);
    expect(c.phase).toBe("running");
  });

  it("ignores repeated starts", () => {
    const { c, phases } = controller();
    c.start();
    vi.advanceTimersByTime(100);
    c.start();
    vi.advanceTimersByTime(100);
    expect(phases).toEqual(["waiting", "running"]);
  });
});
