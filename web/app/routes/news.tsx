import type { Route } from "./+types/news";
import { CardList } from "../features/content/CardList";
import { ContentUnavailable } from "../components/ContentUnavailable";
import { Pagination } from "../components/Pagination";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { toCard } from "../features/content/cards";
import { createContentClient, pageUnavailable, getNewsPage } from "../features/content/content.server";
import { parsePageParam } from "../lib/paging";
import { routeMeta } from "../lib/seo";
import { pageSeo } from "../lib/site.server";
import type { AuthHandle } from "../features/auth/access";

// Public: anyone may read it (features/auth/access.ts; the default is sign-in required).
export const handle: AuthHandle = { auth: false };

export async function loader({ request, url, context }: Route.LoaderArgs) {
  const page = parsePageParam(url.searchParams.get("page"));
  if (page === null) throw new Response("This page could not be found", { status: 404 });
  const news = await getNewsPage(createContentClient(request), page);
  const { totalPages } = news.value;
  if (!news.unavailable && page > 1 && page > totalPages) {
    throw new Response("This page could not be found", { status: 404 });
  }
  return {
    cards: news.value.results.map(toCard),
    page,
    totalPages,
    unavailable: pageUnavailable(context, news.unavailable),
    seo: pageSeo(
      { request, url },
      { title: page > 1 ? `News, page ${page}` : "News", description: "News from the society." },
      ["page"],
    ),
  };
}

export const meta: Route.MetaFunction = routeMeta;

export default function News({ loaderData }: Route.ComponentProps) {
  const { cards, page, totalPages, unavailable } = loaderData;
  return (
    <>
      <h1>News</h1>
      <ContentUnavailable show={unavailable} />
      <CardList cards={cards} empty="There is no news yet." />
      <Pagination page={page} totalPages={totalPages} basePath="/news" label="News pages" />
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
