// /feeds/events.ics: every upcoming event as an iCalendar feed to subscribe to.
import type { Route } from "./+types/feeds.events-ics";
import { createContentClient, getEvents } from "../features/content/content.server";
import { isUpcoming, toEventSummary } from "../features/events/events";
import { calendarResponse, calendarUnavailable, eventsCalendar } from "../features/events/events-feed.server";
import { SITE_NAME } from "../lib/seo";
import type { AuthHandle } from "../features/auth/access";

// Public: anyone may read it (features/auth/access.ts; the default is sign-in required).
export const handle: AuthHandle = { auth: false };

export async function loader({ request }: Route.LoaderArgs) {
  const events = await getEvents(createContentClient());
  if (events.unavailable) return calendarUnavailable();
  const now = new Date();
  const upcoming = events.value
    .map((doc) => ({ doc, summary: toEventSummary(doc) }))
    .filter(({ summary }) => summary !== null && isUpcoming(summary, now))
    .sort((a, b) => a.summary!.start.localeCompare(b.summary!.start))
    .map(({ doc }) => doc);
  return calendarResponse(eventsCalendar(request, upcoming, `${SITE_NAME} events`), "events.ics", "inline");
}
