// /research-hub/our-collections/birth-briefs — the birth-brief collections
// (members' three-generation ancestries), a search over them and the briefs
// found (in date order until the visitor asks for something). A collection
// is chosen with the collection filter (?collection=slug): the route has no slug.
import type { Route } from "./+types/research-birth-briefs";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { HUB_TRAIL } from "../features/research/collections/CollectionPage";
import { KindPage } from "../features/research/collections/KindPage";
import { BIRTH_BRIEFS_PATH, searchFields } from "../features/research/collections/model";
import { loadKindPage } from "../features/research/collections/pages.server";
import { routeMeta } from "../lib/seo";
import { pageSeo } from "../lib/site.server";
import type { AuthHandle } from "../features/auth/access";

// Public: anyone may read it (features/auth/access.ts; the default is sign-in required).
export const handle: AuthHandle = { auth: false };

const TITLE = "Birth briefs";

export async function loader({ request, url, context }: Route.LoaderArgs) {
  const data = await loadKindPage(context, url, "birth_briefs", true);
  return {
    ...data,
    seo: pageSeo({ request, url }, { title: TITLE, description: "Members' birth briefs: three generations of ancestry on one sheet." }, ["collection"]),
  };
}

export const meta: Route.MetaFunction = routeMeta;

export default function BirthBriefs({ loaderData }: Route.ComponentProps) {
  const { collections, form, asked, outcome } = loaderData;
  return (
    <KindPage
      title={TITLE}
      intro={
        <p>
          A birth brief sets out three generations of a member&rsquo;s ancestry on one sheet: the member, their parents and
          their four grandparents, with dates and places.
        </p>
      }
      trail={HUB_TRAIL}
      path={BIRTH_BRIEFS_PATH}
      collections={collections}
      formHeading="Search the birth briefs"
      fields={searchFields(["birth_brief"])}
      form={form}
      asked={asked}
      outcome={outcome}
      browseCaption="Birth briefs, by date"
    />
  );
}

export { RouteErrorBoundary as ErrorBoundary };
