// Wall-clock time in London, where the Society's events happen. Content
// timestamps are UTC; readers see them in Europe/London (GMT or BST), and
// calendar days and months are London days and months.
//
// Only numbers come from Intl (the time-zone rules); every word is ours, so
// the server and any browser print exactly the same text.

export const LONDON_TIME_ZONE = "Europe/London";

const PARTS = new Intl.DateTimeFormat("en-GB", {
  timeZone: LONDON_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});

export const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
] as const;

/** Monday first, as British calendars are. */
export const WEEKDAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;

export interface WallTime {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The London wall-clock time of an instant. */
export function londonParts(date: Date): WallTime {
  const parts: Record<string, number> = {};
  for (const p of PARTS.formatToParts(date)) if (p.type !== "literal") parts[p.type] = Number(p.value);
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour! % 24,
    minute: parts.minute!,
    second: parts.second!,
  };
}

/** Minutes London is ahead of UTC at an instant: 0 (GMT) or 60 (BST). */
export function londonOffsetMinutes(date: Date): number {
  const p = londonParts(date);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return Math.round((asUtc - Math.floor(date.getTime() / 1000) * 1000) / 60_000);
}

/**
 * The instant of a London wall-clock time. A time that does not exist (the
 * hour skipped when BST starts) comes out an hour later; a time that exists
 * twice (when BST ends) is the first of the two.
 */
export function londonToUtc(year: number, month: number, day: number, hour = 0, minute = 0): Date {
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  // The offsets in force a day either side cover any transition in between.
  const before = londonOffsetMinutes(new Date(wall - 86_400_000));
  const after = londonOffsetMinutes(new Date(wall + 86_400_000));
  const valid = [...new Set([before, after])]
    .map((offset) => wall - offset * 60_000)
    .filter((t) => {
      const p = londonParts(new Date(t));
      return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute) === wall;
    });
  return new Date(valid.length ? Math.min(...valid) : wall - before * 60_000);
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** "2026-06-20": the London calendar day of an instant. */
export function londonDayKey(date: Date): string {
  const p = londonParts(date);
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}`;
}

/** "2026-06-20T14:00:00+01:00": an instant as London local time with its offset (for <time datetime>). */
export function londonIso(date: Date): string {
  const p = londonParts(date);
  const offset = londonOffsetMinutes(date);
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  return (
    `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}` +
    `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
  );
}

/** Day of the week of a calendar date, 0 = Monday … 6 = Sunday. */
export function weekdayIndex(year: number, month: number, day: number): number {
  return (new Date(Date.UTC(year, month - 1, day)).getUTCDay() + 6) % 7;
}

/** "7pm", "7:30pm", "10am", "midday", "midnight" (the GOV.UK style). */
export function formatClock(hour: number, minute: number): string {
  if (minute === 0 && hour === 12) return "midday";
  if (minute === 0 && hour === 0) return "midnight";
  const h12 = hour % 12 === 0 ? 12 : hour % 12;
  const suffix = hour < 12 ? "am" : "pm";
  return minute === 0 ? `${h12}${suffix}` : `${h12}:${pad(minute)}${suffix}`;
}

/** "Wednesday 2 December 2026" in London. */
export function formatLondonDate(date: Date): string {
  const p = londonParts(date);
  return `${WEEKDAY_NAMES[weekdayIndex(p.year, p.month, p.day)]} ${p.day} ${MONTH_NAMES[p.month - 1]} ${p.year}`;
}

/** "7pm" in London. */
export function formatLondonClock(date: Date): string {
  const p = londonParts(date);
  return formatClock(p.hour, p.minute);
}

export interface TimePoint {
  /** London local time with offset, for <time datetime>. */
  iso: string;
  /** What readers see. */
  text: string;
}

export interface TimeRange {
  start: TimePoint;
  /** Null when there is no end, or it is not after the start. */
  end: TimePoint | null;
}

/**
 * An event's time range as readers see it: "Wednesday 2 December 2026, 7pm"
 * to "8:30pm" on the same day, or the full date again when it ends on
 * another day.
 */
export function formatTimeRange(start: Date, end: Date | null): TimeRange {
  const startPoint = { iso: londonIso(start), text: `${formatLondonDate(start)}, ${formatLondonClock(start)}` };
  if (!end || end.getTime() <= start.getTime()) return { start: startPoint, end: null };
  const sameDay = londonDayKey(start) === londonDayKey(end);
  return {
    start: startPoint,
    end: {
      iso: londonIso(end),
      text: sameDay ? formatLondonClock(end) : `${formatLondonDate(end)}, ${formatLondonClock(end)}`,
    },
  };
}

/** The same range as one line of plain text. */
export function timeRangeText(range: TimeRange): string {
  return range.end ? `${range.start.text} to ${range.end.text}` : range.start.text;
}

// ---------------------------------------------------------------------------
// Months ("2026-12")

export type YearMonth = string;

const YEAR_MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** "2026-12" → { year: 2026, month: 12 }, or null when malformed. */
export function parseYearMonth(value: string | null | undefined): { year: number; month: number } | null {
  const m = YEAR_MONTH.exec(value ?? "");
  if (!m) return null;
  return { year: Number(m[1]), month: Number(m[2]) };
}

export function yearMonth(year: number, month: number): YearMonth {
  return `${pad(year, 4)}-${pad(month)}`;
}

/** The London month of an instant. */
export function londonYearMonth(date: Date): YearMonth {
  const p = londonParts(date);
  return yearMonth(p.year, p.month);
}

export function addMonths(ym: YearMonth, count: number): YearMonth {
  const p = parseYearMonth(ym);
  if (!p) throw new Error(`not a month: ${ym}`);
  const index = p.year * 12 + (p.month - 1) + count;
  return yearMonth(Math.floor(index / 12), (index % 12) + 1);
}

/** "December 2026". */
export function monthLabel(ym: YearMonth): string {
  const p = parseYearMonth(ym);
  if (!p) throw new Error(`not a month: ${ym}`);
  return `${MONTH_NAMES[p.month - 1]} ${p.year}`;
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The instants a London month starts and (exclusive) ends. */
export function londonMonthRange(ym: YearMonth): { from: Date; to: Date } {
  const p = parseYearMonth(ym);
  if (!p) throw new Error(`not a month: ${ym}`);
  const next = parseYearMonth(addMonths(ym, 1))!;
  return { from: londonToUtc(p.year, p.month, 1), to: londonToUtc(next.year, next.month, 1) };
}

/** Every month from `first` to `last`, inclusive, in order. */
export function monthsBetween(first: YearMonth, last: YearMonth): YearMonth[] {
  const months: YearMonth[] = [];
  for (let ym = first; ym <= last; ym = addMonths(ym, 1)) months.push(ym);
  return months;
}
