// /research-hub/our-collections/record-sets/:slug? — without a slug the record
// sets and a search across them; with one, the record set's page: its facts
// and a search form offering the fields its record types imply
// (docs/research.md: the collection's `record_types`), with paged results.
import type { Route } from "./+types/research-record-sets";
import { RouteErrorBoundary } from "../components/RouteErrorBoundary";
import { CollectionPage, HUB_TRAIL } from "../features/research/collections/CollectionPage";
import { KindPage } from "../features/research/collections/KindPage";
import { RECORD_SETS_PATH, countText } from "../features/research/collections/model";
import { loadCollectionPage, loadKindPage } from "../features/research/collections/pages.server";
import { routeMeta } from "../lib/seo";
import { pageSeo } from "../lib/site.server";
import type { AuthHandle } from "../lib/auth/access";

// Public: anyone may read it (lib/auth/access.ts; the default is sign-in required).
export const handle: AuthHandle = { auth: false };

const TITLE = "Record sets";

export async function loader({ request, params, url, context }: Route.LoaderArgs) {
  if (params.slug !== undefined) {
    const data = await loadCollectionPage(context, url, params.slug, ["record_set"]);
    const c = data.detail.collection;
    return { kind: "collection" as const, ...data, seo: pageSeo({ request, url }, { title: c.title, description: c.description || `${c.title}: ${countText(c)}.` }) };
  }
  const data = await loadKindPage(context, url, "record_set", false);
  return {
    kind: "list" as const,
    ...data,
    seo: pageSeo({ request, url }, { title: TITLE, description: "Parish registers, census returns and other record sets transcribed by the society." }),
  };
}

export const meta: Route.MetaFunction = routeMeta;

export default function RecordSets({ loaderData }: Route.ComponentProps) {
  if (loaderData.kind === "collection") {
    const { detail, form, asked, outcome } = loaderData;
    return (
      <CollectionPage
        detail={detail}
        path={`${RECORD_SETS_PATH}/${encodeURIComponent(detail.collection.slug)}`}
        trail={[...HUB_TRAIL, { to: RECORD_SETS_PATH, label: TITLE }]}
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
      intro={<p>Registers and returns transcribed in full. Choose a record set to search it with its own fields, or search several at once.</p>}
      trail={HUB_TRAIL}
      path={RECORD_SETS_PATH}
      collections={collections}
      formHeading="Search the record sets"
      fields={null}
      form={form}
      asked={asked}
      outcome={outcome}
      browseCaption="Records, by date"
      advanced
    />
  );
}

export { RouteErrorBoundary as ErrorBoundary };
