// /feeds/events/{uid}.ics: one event as an iCalendar file ("Add to calendar").
import type { Route } from "./+types/feeds.event-ics";
import { createContentClient, getEvent } from "../features/content/content.server";
import { isPlausibleUid } from "../features/events/events";
import { calendarResponse, calendarUnavailable, eventsCalendar } from "../features/events/events-feed.server";
import type { AuthHandle } from "../features/auth/access";

const notFound = () =>
  new Response("This page could not be found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });

// Public: anyone may read it (features/auth/access.ts; the default is sign-in required).
export const handle: AuthHandle = { auth: false };

export async function loader({ request, params }: Route.LoaderArgs) {
  const uid = /^(.+)\.ics$/.exec(params.file ?? "")?.[1];
  if (!isPlausibleUid(uid)) return notFound();
  const event = await getEvent(createContentClient(), uid);
  if (!event.value) return event.unavailable ? calendarUnavailable() : notFound();
  return calendarResponse(eventsCalendar(request, [event.value], null), `${uid}.ics`, "attachment");
}
