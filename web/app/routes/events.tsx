// /sog-events/:slug? — without a slug the events list (filters, upcoming and
// past events, a month calendar); with one, the event. /sog-events/join is a
// route of its own (routes/events-join.tsx).
import { asText } from "@prismicio/client";
import { data, Link } from "react-router";
import type { Route } from "./+types/events";
import { Article } from "../features/content/Article";
import { Breadcrumbs } from "../components/Breadcrumbs";
import { ContentUnavailable } from "../components/ContentUnavailable";
import { OnThisPage } from "../components/OnThisPage";
import { Pagination } from "../components/Pagination";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { bookmarkState } from "../features/members/api.server";
import { BookmarkToggle } from "../features/members/BookmarkToggle";
import { EventCalendar } from "../features/events/EventCalendar";
import { EventFacts } from "../features/events/EventFacts";
import { EventFilters } from "../features/events/EventFilters";
import { EventList } from "../features/events/EventList";
import eventsCss from "../features/events/events.css?url";
import { createContentClient, getEvent, requireDocument } from "../features/content/content.server";
import {
  EVENTS_ICS_PATH,
  EVENTS_PATH,
  eventIcsPath,
  isPlausibleUid,
  isUpcoming,
  parseEventFilters,
  toEventListItem,
  toEventSummary,
} from "../features/events/events";
import { loadEventList } from "../features/events/events-list.server";
import { ROUTED_PAGE_PATHS, EVENTS_JOIN_UID } from "../features/content/link-resolver";
import { monthLabel } from "../features/events/london-time";
import { BookingPanel } from "../features/events/BookingPanel";
import { stateBadge, type Badge } from "../features/events/booking-text";
import { bookingPagePath, eventPath } from "../features/events/booking-paths";
import { isStaff, loadBookingStates, loadEventBooking } from "../features/events/bookings.server";
import bookingsCss from "../features/events/bookings.css?url";
import { getAuth } from "../features/auth/context";
import { routeMeta, type MetaDescriptor } from "../lib/seo";
import { articleSeo, pageSeo } from "../lib/site.server";
import type { AuthHandle } from "../features/auth/access";

const JOIN_PATH = ROUTED_PAGE_PATHS[EVENTS_JOIN_UID]!;
const TRAIL = [{ to: "/", label: "Home" }];
const notFound = () => new Response("This page could not be found", { status: 404, statusText: "Not Found" });

// Public: anyone may read it (features/auth/access.ts; the default is sign-in required).
export const handle: AuthHandle = { auth: false };

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: eventsCss },
  { rel: "stylesheet", href: bookingsCss },
  { rel: "alternate", type: "text/calendar", title: "Upcoming events (iCalendar)", href: EVENTS_ICS_PATH },
];

export async function loader({ request, params, url, context }: Route.LoaderArgs) {
  const client = createContentClient(request);
  const now = new Date();

  if (params.slug !== undefined) {
    if (!isPlausibleUid(params.slug)) throw notFound();
    const bookmark = bookmarkState(context, url.pathname);
    // The booking state as this visitor sees it (prices, their own booking). For
    // visitors without a session the page is cached; the API's booking routes purge it.
    const ref = url.searchParams.get("booking");
    const key = url.searchParams.get("key");
    const visitor = ref && key ? { booking: ref, key } : null;
    const booking = loadEventBooking(context, params.slug, visitor);
    const doc = requireDocument(await getEvent(client, params.slug));
    const summary = toEventSummary(doc);
    const title = asText(doc.data.title).trim() || doc.uid || "Event";
    const item = {
      kind: "item" as const,
      title,
      facts: summary ? toEventListItem(summary, now) : null,
      finished: summary ? !isUpcoming(summary, now) : false,
      summary: doc.data.summary,
      body: doc.data.body,
      icsHref: eventIcsPath(doc.uid ?? params.slug),
      seo: articleSeo({ request, url }, title, doc.data.summary),
      bookmark: await bookmark,
      booking: await booking,
      now: now.toISOString(),
      signedIn: getAuth(context).state.loggedIn,
      staff: isStaff(context),
      // Back from Stripe Checkout without paying (its cancel URL).
      paymentCancelled: url.searchParams.get("payment") === "cancelled" ? (ref ?? "") : null,
      bookingKey: key,
    };
    // With a visitor's key the page shows their booking: never kept by the page cache.
    return visitor ? data(item, { headers: { "Cache-Control": "private, no-store" } }) : item;
  }

  const filters = parseEventFilters(url.searchParams);
  if (!filters) throw notFound();
  const [view, states] = await Promise.all([loadEventList(client, filters, now), loadBookingStates(context)]);
  if (!view) throw notFound();
  const badges: Record<string, Badge> = {};
  for (const state of Object.values(states)) {
    const badge = stateBadge(state);
    if (badge) badges[eventPath(state.uid)] = badge;
  }
  const base = filters.month ? `Events in ${monthLabel(filters.month)}` : "Events";
  const title = filters.page > 1 ? `${base}, page ${filters.page}` : base;
  return {
    kind: "list" as const,
    title,
    ...view,
    badges,
    seo: pageSeo(
      { request, url },
      { title, description: "Talks, courses, workshops and open days of the Society, in London and online." },
      ["month", "page"],
    ),
  };
}

