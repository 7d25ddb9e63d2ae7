// /research-hub/our-collections/record-sets/:slug? — without a slug the record
// sets and a search across them; with one, the record set's page: its facts
// and a search form offering the fields its record types imply
// (docs/research.md: the collection's `record_types`), with paged results.
import type { Route } from "./+types/research-record-sets";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { KindRoutePage } from "../features/research/collections/KindPage";
import { RECORD_SETS_PATH } from "../features/research/collections/model";
import { type KindRoute, kindLoader } from "../features/research/collections/pages.server";
import { routeMeta } from "../lib/seo";
import type { AuthHandle } from "../features/auth/access";

// Public: anyone may read it (features/auth/access.ts; the default is sign-in required).
export const handle: AuthHandle = { auth: false };

const ROUTE: KindRoute = {
  kind: "record_set",
  browse: false,
  title: "Record sets",
  description: "Parish registers, census returns and other record sets transcribed by the society.",
};

export async function loader(args: Route.LoaderArgs) {
  return kindLoader(ROUTE, args);
}

export const meta: Route.MetaFunction = routeMeta;

export default function RecordSets({ loaderData }: Route.ComponentProps) {
  return (
    <KindRoutePage
      loaderData={loaderData}
      title={ROUTE.title}
      path={RECORD_SETS_PATH}
      intro={<p>Registers and returns transcribed in full. Choose a record set to search it with its own fields, or search several at once.</p>}
      formHeading="Search the record sets"
      browseCaption="Records, by date"
      advanced
    />
  );
}

export { RouteErrorBoundary as ErrorBoundary };
