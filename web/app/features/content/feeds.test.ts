import { describe, expect, it } from "vitest";
import { buildAtom, buildRss, buildSitemap, escapeXml, type Feed } from "./feeds";

const feed: Feed = {
  title: "Lineage news",
  description: "News from the society",
  siteUrl: "https://lineage.example/news",
  feedUrl: "https://lineage.example/feeds/news.xml",
  updated: new Date("2024-05-02T00:00:00Z"),
  items: [
    {
      id: "N1",
      title: "Births & <deaths>",
      url: "https://lineage.example/news/births",
      date: new Date("2024-05-01T00:00:00Z"),
      summary: "New \"indexes\" online",
    },
  ],
};

describe("feeds", () => {
  it("escapes XML", () => {
    expect(escapeXml(`<a href="x">&'</a>\u0001`)).toBe("&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;");
  });

  it("builds RSS 2.0", () => {
    const xml = buildRss(feed);
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<rss version="2.0"/);
    expect(xml).toContain("<title>Births &amp; &lt;deaths&gt;</title>");
    expect(xml).toContain("<link>https://lineage.example/news/births</link>");
    expect(xml).toContain("<pubDate>Wed, 01 May 2024 00:00:00 GMT</pubDate>");
    expect(xml).toContain('<atom:link href="https://lineage.example/feeds/news.xml" rel="self"');
  });

  it("builds Atom", () => {
    const xml = buildAtom({ ...feed, feedUrl: "https://lineage.example/feeds/news.atom" });
    expect(xml).toContain('<feed xmlns="http://www.w3.org/2005/Atom"');
    expect(xml).toContain("<updated>2024-05-01T00:00:00.000Z</updated>");
    expect(xml).toContain('<link href="https://lineage.example/news/births"/>');
    expect(xml).toContain("<summary>New &quot;indexes&quot; online</summary>");
  });

  it("builds an empty but valid feed", () => {
    expect(buildRss({ ...feed, items: [] })).toContain("</channel>");
    expect(buildAtom({ ...feed, items: [] })).toContain("</feed>");
  });

  it("builds a sitemap without duplicates", () => {
    const xml = buildSitemap([
      { loc: "https://lineage.example/" },
      { loc: "https://lineage.example/news/a", lastmod: new Date("2024-01-01T00:00:00Z") },
      { loc: "https://lineage.example/" },
    ]);
    expect(xml.match(/<url>/g)).toHaveLength(2);
    expect(xml).toContain("<lastmod>2024-01-01T00:00:00.000Z</lastmod>");
  });
});
