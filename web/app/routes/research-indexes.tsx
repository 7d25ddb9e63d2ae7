// /research-hub/our-collections/indexes/:slug? — without a slug the indexes
// and a search across them; with one, the index's page with its search.
import type { Route } from "./+types/research-indexes";
import { RouteErrorBoundary } from "../components/RouteErrorBoundary";
import { CollectionPage, HUB_TRAIL } from "../features/research/collections/CollectionPage";
import { KindPage } from "../features/research/collections/KindPage";
import { INDEXES_PATH, countText } from "../features/research/collections/model";
import { loadCollectionPage, loadKindPage } from "../features/research/collections/pages.server";
import { routeMeta } from "../lib/seo";
import { pageSeo } from "../lib/site.server";
import type { AuthHandle } from "../lib/auth/access";

// Public: anyone may read it (lib/auth/access.ts; the default is sign-in required).
export const handle: AuthHandle = { auth: false };

const TITLE = "Indexes";

export async function loader({ request, params, url, context }: Route.LoaderArgs) {
  if (params.slug !== undefined) {
    const data = await loadCollectionPage(context, url, params.slug, ["index"]);
    const c = data.detail.collection;
    return { kind: "collection" as const, ...data, seo: pageSeo({ request, url }, { title: c.title, description: c.description || `${c.title}: ${countText(c)}.` }) };
  }
  const data = await loadKindPage(context, url, "index", false);
  return {
    kind: "list" as const,
    ...data,
    seo: pageSeo({ request, url }, { title: TITLE, description: "Name indexes to wills, apprenticeships and other sources." }),
  };
}

export const meta: Route.MetaFunction = routeMeta;

export default function Indexes({ loaderData }: Route.ComponentProps) {
  if (loaderData.kind === "collection") {
    const { detail, form, asked, outcome } = loaderData;
    return (
      <CollectionPage
        detail={detail}
        path={`${INDEXES_PATH}/${encodeURIComponent(detail.collection.slug)}`}
        trail={[...HUB_TRAIL, { to: INDEXES_PATH, label: TITLE }]}
        form={form}
        asked={asked}
        outcome={outcome}
      />
    );
  }
  const { collections, form, asked, outcome } = loaderData;
  return (
    <KindPage
      title={TITLE}
      intro={<p>Name indexes compiled by the society&rsquo;s volunteers. Choose an index to search it, or search several at once.</p>}
      trail={HUB_TRAIL}
      path={INDEXES_PATH}
      collections={collections}
      formHeading="Search the indexes"
      fields={null}
      form={form}
      asked={asked}
      outcome={outcome}
      browseCaption="Index entries, by date"
      advanced
    />
  );
}

export { RouteErrorBoundary as ErrorBoundary };
