// The /sog-events list: upcoming events soonest first, then past events most
// recent first (paged), narrowed by the filters in the query string, with a
// calendar of one month. Everything is worked out here, on the server, so the
// page works the same with or without JavaScript.
import type * as prismic from "@prismicio/client";
import { buildCalendarMonth, calendarBounds, type CalendarMonth } from "./event-calendar";
import {
  EVENTS_PATH,
  eventsHref,
  hasFilters,
  matchesAttendance,
  overlaps,
  splitEvents,
  titleSearchWords,
  toEventListItem,
  toEventSummary,
  type EventFilters,
  type EventListItem,
  type EventSummary,
  type MonthOptionGroup,
} from "./events";
import { getEventBounds, getEvents } from "../content/index.server";
import { parseContentDate } from "../../lib/dates";
import { londonDayKey, londonMonthRange, londonYearMonth, monthLabel, monthsBetween, type YearMonth } from "./london-time";

export const PAST_EVENTS_PAGE_SIZE = 10;

export interface EventListView {
  filters: EventFilters;
  filtered: boolean;
  /** One sentence saying what is shown. */
  resultText: string;
  monthOptions: MonthOptionGroup[];
  upcoming: EventListItem[];
  past: EventListItem[];
  upcomingCount: number;
  pastCount: number;
  page: number;
  totalPages: number;
  /** Base of the past-events page links (the filters, without ?page). */
  pagingBase: string;
  calendar: CalendarMonth;
  calendarLinks: { previous: string | null; next: string | null; thisMonth: string | null };
  unavailable: boolean;
}

/** Null when the page does not exist (?page past the end). */
export async function loadEventList(client: prismic.Client, filters: EventFilters, now = new Date()): Promise<EventListView | null> {
  const window = filters.month ? londonMonthRange(filters.month) : null;
  const titleWords = titleSearchWords(filters.q);
  // A search of punctuation alone has no words to find: nothing matches it.
  const searchable = filters.q === "" || titleWords !== "";
  const [events, bounds] = await Promise.all([
    getEvents(client, { window, titleWords }),
    getEventBounds(client),
  ]);

  const matching = events.value
    .map(toEventSummary)
    .filter((e): e is EventSummary => e !== null && searchable)
    .filter((e) => matchesAttendance(e, filters.attendance))
    .filter((e) => !window || overlaps(e, window.from, window.to));
  const { upcoming, past } = splitEvents(matching, now);

  const totalPages = Math.ceil(past.length / PAST_EVENTS_PAGE_SIZE);
  if (!events.unavailable && filters.page > 1 && filters.page > totalPages) return null;
  const pastPage = past.slice((filters.page - 1) * PAST_EVENTS_PAGE_SIZE, filters.page * PAST_EVENTS_PAGE_SIZE);

  const thisMonth = londonYearMonth(now);
  const calendarMonth = filters.month ?? thisMonth;
  const last = bounds.value.last;
  const range = calendarBounds(
    thisMonth,
    parseContentDate(bounds.value.first?.data.start),
    parseContentDate(last?.data.end) ?? parseContentDate(last?.data.start),
  );
  const { from, to } = londonMonthRange(calendarMonth);
  const calendar = buildCalendarMonth(
    calendarMonth,
    matching.filter((e) => overlaps(e, from, to)),
    { today: londonDayKey(now), bounds: range },
  );
  const monthHref = (month: YearMonth | null) =>
    month ? eventsHref(EVENTS_PATH, { ...filters, month, page: 1 }, "#calendar") : null;

  return {
    filters,
    filtered: hasFilters(filters),
    resultText: describeResults(filters, upcoming.length, past.length),
    monthOptions: monthOptions(range.first, range.last, filters.month),
    upcoming: filters.page === 1 ? upcoming.map((e) => toEventListItem(e, now)) : [],
    past: pastPage.map((e) => toEventListItem(e, now)),
    upcomingCount: upcoming.length,
    pastCount: past.length,
    page: filters.page,
    totalPages,
    pagingBase: eventsHref(EVENTS_PATH, { ...filters, page: 1 }),
    calendar,
    calendarLinks: {
      previous: monthHref(calendar.previous),
      next: monthHref(calendar.next),
      thisMonth: calendarMonth === thisMonth ? null : monthHref(thisMonth),
    },
    unavailable: events.unavailable || bounds.unavailable,
  };
}

function monthOptions(first: YearMonth, last: YearMonth, selected: YearMonth | null): MonthOptionGroup[] {
  const months = monthsBetween(first, last);
  if (selected && !months.includes(selected)) months.push(selected);
  months.sort();
  const groups: MonthOptionGroup[] = [];
  for (const value of months) {
    const year = value.slice(0, 4);
    let group = groups[groups.length - 1];
    if (!group || group.year !== year) groups.push((group = { year, months: [] }));
    group.months.push({ value, label: monthLabel(value) });
  }
  return groups;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "3 online events in December 2026 with “DNA” in the title: 1 upcoming, 2 past." */
export function describeResults(filters: EventFilters, upcoming: number, past: number): string {
  const kind = filters.attendance === "online" ? "online " : filters.attendance === "in-person" ? "in-person " : "";
  const month = filters.month ? ` in ${monthLabel(filters.month)}` : "";
  const words = filters.q ? ` with “${filters.q}” in the title` : "";
  const total = upcoming + past;
  if (total === 0) return `No ${kind}events${month}${words}.`;
  return `${plural(total, `${kind}event`, `${kind}events`)}${month}${words}: ${upcoming} upcoming, ${past} past.`;
}