// The loader's own headers: a page showing a visitor's booking is private.
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export const meta: Route.MetaFunction = (args) => {
  const tags: MetaDescriptor[] = routeMeta(args);
  const data = args.loaderData;
  if (!args.error && data?.kind === "item") {
    tags.push({ tagName: "link", rel: "alternate", type: "text/calendar", title: `${data.title} (iCalendar)`, href: data.icsHref });
  }
  return tags;
};

export default function Events({ loaderData }: Route.ComponentProps) {
  return loaderData.kind === "item" ? <EventPage data={loaderData} /> : <EventsList data={loaderData} />;
}

type LoaderData = Route.ComponentProps["loaderData"];

function EventPage({ data }: { data: Extract<LoaderData, { kind: "item" }> }) {
  return (
    <Article
      title={data.title}
      summary={data.summary}
      body={data.body}
      kicker={<Breadcrumbs items={[...TRAIL, { to: EVENTS_PATH, label: "Events" }]} />}
      actions={<BookmarkToggle state={data.bookmark} title={data.title} />}
      facts={
        <>
          {data.facts ? <EventFacts event={data.facts} className="event-facts--page" /> : null}
          {data.paymentCancelled !== null ? (
            <p className="notice event-notice" role="status">
              You left the payment page before paying, so your booking is not confirmed yet.{" "}
              {data.paymentCancelled && (data.signedIn || data.bookingKey) ? (
                <Link to={bookingPagePath(data.paymentCancelled, data.bookingKey)}>See your booking</Link>
              ) : (
                "The link in the email we sent you leads to your booking."
              )}
            </p>
          ) : null}
          {data.booking && !data.finished ? (
            <BookingPanel event={data.booking} now={data.now} signedIn={data.signedIn} staff={data.staff} bookingKey={data.bookingKey} />
          ) : null}
          {data.finished ? (
            <p className="notice event-notice">This event has finished.</p>
          ) : (
            <ul role="list" className="events-actions">
              <li>
                {/* A file download, not a page: a plain link, not a router <Link>. */}
                <a href={data.icsHref} className="button button--primary">
                  Add to calendar<span className="visually-hidden">: {data.title}</span>
                </a>
              </li>
              <li>
                <Link to={JOIN_PATH} className="button">
                  How to join
                </Link>
              </li>
            </ul>
          )}
        </>
      }
    >
      <p>
        <Link to={EVENTS_PATH}>All events</Link>
      </p>
    </Article>
  );
}

function EventsList({ data }: { data: Extract<LoaderData, { kind: "list" }> }) {
  const { upcoming, past, page } = data;
  const onFirstPage = page === 1;
  return (
    <>
      <Breadcrumbs items={TRAIL} />
      <h1>{data.title}</h1>
      <div className="events-intro">
        <p className="lead">Talks, courses, workshops and open days, at Lineage House in London and online.</p>
        <ul role="list" className="events-actions">
          <li>
            <Link to={JOIN_PATH} className="button button--primary">
              How to join an event
            </Link>
          </li>
          <li>
            {/* A calendar feed, not a page: a plain link. */}
            <a href={EVENTS_ICS_PATH} className="button">
              Subscribe to the calendar (iCalendar)
            </a>
          </li>
        </ul>
      </div>
      <OnThisPage
        className="events-contents"
        links={[
          ...(onFirstPage ? [{ href: "#upcoming", label: "Upcoming events" }] : []),
          { href: "#past", label: "Past events" },
          { href: "#calendar", label: "Calendar" },
        ]}
      />
      <EventFilters action={EVENTS_PATH} filters={data.filters} monthOptions={data.monthOptions} filtered={data.filtered} />
      <ContentUnavailable show={data.unavailable} />
      <p className="event-results" role="status">
        {data.resultText}
      </p>
      {onFirstPage ? (
        <section id="upcoming" className="section" aria-labelledby="upcoming-title">
          <h2 id="upcoming-title">Upcoming events</h2>
          <EventList
            badges={data.badges}
            events={upcoming}
            empty={data.filtered ? "No upcoming events match these filters." : "No upcoming events are planned at the moment."}
          />
        </section>
      ) : null}
      <section id="past" className="section" aria-labelledby="past-title">
        <h2 id="past-title">{onFirstPage ? "Past events" : `Past events, page ${page} of ${data.totalPages}`}</h2>
        <EventList events={past} empty={data.filtered ? "No past events match these filters." : "There are no past events yet."} />
        <Pagination page={page} totalPages={data.totalPages} basePath={`${data.pagingBase}#past`} label="Past events pages" />
      </section>
      <EventCalendar calendar={data.calendar} links={data.calendarLinks} badges={data.badges} />
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
