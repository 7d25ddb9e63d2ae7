// /research-hub/our-collections/memorial-cards/:slug? — without a slug every
// memorial-card collection with the cards' filter (surname, given names, year
// ±, place, collections) and the cards found; with one, that memorial-card
// collection's page. The slug is a collection's slug, not a card's: each card
// (a record) has one page, /research-hub/our-collections/records/{id}
// (docs/web.md, "Research hub: collections and MultiSelect").
import type { Route } from "./+types/research-memorial-cards";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { KindRoutePage } from "../features/research/collections/KindPage";
import { MEMORIAL_CARDS_PATH } from "../features/research/collections/model";
import { type KindRoute, kindLoader } from "../features/research/collections/pages.server";
import { routeMeta } from "../lib/seo";
import type { AuthHandle } from "../features/auth/access";

// Public: anyone may read it (features/auth/access.ts; the default is sign-in required).
export const handle: AuthHandle = { auth: false };

const ROUTE: KindRoute = {
  kind: "memorial_cards",
  browse: true,
  title: "Memorial cards",
  description: "Search the society's funeral and memorial cards by name, year and place.",
};

export async function loader(args: Route.LoaderArgs) {
  return kindLoader(ROUTE, args);
}

export const meta: Route.MetaFunction = routeMeta;

export default function MemorialCards({ loaderData }: Route.ComponentProps) {
  return (
    <KindRoutePage
      loaderData={loaderData}
      title={ROUTE.title}
      path={MEMORIAL_CARDS_PATH}
      intro={<p>Funeral and memorial cards given to the society, transcribed with the name, date and place of each person remembered.</p>}
      formHeading="Find a memorial card"
      browseCaption="Memorial cards, by date"
    />
  );
}

export { RouteErrorBoundary as ErrorBoundary };
