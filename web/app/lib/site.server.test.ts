import type { RichTextField } from "@prismicio/client";
import { afterEach, describe, expect, it } from "vitest";
import { articleSeo, canonicalUrl, publicOrigin, publicUrl } from "./site.server";

describe("site URLs", () => {
  afterEach(() => {
    delete process.env.LINEAGE_PUBLIC_URL;
  });

  it("uses LINEAGE_PUBLIC_URL when set", () => {
    process.env.LINEAGE_PUBLIC_URL = "https://lineage.example/";
    const request = new Request("http://127.0.0.1:3000/news");
    expect(publicOrigin(request)).toBe("https://lineage.example");
    expect(publicUrl(request, "/feeds/news.xml")).toBe("https://lineage.example/feeds/news.xml");
  });

  it("falls back to the request's origin", () => {
    expect(publicOrigin(new Request("http://localhost:5173/x"))).toBe("http://localhost:5173");
  });

  it("builds the canonical URL from the normalised URL, not the .data request", () => {
    process.env.LINEAGE_PUBLIC_URL = "https://lineage.example";
    const request = new Request("http://127.0.0.1:3000/news.data?page=2&_routes=routes%2Fnews");
    const url = new URL("http://127.0.0.1:3000/news?page=2&utm_source=x");
    expect(canonicalUrl({ request, url })).toBe("https://lineage.example/news");
    expect(canonicalUrl({ request, url }, ["page"])).toBe("https://lineage.example/news?page=2");
    expect(canonicalUrl({ request, url: new URL("http://x/learn/guides/") })).toBe("https://lineage.example/learn/guides");
    expect(canonicalUrl({ request, url: new URL("http://x/") })).toBe("https://lineage.example/");
  });
});

describe("articleSeo", () => {
  const info = { request: new Request("http://127.0.0.1:3000/news/a"), url: new URL("http://127.0.0.1:3000/news/a?x=1") };
  const paragraph = (text: string): RichTextField => [{ type: "paragraph", text, spans: [] }];

  it("describes an article by its summary's first 300 characters, with an image when given", () => {
    expect(articleSeo(info, "Hello", paragraph("x".repeat(400)), { image: "https://img.example/a.jpg" })).toEqual({
      title: "Hello",
      description: "x".repeat(300),
      image: "https://img.example/a.jpg",
      type: "article",
      url: "http://127.0.0.1:3000/news/a",
    });
  });

  it("has no description for an empty summary and no image unless given", () => {
    const seo = articleSeo(info, "Hello", []);
    expect(seo).toEqual({ title: "Hello", description: null, type: "article", url: "http://127.0.0.1:3000/news/a" });
    expect("image" in seo).toBe(false);
  });
});
