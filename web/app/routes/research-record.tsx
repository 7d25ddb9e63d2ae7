// /research-hub/our-collections/records/:id: one index record. The API applies the
// paywall: visitors who are not members get the teaser of a members-only record
// (shown with an invitation to join), members the whole record.
import type { Route } from "./+types/research-record";
import { Breadcrumbs } from "../components/Breadcrumbs";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { bookmarkState } from "../features/members/api.server";
import { BookmarkToggle } from "../features/members/BookmarkToggle";
import { ItemScans, type ViewerHandle } from "../features/images";
import { loadRecordScans } from "../features/images/images.server";
import { SEARCH_PATH, recordPath } from "../features/research/search/query";
import { RecordView, recordTitle } from "../features/research/search/RecordView";
import type { AuthHandle } from "../features/auth/access";
import { getRecord } from "../features/research/search/api.server";
import { routeMeta } from "../lib/seo";
import { pageSeo } from "../lib/site.server";

// Public: anyone may read it (features/auth/access.ts; the default is sign-in required).
// The viewer (and UV.js in the head) only when the record's scans are served.
export const handle: AuthHandle & ViewerHandle<Awaited<ReturnType<typeof loader>>> = {
  auth: false,
  showsViewer: (data) => Boolean(data.scans?.viewer),
};

export async function loader({ request, params, url, context }: Route.LoaderArgs) {
  const bookmark = bookmarkState(context, url.pathname);
  const record = await getRecord(context, params.id);
  if (!record) throw new Response("This page could not be found", { status: 404, statusText: "Not Found" });
  // Scans in the image viewer (docs/iiif.md); none for teasers, whose images are withheld.
  const scans = record.teaser ? null : await loadRecordScans(context, record.id);
  const title = recordTitle(record);
  return {
    record,
    title,
    bookmark: await bookmark,
    scans,
    seo: pageSeo({ request, url }, { title, description: `${title}, from ${record.collection.title}.` }),
  };
}

export const meta: Route.MetaFunction = routeMeta;

export default function ResearchRecord({ loaderData }: Route.ComponentProps) {
  const { record, title, bookmark, scans } = loaderData;
  return (
    <div className="container">
      <Breadcrumbs
        items={[
          { to: "/", label: "Home" },
          { to: "/research-hub/our-collections", label: "Our collections" },
          { to: SEARCH_PATH, label: "Search and explore" },
        ]}
      />
      <RecordView
        record={record}
        bookmark={<BookmarkToggle state={bookmark} title={title} />}
        // The image viewer when the record's scans are served; otherwise the references as a list.
        images={scans?.items.length ? <ItemScans scans={scans} returnTo={recordPath(record.id)} /> : undefined}
      />
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
