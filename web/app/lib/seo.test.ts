import { describe, expect, it } from "vitest";
import { pageTitle, routeMeta, seoMeta } from "./seo";

describe("seoMeta", () => {
  it("emits canonical and Open Graph tags", () => {
    const tags = seoMeta({
      title: "News",
      description: "Latest news",
      url: "https://lineage.example/news",
      image: "https://lineage.example/media/a.jpg",
    });
    expect(tags).toContainEqual({ title: "News | Lineage" });
    expect(tags).toContainEqual({ tagName: "link", rel: "canonical", href: "https://lineage.example/news" });
    expect(tags).toContainEqual({ property: "og:url", content: "https://lineage.example/news" });
    expect(tags).toContainEqual({ property: "og:description", content: "Latest news" });
    expect(tags).toContainEqual({ property: "og:image", content: "https://lineage.example/media/a.jpg" });
  });

  it("leaves out what it does not have", () => {
    const tags = seoMeta({ title: "", url: "https://x.test/" });
    expect(tags.find((t) => t.name === "description")).toBeUndefined();
    expect(tags.find((t) => t.property === "og:image")).toBeUndefined();
    expect(pageTitle("")).toBe("Lineage | Genealogy and family history society");
  });
});

describe("routeMeta", () => {
  it("titles error pages", () => {
    expect(routeMeta({ error: { status: 404 } })).toContainEqual({ title: "This page could not be found | Lineage" });
    expect(routeMeta({ error: new Error("x") })).toContainEqual({ title: "Something went wrong | Lineage" });
    expect(routeMeta({ loaderData: { seo: { title: "News", url: "https://x.test/news" } } })).toContainEqual({ title: "News | Lineage" });
  });
});
