import type { Route } from "./+types/feeds.news-rss";
import { buildRss } from "../features/content/feeds";
import { newsFeed } from "../features/content/news-feed.server";
import type { AuthHandle } from "../features/auth/access";

// Public: anyone may read it (features/auth/access.ts; the default is sign-in required).
export const handle: AuthHandle = { auth: false };

export async function loader({ request }: Route.LoaderArgs) {
  const feed = await newsFeed(request, "/feeds/news.xml");
  return new Response(buildRss(feed), {
    headers: { "Content-Type": "application/rss+xml; charset=utf-8", "Cache-Control": "public, max-age=300" },
  });
}
