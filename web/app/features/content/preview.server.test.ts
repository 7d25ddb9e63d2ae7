import { describe, expect, it } from "vitest";
import { isLocalPath, previewCookie, previewCookieValue } from "./preview.server";

describe("preview helpers", () => {
  it("accepts only local paths", () => {
    expect(isLocalPath("/news/a")).toBe(true);
    expect(isLocalPath("/")).toBe(true);
    expect(isLocalPath("//evil.example")).toBe(false);
    expect(isLocalPath("/\\evil.example")).toBe(false);
    expect(isLocalPath("https://evil.example")).toBe(false);
    expect(isLocalPath("/a\nb")).toBe(false);
    expect(isLocalPath(null)).toBe(false);
  });

  it("stores the token verbatim but for characters a cookie cannot hold", () => {
    expect(previewCookieValue("https://cms.example/previews/abc?websitePreviewId=x")).toBe(
      "https://cms.example/previews/abc?websitePreviewId=x",
    );
    expect(previewCookieValue("a;b")).toBe("a%3Bb");
    expect(previewCookieValue("a b")).toBe("a%20b");
  });

  it("sets and clears the io.prismic.preview cookie", () => {
    const request = new Request("http://localhost:8080/preview");
    expect(previewCookie(request, "tok")).toBe("io.prismic.preview=tok; Path=/; Max-Age=1800; SameSite=Lax; HttpOnly");
    expect(previewCookie(request, null)).toContain("Max-Age=0");
  });
});
