import type { Route } from "./+types/feeds.newsletter-rss";
import { buildRss } from "../features/content/feeds";
import { loadArchive } from "../features/newsletter/api.server";
import { NEWSLETTER_FEED, newsletterFeedItems } from "../features/newsletter/feed";
import type { AuthHandle } from "../features/auth/access";
import { SITE_NAME } from "../lib/seo";
import { publicOrigin } from "../lib/site.server";

// Public: anyone may read it (features/auth/access.ts; the default is sign-in required).
export const handle: AuthHandle = { auth: false };

export async function loader({ request, context }: Route.LoaderArgs) {
  const editions = await loadArchive(context);
  // An empty feed would tell readers there are no newsletters: say the archive is away instead.
  if (editions === null) return new Response("The newsletters feed is unavailable just now", { status: 503, headers: { "Retry-After": "300" } });
  const origin = publicOrigin(request);
  const items = newsletterFeedItems(editions, origin);
  const xml = buildRss({
    title: `${SITE_NAME} newsletters`,
    description: "Past newsletters of the society.",
    siteUrl: `${origin}/newsletter`,
    feedUrl: `${origin}${NEWSLETTER_FEED}`,
    updated: items[0]?.date ?? new Date(0),
    items,
  });
  return new Response(xml, { headers: { "Content-Type": "application/rss+xml; charset=utf-8", "Cache-Control": "public, max-age=300" } });
}
