import type { Route } from "./+types/sitemap";
import { createContentClient, getAllOfTypes } from "../features/content/content.server";
import { parseContentDate } from "../lib/dates";
import { buildSitemap, type SitemapEntry } from "../features/content/feeds";
import { linkResolver, ROUTED_CUSTOM_TYPES } from "../features/content/link-resolver";
import { publicUrl } from "../lib/site.server";
import type { AuthHandle } from "../features/auth/access";

const STATIC_PATHS = [
  "/",
  "/news",
  "/sog-events",
  "/education",
  "/education/learning-hub/featured",
  ...ROUTED_CUSTOM_TYPES.map((t) => `/${t}`),
  // The research hub's own pages (each collection, tree and record is reached from them).
  ...[
    "",
    "/record-sets",
    "/indexes",
    "/memorial-cards",
    "/birth-briefs",
    "/family-trees",
    "/pedigree-search",
    "/searchexplore",
  ].map((p) => `/research-hub/our-collections${p}`),
  "/image-viewer",
];
// Only types whose pages exist. The `page` sog-events-join resolves to /sog-events/join.
const LISTED_TYPES = ["page", "news_item", "event", "feature_item", ...ROUTED_CUSTOM_TYPES];

// Public: anyone may read it (features/auth/access.ts; the default is sign-in required).
export const handle: AuthHandle = { auth: false };

export async function loader({ request }: Route.LoaderArgs) {
  const docs = await getAllOfTypes(createContentClient(), LISTED_TYPES);
  const entries: SitemapEntry[] = STATIC_PATHS.map((path) => ({ loc: publicUrl(request, path) }));
  // A page that heads a static path's list (CUSTOM_TYPE_LISTINGS) resolves to that path: one entry.
  const seen = new Set(STATIC_PATHS);
  for (const doc of docs.value) {
    const path = linkResolver(doc);
    if (!path || !path.startsWith("/") || path.includes("#") || seen.has(path)) continue;
    seen.add(path);
    entries.push({ loc: publicUrl(request, path), lastmod: parseContentDate(doc.last_publication_date) });
  }
  return new Response(buildSitemap(entries), {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=300" },
  });
}
