// /sog-events/join: how to join our events. The page document with uid
// `sog-events-join` (the link resolver places it here; without one, 404 like any
// other missing page), then the upcoming events that take bookings, each with its
// booking state and price.
import { asText } from "@prismicio/client";
import { Link } from "react-router";
import type { Route } from "./+types/events-join";
import { Article } from "../features/content/Article";
import { Breadcrumbs } from "../components/Breadcrumbs";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { createContentClient, getPage, requireDocument } from "../features/content/content.server";
import { EVENTS_PATH } from "../features/events/events";
import { EVENTS_JOIN_UID } from "../features/content/link-resolver";
import { bookPath, eventPath } from "../features/events/booking-paths";
import { fromPriceText, stateBadge } from "../features/events/booking-text";
import { loadBookableEvents } from "../features/events/bookings.server";
import { EventWhen } from "../features/events/EventWhen";
import { formatTimeRange } from "../features/events/london-time";
import { StateBadge } from "../features/events/StateBadge";
import bookingsCss from "../features/events/bookings.css?url";
import { routeMeta } from "../lib/seo";
import { pageSeo } from "../lib/site.server";
import type { AuthHandle } from "../features/auth/access";

// Public: anyone may read it (features/auth/access.ts; the default is sign-in required).
export const handle: AuthHandle = { auth: false };

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: bookingsCss }];

export async function loader({ request, url, context }: Route.LoaderArgs) {
  const [page, events] = await Promise.all([getPage(createContentClient(request), EVENTS_JOIN_UID), loadBookableEvents(context)]);
  const doc = requireDocument(page);
  const title = asText(doc.data.title).trim() || "How to join";
  return {
    title,
    body: doc.data.body,
    events: events.map((e) => ({
      uid: e.uid,
      title: e.title,
      when: formatTimeRange(new Date(e.starts_at), null),
      badge: stateBadge(e),
      price: fromPriceText(e.from_price, e.currency),
      bookable: e.state === "open" || e.state === "waitlist",
      waitlist: e.state === "waitlist",
    })),
    seo: pageSeo({ request, url }, { title, description: doc.data.description ?? null }),
  };
}

export const meta: Route.MetaFunction = routeMeta;

export default function EventsJoin({ loaderData }: Route.ComponentProps) {
  const { events } = loaderData;
  return (
    <Article
      title={loaderData.title}
      body={loaderData.body}
      kicker={<Breadcrumbs items={[{ to: "/", label: "Home" }, { to: EVENTS_PATH, label: "Events" }]} />}
    >
      <section className="section" aria-labelledby="bookable-events">
        <h2 id="bookable-events">Upcoming events you can book</h2>
        {events.length ? (
          <ul role="list" className="booking-list">
            {events.map((e) => (
              <li key={e.uid} className="booking-card">
                <h3 className="booking-card__title">
                  <Link to={eventPath(e.uid)}>{e.title}</Link>
                </h3>
                <p>
                  <EventWhen when={e.when} />
                </p>
                <p>
                  <StateBadge badge={e.badge} /> <strong>{e.price}</strong>
                </p>
                {e.bookable ? (
                  <p>
                    <Link to={bookPath(e.uid)} className="button button--primary booking-button">
                      {e.waitlist ? "Join the waiting list" : "Book"}
                      <span className="visually-hidden">: {e.title}</span>
                    </Link>
                  </p>
                ) : null}
              </li>
            ))}
          </ul>
        ) : (
          <p>
            No events are taking bookings just now. <Link to={EVENTS_PATH}>See every event</Link>.
          </p>
        )}
      </section>
    </Article>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
