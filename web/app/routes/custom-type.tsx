// /fhwuifhe, /fhwuifhe/:slug, /cwbhvwt/:slug?, /dheyenbvu: documents of the
// custom type named after the route's first segment (seed-spec §2 gives no
// purpose for them). Without a slug the route lists them; with one it shows one.
// /dheyenbvu has no slug route, so its list shows every document in full.
// The route names are code names: each list takes its heading, introduction and
// title from the `page` that heads it (CUSTOM_TYPE_LISTINGS), else the type's label.
import { asText } from "@prismicio/client";
import { useLoaderData, type LoaderFunctionArgs, type MetaFunction } from "react-router";
import { Article } from "../features/content/Article";
import { Breadcrumbs } from "../components/Breadcrumbs";
import { CardList } from "../features/content/CardList";
import { ContentUnavailable } from "../components/ContentUnavailable";
import { Pagination } from "../components/Pagination";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { bookmarkState } from "../features/members/api.server";
import { BookmarkToggle } from "../features/members/BookmarkToggle";
import { toCard } from "../features/content/cards";
import { createContentClient, pageUnavailable, getCustomTypeItem, getCustomTypeList, getPage, requireDocument } from "../features/content/content.server";
import type { CustomTypeName } from "../features/content/content-types";
import { CUSTOM_TYPE_LISTINGS, ROUTED_CUSTOM_TYPES, SINGLE_PAGE_CUSTOM_TYPES } from "../features/content/link-resolver";
import { Body } from "../features/content/Body";
import { RichText } from "../features/content/RichText";
import { parsePageParam } from "../lib/paging";
import { routeMeta } from "../lib/seo";
import { articleSeo, pageSeo } from "../lib/site.server";
import type { AuthHandle } from "../features/auth/access";

function typeOf(url: URL): CustomTypeName {
  const first = url.pathname.split("/")[1] ?? "";
  if (!ROUTED_CUSTOM_TYPES.includes(first)) throw new Response("This page could not be found", { status: 404 });
  return first as CustomTypeName;
}

/** The page heading the type's list: its title (else the type's label), description and body. */
async function listingOf(client: ReturnType<typeof createContentClient>, type: CustomTypeName) {
  const listing = CUSTOM_TYPE_LISTINGS[type]!;
  const doc = (await getPage(client, listing.uid)).value;
  return {
    title: (doc && asText(doc.data.title).trim()) || listing.label,
    description: doc?.data.description?.trim() || null,
    body: doc?.data.body ?? [],
  };
}

// Public: anyone may read it (features/auth/access.ts; the default is sign-in required).
export const handle: AuthHandle = { auth: false };

export async function loader({ request, params, url, context }: LoaderFunctionArgs) {
  const type = typeOf(url);
  const client = createContentClient(request);
  if (params.slug) {
    const bookmark = bookmarkState(context, url.pathname);
    const [item, listing] = await Promise.all([getCustomTypeItem(client, type, params.slug), listingOf(client, type)]);
    const doc = requireDocument(item);
    const title = asText(doc.data.title).trim() || doc.uid || listing.title;
    return {
      kind: "item" as const,
      type,
      listingTitle: listing.title,
      title,
      summary: doc.data.summary,
      body: doc.data.body,
      seo: articleSeo({ request, url }, title, doc.data.summary),
      bookmark: await bookmark,
    };
  }
  const page = parsePageParam(url.searchParams.get("page"));
  if (page === null) throw new Response("This page could not be found", { status: 404 });
  const [list, listing] = await Promise.all([getCustomTypeList(client, type, page), listingOf(client, type)]);
  if (!list.unavailable && page > 1 && page > list.value.totalPages) {
    throw new Response("This page could not be found", { status: 404 });
  }
  const inFull = SINGLE_PAGE_CUSTOM_TYPES.includes(type);
  return {
    kind: "list" as const,
    type,
    title: listing.title,
    intro: listing.body,
    cards: inFull ? [] : list.value.results.map(toCard),
    documents: inFull
      ? list.value.results.map((doc) => ({
          id: doc.id,
          uid: doc.uid ?? doc.id,
          title: asText(doc.data.title).trim() || doc.uid || doc.id,
          summary: doc.data.summary,
          body: doc.data.body,
        }))
      : [],
    page,
    totalPages: list.value.totalPages,
    unavailable: pageUnavailable(context, list.unavailable),
    seo: pageSeo(
      { request, url },
      { title: page > 1 ? `${listing.title}, page ${page}` : listing.title, description: listing.description },
      ["page"],
    ),
  };
}

export const meta: MetaFunction<typeof loader> = routeMeta;

export default function CustomTypePage() {
  const data = useLoaderData<typeof loader>();
  if (data.kind === "item") {
    return (
      <Article
        title={data.title}
        summary={data.summary}
        body={data.body}
        actions={<BookmarkToggle state={data.bookmark} title={data.title} />}
        kicker={<Breadcrumbs items={[{ to: "/", label: "Home" }, { to: `/${data.type}`, label: data.listingTitle }]} />}
      />
    );
  }
  return (
    <>
      <h1>{data.title}</h1>
      <Body slices={data.intro} />
      <ContentUnavailable show={data.unavailable} />
      {data.documents.length > 0 ? (
        data.documents.map((doc) => (
          <article key={doc.id} id={doc.uid} className="article section" aria-labelledby={`${doc.uid}-title`}>
            <h2 id={`${doc.uid}-title`}>{doc.title}</h2>
            {doc.summary?.length ? (
              <div className="lead">
                <RichText field={doc.summary} />
              </div>
            ) : null}
            <Body slices={doc.body} />
          </article>
        ))
      ) : (
        <CardList cards={data.cards} empty="There is nothing here yet." />
      )}
      <Pagination page={data.page} totalPages={data.totalPages} basePath={`/${data.type}`} label="Pages" />
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
