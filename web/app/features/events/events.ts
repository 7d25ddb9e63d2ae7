// Events as the events pages, the calendar and the iCalendar feeds see them:
// a small serialisable summary of each `event` document, whether it is
// online or in person, upcoming or past, and the list filters in the query
// string (?q=…&month=YYYY-MM&attendance=online|in-person&page=N).
import type { RichTextField } from "@prismicio/client";
import { asText } from "@prismicio/client";
import { type EventDocument, linkResolver } from "../content";
import { parseContentDate } from "../../lib/dates";
import { formatTimeRange, parseYearMonth, type TimeRange, type YearMonth } from "./london-time";
import { parsePageParam } from "../../lib/paging";

/** The events list. */
export const EVENTS_PATH = "/sog-events";
/** Every upcoming event as iCalendar. */
export const EVENTS_ICS_PATH = "/feeds/events.ics";

/** The path of one event's iCalendar file. */
export function eventIcsPath(uid: string): string {
  return `/feeds/events/${encodeURIComponent(uid)}.ics`;
}

export interface EventSummary {
  id: string;
  uid: string;
  href: string;
  title: string;
  summary: RichTextField | null;
  /** ISO instant (UTC). */
  start: string;
  /** ISO instant (UTC); null when the document has none, or one not after the start. */
  end: string | null;
  location: string | null;
  online: boolean;
  inPerson: boolean;
}

/** The summary of an event document; null when it has no usable start. */
export function toEventSummary(doc: Pick<EventDocument, "id" | "uid" | "type" | "url" | "data">): EventSummary | null {
  const start = parseContentDate(doc.data?.start);
  if (!start || !doc.uid) return null;
  const end = parseContentDate(doc.data.end);
  const location = doc.data.location?.trim() || null;
  const summary = doc.data.summary?.length ? doc.data.summary : null;
  return {
    id: doc.id,
    uid: doc.uid,
    href: linkResolver(doc) ?? `/sog-events/${doc.uid}`,
    title: asText(doc.data.title ?? []).trim() || doc.uid,
    summary,
    start: start.toISOString(),
    end: end && end.getTime() > start.getTime() ? end.toISOString() : null,
    location,
    ...attendanceOf(location),
  };
}

// ---------------------------------------------------------------------------
// Online or in person, from the location text

const ONLINE_WORDS = /\b(online|zoom|webinar|livestream(?:ed)?|live[- ]stream(?:ed)?|virtual)\b/gi;
const CONNECTING_WORDS = /\b(and|or|also|only|via|on|by|meeting|event)\b/gi;

/**
 * Whether an event can be joined online and whether it has a place to go to,
 * read from its location: "Online" is online only, "Lineage House, London,
 * and online" is both, "Lineage House, London" is in person. Without a
 * location it is neither, so neither filter shows it.
 */
export function attendanceOf(location: string | null | undefined): { online: boolean; inPerson: boolean } {
  const text = location?.trim() ?? "";
  if (!text) return { online: false, inPerson: false };
  const online = new RegExp(ONLINE_WORDS.source, "i").test(text);
  const place = text.replace(ONLINE_WORDS, " ").replace(CONNECTING_WORDS, " ").replace(/[^\p{L}\p{N}]+/gu, "");
  return { online, inPerson: place.length > 0 };
}

export type Attendance = "online" | "in-person";

export const ATTENDANCE_LABELS: Record<Attendance, string> = { online: "Online", "in-person": "In person" };

export function matchesAttendance(event: Pick<EventSummary, "online" | "inPerson">, attendance: Attendance | null): boolean {
  if (attendance === "online") return event.online;
  if (attendance === "in-person") return event.inPerson;
  return true;
}

// ---------------------------------------------------------------------------
// Upcoming and past

/** When an event is over: its end, or its start when it has no end. */
export function endOf(event: Pick<EventSummary, "start" | "end">): Date {
  return new Date(event.end ?? event.start);
}

/** Upcoming means not over yet (so an event in progress is still upcoming). */
export function isUpcoming(event: Pick<EventSummary, "start" | "end">, now: Date): boolean {
  return endOf(event).getTime() > now.getTime();
}

export function isHappeningNow(event: Pick<EventSummary, "start" | "end">, now: Date): boolean {
  return new Date(event.start).getTime() <= now.getTime() && isUpcoming(event, now);
}

