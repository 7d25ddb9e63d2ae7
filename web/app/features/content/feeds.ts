// News feeds (RSS 2.0 and Atom 1.0) and the XML sitemap, as plain strings.

export interface FeedItem {
  id: string;
  title: string;
  /** Absolute URL. */
  url: string;
  /** Date or timestamp of the item. */
  date: Date | null;
  summary: string;
}

export interface Feed {
  title: string;
  description: string;
  /** Absolute URL of the site page the feed mirrors. */
  siteUrl: string;
  /** Absolute URL of the feed itself. */
  feedUrl: string;
  updated: Date;
  items: FeedItem[];
}

export function escapeXml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

export function buildRss(feed: Feed): string {
  const items = feed.items
    .map((item) =>
      [
        "    <item>",
        `      <title>${escapeXml(item.title)}</title>`,
        `      <link>${escapeXml(item.url)}</link>`,
        `      <guid isPermaLink="true">${escapeXml(item.url)}</guid>`,
        item.date ? `      <pubDate>${item.date.toUTCString()}</pubDate>` : null,
        item.summary ? `      <description>${escapeXml(item.summary)}</description>` : null,
        "    </item>",
      ]
        .filter(Boolean)
        .join("\n"),
    )
    .join("\n");
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">',
    "  <channel>",
    `    <title>${escapeXml(feed.title)}</title>`,
    `    <link>${escapeXml(feed.siteUrl)}</link>`,
    `    <description>${escapeXml(feed.description)}</description>`,
    "    <language>en-gb</language>",
    `    <lastBuildDate>${feed.updated.toUTCString()}</lastBuildDate>`,
    `    <atom:link href="${escapeXml(feed.feedUrl)}" rel="self" type="application/rss+xml"/>`,
    items,
    "  </channel>",
    "</rss>",
    "",
  ]
    .filter((line) => line !== "")
    .join("\n")
    .concat("\n");
}

export function buildAtom(feed: Feed): string {
  const entries = feed.items
    .map((item) => {
      const updated = (item.date ?? feed.updated).toISOString();
      return [
        "  <entry>",
        `    <title>${escapeXml(item.title)}</title>`,
        `    <link href="${escapeXml(item.url)}"/>`,
        `    <id>${escapeXml(item.url)}</id>`,
        `    <updated>${updated}</updated>`,
        item.summary ? `    <summary>${escapeXml(item.summary)}</summary>` : null,
        "  </entry>",
      ]
        .filter(Boolean)
        .join("\n");
    })
    .join("\n");
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en-GB">',
    `  <title>${escapeXml(feed.title)}</title>`,
    `  <subtitle>${escapeXml(feed.description)}</subtitle>`,
    `  <link href="${escapeXml(feed.siteUrl)}"/>`,
    `  <link href="${escapeXml(feed.feedUrl)}" rel="self" type="application/atom+xml"/>`,
    `  <id>${escapeXml(feed.feedUrl)}</id>`,
    `  <updated>${feed.updated.toISOString()}</updated>`,
    `  <author><name>${escapeXml(feed.title)}</name></author>`,
    entries,
    "</feed>",
  ]
    .filter((line) => line !== "")
    .join("\n")
    .concat("\n");
}

export interface SitemapEntry {
  /** Absolute URL. */
  loc: string;
  lastmod?: Date | null;
}

export function buildSitemap(entries: SitemapEntry[]): string {
  const seen = new Set<string>();
  const urls: string[] = [];
  for (const entry of entries) {
    if (seen.has(entry.loc)) continue;
    seen.add(entry.loc);
    urls.push(
      `  <url><loc>${escapeXml(entry.loc)}</loc>${entry.lastmod ? `<lastmod>${entry.lastmod.toISOString()}</lastmod>` : ""}</url>`,
    );
  }
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    "</urlset>",
    "",
  ].join("\n");
}
