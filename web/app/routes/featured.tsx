import { asText } from "@prismicio/client";
import type { Route } from "./+types/featured";
import { Article } from "../features/content/Article";
import { Breadcrumbs } from "../components/Breadcrumbs";
import { CardList } from "../features/content/CardList";
import { ContentUnavailable } from "../components/ContentUnavailable";
import { Pagination } from "../components/Pagination";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { bookmarkState } from "../features/members/api.server";
import { BookmarkToggle } from "../features/members/BookmarkToggle";
import { toCard } from "../features/content/cards";
import { createContentClient, pageUnavailable, getFeaturedItem, getFeaturedItems, requireDocument } from "../features/content/content.server";
import { parsePageParam } from "../lib/paging";
import { routeMeta } from "../lib/seo";
import { articleSeo, pageSeo } from "../lib/site.server";
import type { AuthHandle } from "../features/auth/access";

const BASE = "/education/learning-hub/featured";
const TRAIL = [
  { to: "/", label: "Home" },
  { to: "/education", label: "Education" },
];

// Public: anyone may read it (features/auth/access.ts; the default is sign-in required).
export const handle: AuthHandle = { auth: false };

export async function loader({ request, params, url, context }: Route.LoaderArgs) {
  const client = createContentClient(request);
  if (params.slug) {
    const bookmark = bookmarkState(context, url.pathname);
    const doc = requireDocument(await getFeaturedItem(client, params.slug));
    const title = asText(doc.data.title).trim() || doc.uid || "Featured";
    return {
      kind: "item" as const,
      title,
      summary: doc.data.summary,
      image: doc.data.image,
      body: doc.data.body,
      seo: articleSeo({ request, url }, title, doc.data.summary, { image: doc.data.image?.url ?? null }),
      bookmark: await bookmark,
    };
  }
  const page = parsePageParam(url.searchParams.get("page"));
  if (page === null) throw new Response("This page could not be found", { status: 404 });
  const list = await getFeaturedItems(client, page, 12);
  if (!list.unavailable && page > 1 && page > list.value.totalPages) {
    throw new Response("This page could not be found", { status: 404 });
  }
  return {
    kind: "list" as const,
    title: "Featured learning",
    cards: list.value.results.map(toCard),
    page,
    totalPages: list.value.totalPages,
    unavailable: pageUnavailable(context, list.unavailable),
    seo: pageSeo({ request, url }, { title: "Featured learning", description: "Featured items from the learning hub." }, ["page"]),
  };
}

export const meta: Route.MetaFunction = routeMeta;

export default function Featured({ loaderData }: Route.ComponentProps) {
  if (loaderData.kind === "item") {
    return (
      <Article
        title={loaderData.title}
        summary={loaderData.summary}
        image={loaderData.image}
        body={loaderData.body}
        actions={<BookmarkToggle state={loaderData.bookmark} title={loaderData.title} />}
        kicker={<Breadcrumbs items={[...TRAIL, { to: BASE, label: "Featured learning" }]} />}
      />
    );
  }
  return (
    <>
      <Breadcrumbs items={TRAIL} />
      <h1>{loaderData.title}</h1>
      <ContentUnavailable show={loaderData.unavailable} />
      <CardList cards={loaderData.cards} empty="No featured learning items yet." />
      <Pagination page={loaderData.page} totalPages={loaderData.totalPages} basePath={BASE} label="Featured learning pages" />
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