/** True when the event takes place at least partly in [from, to). */
export function overlaps(event: Pick<EventSummary, "start" | "end">, from: Date, to: Date): boolean {
  return new Date(event.start).getTime() < to.getTime() && endOf(event).getTime() >= from.getTime();
}

const byStart = (a: EventSummary, b: EventSummary) => a.start.localeCompare(b.start) || a.id.localeCompare(b.id);

/** Upcoming events soonest first, then past events most recent first. */
export function splitEvents<T extends EventSummary>(events: readonly T[], now: Date): { upcoming: T[]; past: T[] } {
  const upcoming = events.filter((e) => isUpcoming(e, now)).sort(byStart);
  const past = events.filter((e) => !isUpcoming(e, now)).sort((a, b) => byStart(b, a));
  return { upcoming, past };
}

// ---------------------------------------------------------------------------
// Filters in the query string

export const EVENT_QUERY_MAX_LENGTH = 100;

export interface EventFilters {
  /** Words of the title, as typed (trimmed, single spaces). */
  q: string;
  month: YearMonth | null;
  attendance: Attendance | null;
  page: number;
}

export const NO_EVENT_FILTERS: EventFilters = { q: "", month: null, attendance: null, page: 1 };

/**
 * The filters of a list URL, or null when a value is malformed (the page is
 * then a 404, as for a bad ?page). Empty values, which a GET form sends for
 * untouched fields, mean "any".
 */
export function parseEventFilters(params: URLSearchParams): EventFilters | null {
  const q = (params.get("q") ?? "").replace(/\s+/g, " ").trim().slice(0, EVENT_QUERY_MAX_LENGTH).trim();
  const monthValue = params.get("month") ?? "";
  const month = monthValue === "" ? null : parseYearMonth(monthValue) ? monthValue : undefined;
  const attendanceValue = params.get("attendance") ?? "";
  const attendance =
    attendanceValue === "" ? null : attendanceValue === "online" || attendanceValue === "in-person" ? attendanceValue : undefined;
  const page = parsePageParam(params.get("page"));
  if (month === undefined || attendance === undefined || page === null) return null;
  return { q, month, attendance, page };
}

/** The month filter's choices, by year. */
export interface MonthOptionGroup {
  year: string;
  months: { value: YearMonth; label: string }[];
}

export function hasFilters(filters: EventFilters): boolean {
  return filters.q !== "" || filters.month !== null || filters.attendance !== null;
}

/**
 * The list URL for some filters: only the set ones, in a fixed order, so that
 * every view has one address.
 */
export function eventsHref(basePath: string, filters: Partial<EventFilters>, hash = ""): string {
  const params = new URLSearchParams();
  if (filters.q) params.set("q", filters.q);
  if (filters.month) params.set("month", filters.month);
  if (filters.attendance) params.set("attendance", filters.attendance);
  if (filters.page && filters.page > 1) params.set("page", String(filters.page));
  const query = params.toString();
  return `${basePath}${query ? `?${query}` : ""}${hash}`;
}

/**
 * The words of a title search as the content API's fulltext filter gets
 * them: letters and digits only (its words are letters and digits anyway,
 * and a stray quote or backslash would break the query).
 */
export function titleSearchWords(q: string): string {
  return q.replace(/[^\p{L}\p{N}]+/gu, " ").trim();
}

/**
 * Whether a URL segment could be a document uid. Anything else is a 404
 * without asking the content API (a quote or backslash would only make it
 * reject the query, which would read as an outage).
 */
export function isPlausibleUid(value: string | undefined): value is string {
  return typeof value === "string" && /^[^\s"\\/]{1,200}$/.test(value);
}

/** "Online", "In person", "In person and online", or null when the location does not say. */
export function attendanceLabel(event: Pick<EventSummary, "online" | "inPerson">): string | null {
  if (event.online && event.inPerson) return "In person and online";
  if (event.online) return "Online";
  if (event.inPerson) return "In person";
  return null;
}

/** What a list or a page shows of an event besides its title. */
export interface EventListItem {
  id: string;
  href: string;
  title: string;
  summary: RichTextField | null;
  when: TimeRange;
  location: string | null;
  attendance: string | null;
  happeningNow: boolean;
}

export function toEventListItem(event: EventSummary, now: Date): EventListItem {
  return {
    id: event.id,
    href: event.href,
    title: event.title,
    summary: event.summary,
    when: formatTimeRange(new Date(event.start), event.end ? new Date(event.end) : null),
    location: event.location,
    attendance: attendanceLabel(event),
    happeningNow: isHappeningNow(event, now),
  };
}
