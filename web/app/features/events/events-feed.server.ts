// Events as iCalendar: every upcoming event (/feeds/events.ics) or one event
// (/feeds/events/{uid}.ics), built from the content API with features/events/ics.ts.
import { asText } from "@prismicio/client";
import { type EventDocument, linkResolver } from "../content";
import { parseContentDate } from "../../lib/dates";
import { buildCalendar, type CalendarEvent } from "./ics";
import { SITE_NAME } from "../../lib/seo";
import { publicOrigin, publicUrl } from "../../lib/site.server";

export const PRODID = `-//${SITE_NAME}//Events//EN`;

/** One event document as a VEVENT; null when it has no start. */
export function toCalendarEvent(request: Request, doc: EventDocument): CalendarEvent | null {
  const start = parseContentDate(doc.data.start);
  if (!start) return null;
  const url = publicUrl(request, linkResolver(doc) ?? "/sog-events");
  const summary = asText(doc.data.summary ?? []).trim();
  const published = parseContentDate(doc.last_publication_date);
  return {
    uid: `${doc.id}@${new URL(publicOrigin(request)).hostname}`,
    start,
    end: parseContentDate(doc.data.end),
    summary: asText(doc.data.title ?? []).trim() || doc.uid || "Event",
    location: doc.data.location?.trim() || null,
    // Not every calendar shows URL, so the page's address ends the description too.
    description: summary ? `${summary}\n\nDetails: ${url}` : `Details: ${url}`,
    url,
    stamp: published ?? new Date(),
    created: parseContentDate(doc.first_publication_date),
    lastModified: published,
  };
}

export function calendarResponse(body: string, filename: string, disposition: "inline" | "attachment"): Response {
  return new Response(body, {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      // Header values are bytes: keep the file name to safe ASCII.
      "Content-Disposition": `${disposition}; filename="${filename.replace(/[^A-Za-z0-9._-]/g, "_")}"`,
      "Cache-Control": "public, max-age=300",
    },
  });
}

/** A calendar built from event documents; events without a start are left out. */
export function eventsCalendar(request: Request, docs: EventDocument[], name: string | null): string {
  return buildCalendar({
    prodId: PRODID,
    name,
    description: name ? `Talks, courses, workshops and open days of ${SITE_NAME}.` : null,
    events: docs.map((doc) => toCalendarEvent(request, doc)).filter((e): e is CalendarEvent => e !== null),
  });
}

/**
 * When the content service is down a calendar must not come back empty:
 * subscribed calendar apps would delete every event. 503 keeps their copy.
 */
export function calendarUnavailable(): Response {
  return new Response("Events are temporarily unavailable", {
    status: 503,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Retry-After": "300", "Cache-Control": "no-store" },
  });
}
