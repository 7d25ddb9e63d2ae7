import { describe, expect, it } from "vitest";
import { safeRedirect, validRedirect } from "./redirect";

// The same cases as internal/auth/redirect_test.go (TestValidRedirect), plus a few
// more; keep the two lists in step.
const good = [
  "/",
  "/news",
  "/news/annual-meeting",
  "/research-hub/our-collections/family-trees/",
  "/user-account?tab=bookmarks",
  "/research-hub/our-collections/searchexplore?surname=Smith&county=Kent&page=2",
  "/learn/guides/how-to-use-census-records#searching",
  "/news?x=1#top",
  "/@society/~archive/v1.2:draft_x",
  "/caf%C3%A9", // an encoded UTF-8 slug
  "/search?q=a%2Fb", // an encoded slash in the query is only data
  "/search?next=//evil", // a query value is not a place to go
  "/a-b_c~d.e",
  "/news/" + "a".repeat(100),
  "/news#",
  "/news?",
  "/a%20b",
];

const bad: [string, unknown][] = [
  ["empty", ""],
  ["not a string", undefined],
  ["a number", 42],
  ["protocol-relative", "//evil.example"],
  ["protocol-relative with path", "//evil.example/news"],
  ["triple slash", "///evil.example"],
  ["absolute https", "https://evil.example/"],
  ["scheme only", "https:"],
  ["javascript", "javascript:alert(1)"],
  ["data", "data:text/html,<script>alert(1)</script>"],
  ["relative", "news/annual-meeting"],
  ["backslash host", "/\\evil.example"],
  ["backslashes", "\\\\evil.example"],
  ["backslash inside", "/news\\..\\evil"],
  ["encoded slash", "/%2F%2Fevil.example"],
  ["encoded slash lower", "/%2fevil.example"],
  ["encoded backslash", "/%5Cevil.example"],
  ["double encoded slash", "/%252F%252Fevil.example"],
  ["encoded dot segment", "/%2e%2e/admin"],
  ["dot segment", "/news/../admin"],
  ["single dot segment", "/./news"],
  ["empty segment", "/news//x"],
  ["tab", "/\tevil.example"],
  ["newline", "/news\nLocation: https://evil.example"],
  ["carriage return", "/news\r"],
  ["nul", "/news\x00"],
  ["encoded nul", "/news%00"],
  ["encoded control", "/news%0d%0aSet-Cookie:x=y"],
  ["space", "/news item"],
  ["broken escape", "/news%2"],
  ["broken escape at the end", "/news%"],
  ["bad hex", "/news%zz"],
  ["invalid utf-8 escape", "/%C3%28"],
  ["raw non-ascii", "/café"],
  ["angle brackets", "/<script>"],
  ["quote", '/news"onload'],
  ["control in query", "/news?x=\x01"],
  ["space in query", "/news?x=a b"],
  ["backslash in query", "/news?x=\\"],
  ["encoded percent in query", "/news?x=%25"],
  ["hash in fragment", "/news#a#b"],
  ["encoded control in fragment", "/news#%0a"],
  ["at-host", "@evil.example"],
  ["too long", "/" + "a".repeat(3000)],
  ["unicode slash", "/\u2215evil.example"],
  ["fullwidth slash", "/\uff0fevil.example"],
  ["encoded percent in path", "/%25"],
  ["encoded dot", "/news%2e"],
];

describe("validRedirect", () => {
  it.each(good)("accepts %j", (target) => {
    expect(validRedirect(target)).toBe(true);
  });

  it.each(bad)("refuses %s", (_name, target) => {
    expect(validRedirect(target)).toBe(false);
  });

  it("keeps at least 20 bad cases", () => {
    expect(bad.length).toBeGreaterThanOrEqual(20);
  });

  it("accepts exactly 2048 characters and no more", () => {
    expect(validRedirect("/" + "a".repeat(2047))).toBe(true);
    expect(validRedirect("/" + "a".repeat(2048))).toBe(false);
  });

  it("never accepts a target a browser resolves to another origin", () => {
    const base = new URL("https://lineage.example.org/some/page");
    const samples = [...good, ...bad.map(([, t]) => t)].filter((t): t is string => typeof t === "string");
    // A cheap stand-in for Go's fuzz test: mutate the samples and check the property.
    const extra = "/\\%.?#:@ 2Fe5C";
    for (const sample of samples) {
      for (let i = 0; i < Math.min(sample.length + 1, 40); i++) {
        for (const ch of extra) {
          const s = sample.slice(0, i) + ch + sample.slice(i);
          if (!validRedirect(s)) continue;
          const resolved = new URL(s, base);
          expect(resolved.origin, s).toBe(base.origin);
          expect(s.startsWith("//"), s).toBe(false);
          expect(/[\\\s]/.test(s), s).toBe(false);
        }
      }
    }
  });
});

describe("safeRedirect", () => {
  it("returns valid targets and falls back otherwise", () => {
    expect(safeRedirect("/news")).toBe("/news");
    expect(safeRedirect("//evil.example")).toBe("/");
    expect(safeRedirect(null, "/user-account")).toBe("/user-account");
  });
});
