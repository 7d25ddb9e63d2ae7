// The catch-all for content pages of one to six segments. It finds the `page`
// whose uid is the last segment and shows it only when the link resolver puts
// that page at exactly the requested path; otherwise: 404.
import { asText } from "@prismicio/client";
import type { Route } from "./+types/content-page";
import { Article } from "../features/content/Article";
import { Breadcrumbs, type Crumb } from "../components/Breadcrumbs";
import { CardList } from "../features/content/CardList";
import { ContentUnavailable } from "../components/ContentUnavailable";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { bookmarkState } from "../features/members/api.server";
import { BookmarkToggle } from "../features/members/BookmarkToggle";
import { toCard } from "../features/content/cards";
import { createContentClient, pageUnavailable, getPage, getPagesByUIDs, requireDocument } from "../features/content/content.server";
import { linkResolver, normalisePath, SECTION_INDEXES } from "../features/content/link-resolver";
import { routeMeta } from "../lib/seo";
import { pageSeo } from "../lib/site.server";
import type { AuthHandle } from "../features/auth/access";

/**
 * First segments the Go server owns (API, content API, media, assets, IIIF,
 * viewer). They never name a page; answering 404 at once also keeps a
 * misrouted content-API request from calling itself through the catch-all.
 */
const RESERVED_FIRST_SEGMENTS = new Set(["api", "content", "media", "assets", "uv", "iiif", "feeds", "healthz", "readyz"]);

const notFound = () => new Response("This page could not be found", { status: 404, statusText: "Not Found" });

function crumbsFor(path: string): Crumb[] {
  const crumbs: Crumb[] = [{ to: "/", label: "Home" }];
  const segments = path.split("/").filter(Boolean);
  for (let i = 1; i < segments.length; i++) {
    const ancestor = `/${segments.slice(0, i).join("/")}`;
    const section = SECTION_INDEXES[ancestor];
    if (section) crumbs.push({ to: ancestor, label: section.title });
  }
  return crumbs;
}

// Public: anyone may read it (features/auth/access.ts; the default is sign-in required).
export const handle: AuthHandle = { auth: false };

export async function loader({ request, params, url, context }: Route.LoaderArgs) {
  const segments = [params.s1, params.s2, params.s3, params.s4, params.s5, params.s6].filter(
    (s): s is string => typeof s === "string" && s.length > 0,
  );
  const uid = segments[segments.length - 1];
  if (!uid || RESERVED_FIRST_SEGMENTS.has(segments[0]!)) throw notFound();
  const path = normalisePath(url.pathname);
  const section = SECTION_INDEXES[path];

  const client = createContentClient(request);
  const [page, children] = await Promise.all([
    getPage(client, uid),
    section ? getPagesByUIDs(client, section.uids) : Promise.resolve({ value: [], unavailable: false }),
  ]);

  const doc = page.value;
  if (doc) {
    const resolved = linkResolver(doc);
    if (!resolved || normalisePath(resolved) !== path) throw notFound();
  } else if (!section || page.unavailable) {
    requireDocument(page);
  }

  const title = (doc && asText(doc.data.title).trim()) || section?.title || uid;
  return {
    title,
    body: doc?.data.body ?? [],
    children: children.value.map(toCard),
    isSection: Boolean(section),
    unavailable: pageUnavailable(context, children.unavailable),
    crumbs: crumbsFor(path),
    seo: pageSeo({ request, url }, { title, description: doc?.data.description ?? null }),
    bookmark: await bookmarkState(context, url.pathname),
  };
}

export const meta: Route.MetaFunction = routeMeta;

export default function ContentPage({ loaderData }: Route.ComponentProps) {
  const { title, body, children, isSection, unavailable, crumbs, bookmark } = loaderData;
  return (
    <Article
      title={title}
      body={body}
      kicker={<Breadcrumbs items={crumbs} />}
      actions={<BookmarkToggle state={bookmark} title={title} />}
    >
      {isSection ? (
        <section className="section" aria-label={`${title}: pages`}>
          <ContentUnavailable show={unavailable} />
          <CardList cards={children} empty="There are no pages here yet." />
        </section>
      ) : null}
    </Article>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
