import { asText } from "@prismicio/client";
import type { Route } from "./+types/news-item";
import { Article } from "../features/content/Article";
import { Breadcrumbs } from "../components/Breadcrumbs";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { bookmarkState } from "../features/members/api.server";
import { BookmarkToggle } from "../features/members/BookmarkToggle";
import { createContentClient, getNewsItem, requireDocument } from "../features/content/content.server";
import { routeMeta } from "../lib/seo";
import { articleSeo } from "../lib/site.server";
import type { AuthHandle } from "../features/auth/access";

// Public: anyone may read it (features/auth/access.ts; the default is sign-in required).
export const handle: AuthHandle = { auth: false };

export async function loader({ request, params, url, context }: Route.LoaderArgs) {
  const bookmark = bookmarkState(context, url.pathname);
  const doc = requireDocument(await getNewsItem(createContentClient(request), params.slug));
  const title = asText(doc.data.title).trim() || doc.uid || "News";
  return {
    title,
    date: doc.data.date,
    image: doc.data.image,
    summary: doc.data.summary,
    body: doc.data.body,
    seo: articleSeo({ request, url }, title, doc.data.summary, { image: doc.data.image?.url ?? null }),
    bookmark: await bookmark,
  };
}

export const meta: Route.MetaFunction = routeMeta;

export default function NewsItem({ loaderData }: Route.ComponentProps) {
  return (
    <Article
      {...loaderData}
      actions={<BookmarkToggle state={loaderData.bookmark} title={loaderData.title} />}
      kicker={<Breadcrumbs items={[{ to: "/", label: "Home" }, { to: "/news", label: "News" }]} />}
    />
  );
}

export { RouteErrorBoundary as ErrorBoundary };
