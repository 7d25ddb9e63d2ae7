// /sog-events/join: how to join an event and the Society. The page document
// with uid `sog-events-join` (the link resolver places it here); without one,
// 404 like any other missing page.
import { asText } from "@prismicio/client";
import type { Route } from "./+types/events-join";
import { Article } from "../features/content/Article";
import { Breadcrumbs } from "../components/Breadcrumbs";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { createContentClient, getPage, requireDocument } from "../features/content/content.server";
import { EVENTS_PATH } from "../features/events/events";
import { EVENTS_JOIN_UID } from "../features/content/link-resolver";
import { routeMeta } from "../lib/seo";
import { pageSeo } from "../lib/site.server";
import type { AuthHandle } from "../features/auth/access";

// Public: anyone may read it (features/auth/access.ts; the default is sign-in required).
export const handle: AuthHandle = { auth: false };

export async function loader({ request, url }: Route.LoaderArgs) {
  const doc = requireDocument(await getPage(createContentClient(request), EVENTS_JOIN_UID));
  const title = asText(doc.data.title).trim() || "How to join";
  return {
    title,
    body: doc.data.body,
    seo: pageSeo({ request, url }, { title, description: doc.data.description ?? null }),
  };
}

export const meta: Route.MetaFunction = routeMeta;

export default function EventsJoin({ loaderData }: Route.ComponentProps) {
  return (
    <Article
      title={loaderData.title}
      body={loaderData.body}
      kicker={<Breadcrumbs items={[{ to: "/", label: "Home" }, { to: EVENTS_PATH, label: "Events" }]} />}
    />
  );
}

export { RouteErrorBoundary as ErrorBoundary };
