// /research-hub/our-collections/memorial-cards/:slug? — without a slug every
// memorial-card collection with the cards' filter (surname, given names, year
// ±, place, collections) and the cards found; with one, that memorial-card
// collection's page. The slug is a collection's slug, not a card's: each card
// (a record) has one page, /research-hub/our-collections/records/{id}
// (docs/web.md, "Research hub: collections and MultiSelect").
import type { Route } from "./+types/research-memorial-cards";
import { RouteErrorBoundary } from "../components/RouteErrorBoundary";
import { CollectionPage, HUB_TRAIL } from "../features/research/collections/CollectionPage";
import { KindPage } from "../features/research/collections/KindPage";
import { MEMORIAL_CARDS_PATH, countText } from "../features/research/collections/model";
import { loadCollectionPage, loadKindPage } from "../features/research/collections/pages.server";
import { routeMeta } from "../lib/seo";
import { pageSeo } from "../lib/site.server";
import type { AuthHandle } from "../lib/auth/access";

// Public: anyone may read it (lib/auth/access.ts; the default is sign-in required).
export const handle: AuthHandle = { auth: false };

const TITLE = "Memorial cards";

export async function loader({ request, params, url, context }: Route.LoaderArgs) {
  if (params.slug !== undefined) {
    const data = await loadCollectionPage(context, url, params.slug, ["memorial_cards"]);
    const c = data.detail.collection;
    return { kind: "collection" as const, ...data, seo: pageSeo({ request, url }, { title: c.title, description: c.description || `${c.title}: ${countText(c)}.` }) };
  }
  const data = await loadKindPage(context, url, "memorial_cards", true);
  return {
    kind: "list" as const,
    ...data,
    seo: pageSeo({ request, url }, { title: TITLE, description: "Search the society's funeral and memorial cards by name, year and place." }),
  };
}

export const meta: Route.MetaFunction = routeMeta;

export default function MemorialCards({ loaderData }: Route.ComponentProps) {
  if (loaderData.kind === "collection") {
    const { detail, form, asked, outcome } = loaderData;
    return (
      <CollectionPage
        detail={detail}
        path={`${MEMORIAL_CARDS_PATH}/${encodeURIComponent(detail.collection.slug)}`}
        trail={[...HUB_TRAIL, { to: MEMORIAL_CARDS_PATH, label: TITLE }]}
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
      intro={<p>Funeral and memorial cards given to the society, transcribed with the name, date and place of each person remembered.</p>}
      trail={HUB_TRAIL}
      path={MEMORIAL_CARDS_PATH}
      collections={collections}
      formHeading="Find a memorial card"
      fields={null}
      form={form}
      asked={asked}
      outcome={outcome}
      browseCaption="Memorial cards, by date"
    />
  );
}

export { RouteErrorBoundary as ErrorBoundary };
