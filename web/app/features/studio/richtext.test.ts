import { describe, expect, it } from "vitest";
import { plainText, shiftSpans, toggleSpan, validLinkUrl, type Span } from "./richtext";

const bold = (start: number, end: number): Span => ({ start, end, type: "strong" });

describe("shiftSpans", () => {
  it.each<[string, string, string, Span[], Span[]]>([
    ["typing before a span moves it", "hello world", "oh hello world", [bold(6, 11)], [bold(9, 14)]],
    ["typing after a span leaves it", "hello world", "hello world!", [bold(0, 5)], [bold(0, 5)]],
    ["typing at a span's end grows it", "hello world", "hellooo world", [bold(0, 5)], [bold(0, 7)]],
    ["typing inside a span grows it", "hello world", "helXlo world", [bold(0, 5)], [bold(0, 6)]],
    ["deleting a span's text removes it", "hello world", " world", [bold(0, 5)], []],
    ["deleting part of a span shrinks it", "hello world", "heo world", [bold(0, 5)], [bold(0, 3)]],
    ["replacing across a span's start keeps the rest", "hello world", "hexyz world", [bold(3, 8)], [bold(5, 8)]],
    ["no change", "abc", "abc", [bold(0, 1)], [bold(0, 1)]],
    ["deleting before a span moves it back", "abc def", "bc def", [bold(4, 7)], [bold(3, 6)]],
    ["clearing the text removes every span", "abc", "", [bold(0, 3)], []],
  ])("%s", (_, before, after, spans, want) => {
    expect(shiftSpans(before, after, spans)).toEqual(want);
  });
});

describe("toggleSpan", () => {
  it("adds a span over the selection", () => {
    expect(toggleSpan([], 2, 4, "em")).toEqual([{ start: 2, end: 4, type: "em" }]);
  });
  it("takes away the same span over the same text", () => {
    expect(toggleSpan([bold(2, 4)], 2, 4, "strong")).toEqual([]);
  });
  it("does nothing without a selection", () => {
    expect(toggleSpan([bold(0, 1)], 3, 3, "strong")).toEqual([bold(0, 1)]);
  });
  it("replaces a link over the same text with the new target", () => {
    const old = { start: 0, end: 3, type: "hyperlink", data: { link_type: "Web", url: "https://a.example" } };
    const next = toggleSpan([old], 0, 3, "hyperlink", { link_type: "Web", url: "https://b.example" });
    expect(next).toEqual([{ start: 0, end: 3, type: "hyperlink", data: { link_type: "Web", url: "https://b.example" } }]);
  });
  it("keeps spans in reading order", () => {
    expect(toggleSpan([bold(5, 6)], 1, 2, "em").map((s) => s.start)).toEqual([1, 5]);
  });
});

describe("plainText and link addresses", () => {
  it("joins the text of text blocks only", () => {
    expect(plainText([{ type: "heading1", text: "A", spans: [] }, { type: "image", url: "x" }, { type: "paragraph", text: "B", spans: [] }])).toBe("A B");
    expect(plainText(null)).toBe("");
  });
  it.each([
    ["https://example.org/page", true],
    ["http://example.org", true],
    ["mailto:office@example.org", true],
    ["tel:+44 20 7251 8799", true],
    ["javascript:alert(1)", false],
    ["example.org", false],
    ["https://", false],
    ["", false],
  ])("%s → %s", (url, ok) => {
    expect(validLinkUrl(url)).toBe(ok);
  });
});
