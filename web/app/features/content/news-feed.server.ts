import { asText } from "@prismicio/client";
import { createContentClient, getNewsPage } from "./content.server";
import { parseContentDate } from "../../lib/dates";
import type { Feed } from "./feeds";
import { linkResolver } from "./link-resolver";
import { SITE_NAME } from "../../lib/seo";
import { publicUrl } from "../../lib/site.server";

export const FEED_SIZE = 20;

/** The latest news as a feed; empty (but valid) when the content service is down. */
export async function newsFeed(request: Request, feedPath: string): Promise<Feed> {
  const news = await getNewsPage(createContentClient(), 1, FEED_SIZE);
  const items = news.value.results.map((doc) => ({
    id: doc.id,
    title: asText(doc.data.title).trim() || doc.uid || "News",
    url: publicUrl(request, linkResolver(doc) ?? "/news"),
    date: parseContentDate(doc.data.date) ?? parseContentDate(doc.first_publication_date),
    summary: asText(doc.data.summary).trim(),
  }));
  const newest = items.map((i) => i.date).filter((d): d is Date => d !== null).sort((a, b) => b.getTime() - a.getTime())[0];
  return {
    title: `${SITE_NAME} news`,
    description: `News from ${SITE_NAME}, the genealogy and family history society.`,
    siteUrl: publicUrl(request, "/news"),
    feedUrl: publicUrl(request, feedPath),
    updated: newest ?? new Date(0),
    items,
  };
}
