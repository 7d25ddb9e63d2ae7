// The archive's RSS feed: its address and its items (the route renders them with the
// site's RSS writer, features/content/feeds.ts).
import type { ArchivedEditionSummary } from "./types";

export const NEWSLETTER_FEED = "/feeds/newsletter.xml";

/** The head link of pages that offer the feed. */
export const newsletterFeedLink = { rel: "alternate", type: "application/rss+xml", title: "Newsletters (RSS)", href: NEWSLETTER_FEED } as const;

export interface NewsletterFeedItem {
  id: string;
  title: string;
  url: string;
  date: Date | null;
  summary: string;
}

/** One feed item per edition, newest first, linking to its archive page. */
export function newsletterFeedItems(editions: readonly ArchivedEditionSummary[], origin: string): NewsletterFeedItem[] {
  return [...editions]
    .map((e) => {
      const date = new Date(e.sent_at);
      return {
        id: String(e.id),
        title: e.subject,
        url: `${origin}/newsletter/${e.id}`,
        date: Number.isNaN(date.getTime()) ? null : date,
        summary: e.list_name && e.summary ? `${e.list_name}: ${e.summary}` : e.summary || e.list_name,
      };
    })
    .sort((a, b) => (b.date?.getTime() ?? 0) - (a.date?.getTime() ?? 0));
}
