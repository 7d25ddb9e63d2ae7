// The month view of the events calendar as plain data: weeks of London days
// (Monday first), each day with the events that take place on it, and the
// months one can move to. The page renders it as a table on the server.
import { endOf, type EventSummary } from "./events";
import {
  addMonths,
  daysInMonth,
  formatLondonClock,
  londonDayKey,
  londonParts,
  monthLabel,
  parseYearMonth,
  weekdayIndex,
  yearMonth,
  type YearMonth,
} from "./london-time";

export interface CalendarEntry {
  href: string;
  title: string;
  /** "7pm" on the day it starts; "continues" on the days after. */
  time: string;
}

export interface CalendarDay {
  /** "2026-12-02" */
  date: string;
  day: number;
  today: boolean;
  events: CalendarEntry[];
}

export interface CalendarMonth {
  month: YearMonth;
  /** "December 2026" */
  label: string;
  /** Rows of seven cells, Monday first; null pads the first and last week. */
  weeks: (CalendarDay | null)[][];
  /** The neighbouring months one may move to (null past the bounds). */
  previous: YearMonth | null;
  next: YearMonth | null;
  /** Days of the month that have at least one event. */
  eventDays: number;
}

/** An event can be drawn on at most this many days (a guard against a bad end date). */
export const MAX_EVENT_DAYS = 31;

const pad = (n: number) => String(n).padStart(2, "0");

/**
 * Builds a month of the calendar.
 *
 * `bounds` are the first and last month that navigation reaches (usually the
 * months of the first and last event, widened to include this month), so
 * that the previous/next links end somewhere instead of leading crawlers and
 * readers through endless empty months. `today` is a London day key.
 */
export function buildCalendarMonth(
  month: YearMonth,
  events: readonly EventSummary[],
  { today, bounds }: { today: string; bounds: { first: YearMonth; last: YearMonth } },
): CalendarMonth {
  const p = parseYearMonth(month);
  if (!p) throw new Error(`not a month: ${month}`);
  const length = daysInMonth(p.year, p.month);
  const days: CalendarDay[] = [];
  for (let d = 1; d <= length; d++) {
    const date = `${month}-${pad(d)}`;
    days.push({ date, day: d, today: date === today, events: [] });
  }

  const sorted = [...events].sort((a, b) => a.start.localeCompare(b.start) || a.title.localeCompare(b.title));
  for (const event of sorted) {
    const start = new Date(event.start);
    const lastKey = londonDayKey(endOf(event));
    const s = londonParts(start);
    // Walk the event's London days by calendar date (not by 24 hours, which
    // would skip or repeat a day where the clocks change).
    let cursor = new Date(Date.UTC(s.year, s.month - 1, s.day));
    for (let i = 0; i < MAX_EVENT_DAYS; i++) {
      const key = cursor.toISOString().slice(0, 10);
      if (key > lastKey && i > 0) break;
      if (key.startsWith(`${month}-`)) {
        days[Number(key.slice(8)) - 1]!.events.push({
          href: event.href,
          title: event.title,
          time: i === 0 ? formatLondonClock(start) : "continues",
        });
      }
      cursor = new Date(cursor.getTime() + 86_400_000);
    }
  }

  const weeks: (CalendarDay | null)[][] = [];
  let week: (CalendarDay | null)[] = Array.from({ length: weekdayIndex(p.year, p.month, 1) }, () => null);
  for (const day of days) {
    week.push(day);
    if (week.length === 7) {
      weeks.push(week);
      week = [];
    }
  }
  if (week.length) weeks.push([...week, ...Array.from({ length: 7 - week.length }, () => null)]);

  const previous = addMonths(month, -1);
  const next = addMonths(month, 1);
  return {
    month,
    label: monthLabel(month),
    weeks,
    previous: month > bounds.first ? (previous > bounds.last ? bounds.last : previous) : null,
    next: month < bounds.last ? (next < bounds.first ? bounds.first : next) : null,
    eventDays: days.filter((d) => d.events.length > 0).length,
  };
}

const WEEKDAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
const MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

export interface AgendaDay extends CalendarDay {
  /** "Tuesday 8 December" */
  label: string;
}

/**
 * The month as an agenda: only the days that have events, in order, each
 * named in words. Narrow screens show this instead of the seven-column table.
 */
export function agendaDays(calendar: CalendarMonth): AgendaDay[] {
  const agenda: AgendaDay[] = [];
  for (const week of calendar.weeks) {
    week.forEach((day, weekday) => {
      if (!day || day.events.length === 0) return;
      const month = MONTH_NAMES[Number(day.date.slice(5, 7)) - 1];
      agenda.push({ ...day, label: `${WEEKDAY_NAMES[weekday]} ${day.day} ${month}` });
    });
  }
  return agenda;
}

/**
 * The months calendar navigation and the month filter offer: from the first
 * event's month to the last one's, always including `current`.
 */
export function calendarBounds(
  current: YearMonth,
  first: Date | null,
  last: Date | null,
): { first: YearMonth; last: YearMonth } {
  const firstMonth = first ? monthOf(first) : current;
  const lastMonth = last ? monthOf(last) : current;
  return { first: firstMonth < current ? firstMonth : current, last: lastMonth > current ? lastMonth : current };
}

function monthOf(date: Date): YearMonth {
  const p = londonParts(date);
  return yearMonth(p.year, p.month);
}
