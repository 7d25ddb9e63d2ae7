// iCalendar (RFC 5545) for the events feeds: a VCALENDAR of VEVENTs with
// times in UTC, as a plain string. Content lines end in CRLF and are folded
// at 75 octets (never inside a UTF-8 character); TEXT values escape
// backslash, semicolon, comma and newlines.

export interface CalendarEvent {
  /** Globally unique: "<document id>@<public host>". */
  uid: string;
  start: Date;
  /** Left out when null (RFC 5545 then ends the event at its start). */
  end: Date | null;
  summary: string;
  location?: string | null;
  description?: string | null;
  /** Absolute URL of the event's page. */
  url?: string | null;
  /** When the event was last revised (DTSTAMP; there is no METHOD). */
  stamp: Date;
  created?: Date | null;
  lastModified?: Date | null;
}

export interface Calendar {
  /** PRODID, e.g. "-//Lineage//Events//EN". */
  prodId: string;
  /** Shown by calendar apps as the subscribed calendar's name. */
  name?: string | null;
  description?: string | null;
  events: CalendarEvent[];
}

export const CRLF = "\r\n";
export const MAX_LINE_OCTETS = 75;

const encoder = new TextEncoder();

/** Escapes a TEXT value (RFC 5545 §3.3.11). Control characters other than tab are dropped. */
export function escapeText(value: string): string {
  return value
    .replace(/\r\n|\r|\n/g, "\n")
    .replace(/[\u0000-\u0008\u000B-\u001F\u007F]/g, "")
    .replace(/\\/g, "\\\\")
    .replace(/;/g, "\\;")
    .replace(/,/g, "\\,")
    .replace(/\n/g, "\\n");
}

/**
 * Folds one content line (RFC 5545 §3.1): no line longer than 75 octets;
 * each continuation starts with a space, which counts towards its 75. Breaks
 * fall between characters, never inside a UTF-8 sequence.
 */
export function foldLine(line: string): string {
  const lines: string[] = [];
  let current = "";
  let octets = 0;
  let limit = MAX_LINE_OCTETS;
  for (const char of line) {
    const size = encoder.encode(char).length;
    if (octets + size > limit) {
      lines.push(current);
      current = "";
      octets = 0;
      limit = MAX_LINE_OCTETS - 1;
    }
    current += char;
    octets += size;
  }
  lines.push(current);
  return lines.join(`${CRLF} `);
}

/** A DATE-TIME in UTC: 20261202T190000Z. */
export function formatUtc(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z").replace(/[-:]/g, "");
}

function property(name: string, value: string): string {
  return foldLine(`${name}:${value}`);
}

function eventLines(event: CalendarEvent): string[] {
  const lines = [
    "BEGIN:VEVENT",
    property("UID", escapeText(event.uid)),
    property("DTSTAMP", formatUtc(event.stamp)),
  ];
  if (event.created) lines.push(property("CREATED", formatUtc(event.created)));
  if (event.lastModified) lines.push(property("LAST-MODIFIED", formatUtc(event.lastModified)));
  lines.push(property("DTSTART", formatUtc(event.start)));
  if (event.end && event.end.getTime() > event.start.getTime()) lines.push(property("DTEND", formatUtc(event.end)));
  lines.push(property("SUMMARY", escapeText(event.summary)));
  if (event.location) lines.push(property("LOCATION", escapeText(event.location)));
  if (event.description) lines.push(property("DESCRIPTION", escapeText(event.description)));
  // URL is a URI value, not TEXT: no escaping (RFC 5545 §3.8.4.6).
  if (event.url) lines.push(property("URL", event.url));
  lines.push("END:VEVENT");
  return lines;
}

/** The whole iCalendar object, every line (the last included) ending in CRLF. */
export function buildCalendar(calendar: Calendar): string {
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    property("PRODID", calendar.prodId),
    "CALSCALE:GREGORIAN",
  ];
  if (calendar.name) {
    lines.push(property("NAME", escapeText(calendar.name)));
    lines.push(property("X-WR-CALNAME", escapeText(calendar.name)));
  }
  if (calendar.description) {
    lines.push(property("DESCRIPTION", escapeText(calendar.description)));
    lines.push(property("X-WR-CALDESC", escapeText(calendar.description)));
  }
  for (const event of calendar.events) lines.push(...eventLines(event));
  lines.push("END:VCALENDAR");
  return lines.join(CRLF) + CRLF;
}
