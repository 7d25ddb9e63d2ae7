import { describe, expect, it } from "vitest";
import { pageHref, parsePageParam } from "./paging";

describe("paging", () => {
  it("parses ?page", () => {
    expect(parsePageParam(null)).toBe(1);
    expect(parsePageParam("")).toBe(1);
    expect(parsePageParam("3")).toBe(3);
    expect(parsePageParam("0")).toBeNull();
    expect(parsePageParam("-1")).toBeNull();
    expect(parsePageParam("2.5")).toBeNull();
    expect(parsePageParam("abc")).toBeNull();
    expect(parsePageParam("99999999")).toBeNull();
  });
  it("links pages", () => {
    expect(pageHref("/news", 1)).toBe("/news");
    expect(pageHref("/news", 2)).toBe("/news?page=2");
  });
  it("keeps a list's own query and fragment", () => {
    expect(pageHref("/sog-events?month=2026-12", 1)).toBe("/sog-events?month=2026-12");
    expect(pageHref("/sog-events?month=2026-12", 3)).toBe("/sog-events?month=2026-12&page=3");
    expect(pageHref("/sog-events#past", 2)).toBe("/sog-events?page=2#past");
  });
});
