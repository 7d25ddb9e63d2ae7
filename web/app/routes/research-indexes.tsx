// /research-hub/our-collections/indexes/:slug? — without a slug the indexes
// and a search across them; with one, the index's page with its search.
import type { Route } from "./+types/research-indexes";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { KindRoutePage } from "../features/research/collections/KindPage";
import { INDEXES_PATH } from "../features/research/collections/model";
import { type KindRoute, kindLoader } from "../features/research/collections/pages.server";
import { routeMeta } from "../lib/seo";
import type { AuthHandle } from "../features/auth/access";

// Public: anyone may read it (features/auth/access.ts; the default is sign-in required).
export const handle: AuthHandle = { auth: false };

const ROUTE: KindRoute = {
  kind: "index",
  browse: false,
  title: "Indexes",
  description: "Name indexes to wills, apprenticeships and other sources.",
};

export async function loader(args: Route.LoaderArgs) {
  return kindLoader(ROUTE, args);
}

export const meta: Route.MetaFunction = routeMeta;

export default function Indexes({ loaderData }: Route.ComponentProps) {
  return (
    <KindRoutePage
      loaderData={loaderData}
      title={ROUTE.title}
      path={INDEXES_PATH}
      intro={<p>Name indexes compiled by the society&rsquo;s volunteers. Choose an index to search it, or search several at once.</p>}
      formHeading="Search the indexes"
      browseCaption="Index entries, by date"
      advanced
    />
  );
}

export { RouteErrorBoundary as ErrorBoundary };
