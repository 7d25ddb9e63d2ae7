import { describe, expect, it } from "vitest";
import { addTags, slugify, statusText } from "./words";

describe("studio words", () => {
  it.each([
    ["AGM 2026: notice", "agm-2026-notice"],
    ["  Café & Bar  ", "cafe-and-bar"],
    ["---", ""],
    ["Ünïcödé Wörds", "unicode-words"],
    ["a".repeat(120), "a".repeat(100)],
  ])("slugify(%j) = %j", (text, want) => {
    expect(slugify(text)).toBe(want);
  });
  it("adds typed tags once each", () => {
    expect(addTags(["news"], " dna, news ,, talks ")).toEqual(["news", "dna", "talks"]);
  });
  it("says when a published document has unpublished changes", () => {
    expect(statusText("published", true)).toBe("Published, with changes not yet published");
    expect(statusText("draft", true)).toBe("Draft");
  });
});
