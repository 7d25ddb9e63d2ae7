import { describe, expect, it } from "vitest";
import { buildCalendar, CRLF, escapeText, foldLine, formatUtc, MAX_LINE_OCTETS, type CalendarEvent } from "./ics";

const octets = (s: string) => new TextEncoder().encode(s).length;

/** RFC 5545 §3.1 unfolding: a CRLF followed by one space or tab is removed. */
const unfold = (text: string) => text.replace(/\r\n[ \t]/g, "");

function assertFolded(folded: string, original: string) {
  const lines = folded.split(CRLF);
  for (const [i, line] of lines.entries()) {
    expect(octets(line), `line ${i} "${line}"`).toBeLessThanOrEqual(MAX_LINE_OCTETS);
    if (i > 0) expect(line.startsWith(" ")).toBe(true);
    // No line starts or ends inside a character: each one is valid UTF-8 on its own.
    expect(new TextDecoder("utf-8", { fatal: true }).decode(new TextEncoder().encode(line))).toBe(line);
    expect(line).not.toMatch(/[\uD800-\uDBFF]$/);
    expect(line).not.toMatch(/^ ?[\uDC00-\uDFFF]/);
  }
  expect(unfold(folded)).toBe(original);
  return lines;
}

describe("escapeText", () => {
  it("escapes backslash, semicolon, comma and newlines", () => {
    expect(escapeText("a\\b;c,d")).toBe("a\\\\b\\;c\\,d");
    expect(escapeText("one\ntwo\r\nthree\rfour")).toBe("one\\ntwo\\nthree\\nfour");
    // The backslash is escaped first, so the escapes themselves are not doubled.
    expect(escapeText("\\n")).toBe("\\\\n");
  });

  it("keeps colons, quotes and tabs, drops other control characters", () => {
    expect(escapeText('Talk: "DNA"\tdetails')).toBe('Talk: "DNA"\tdetails');
    expect(escapeText("a\u0000b\u0007c\u007f")).toBe("abc");
  });
});

describe("foldLine", () => {
  it("leaves lines of up to 75 octets alone", () => {
    const line = `SUMMARY:${"x".repeat(75 - 8)}`;
    expect(octets(line)).toBe(75);
    expect(foldLine(line)).toBe(line);
  });

  it("folds ASCII at 75 octets, continuation lines at 74 plus the space", () => {
    const line = `DESCRIPTION:${"abcdefghij".repeat(20)}`;
    const lines = assertFolded(foldLine(line), line);
    expect(octets(lines[0]!)).toBe(75);
    expect(octets(lines[1]!)).toBe(75);
    expect(lines.length).toBe(Math.ceil((octets(line) - 75) / 74) + 1);
  });

  it("never splits a multi-byte UTF-8 character", () => {
    // é is 2 octets, € 3, 🌳 4 (a surrogate pair in JavaScript); offset by one
    // ASCII character so that boundaries fall inside characters if done wrong.
    for (const char of ["é", "€", "🌳", "𝔊"]) {
      for (const lead of ["", "a", "ab", "abc"]) {
        const line = `SUMMARY:${lead}${char.repeat(60)}`;
        const lines = assertFolded(foldLine(line), line);
        expect(lines.length).toBeGreaterThan(1);
        // Each line is as full as it can be without splitting a character.
        for (const l of lines.slice(0, -1)) expect(octets(l)).toBeGreaterThan(MAX_LINE_OCTETS - octets(char));
      }
    }
  });

  it("folds mixed text and keeps it intact", () => {
    const line = `LOCATION:${escapeText("Église Saint-Étienne, 27 rue de l’Abbaye; Caen — 🌳 family-tree day, ünd so weiter")}`.repeat(3);
    assertFolded(foldLine(line), line);
  });
});

describe("formatUtc", () => {
  it("writes a UTC DATE-TIME", () => {
    expect(formatUtc(new Date("2026-12-02T19:00:00.000Z"))).toBe("20261202T190000Z");
    expect(formatUtc(new Date("2026-06-20T13:05:09.999Z"))).toBe("20260620T130509Z");
  });
});

describe("buildCalendar", () => {
  const event: CalendarEvent = {
    uid: "SKfyJ1XZBaaVXvGY@lineage.example",
    start: new Date("2026-06-20T13:00:00Z"),
    end: new Date("2026-06-20T15:30:00Z"),
    summary: "AGM, with tea; and a talk",
    location: "Lineage House, 27 Archive Lane, London EC1, and online",
    description: "Line one\nLine two\\three",
    url: "https://lineage.example/sog-events/agm-2026",
    stamp: new Date("2026-05-19T08:35:00Z"),
    created: new Date("2026-05-19T08:35:00Z"),
    lastModified: new Date("2026-05-20T08:00:00Z"),
  };

  it("writes a VCALENDAR with CRLF line endings and folded lines", () => {
    const ics = buildCalendar({ prodId: "-//Lineage//Events//EN", name: "Lineage events", events: [event, { ...event, uid: "b@lineage.example" }] });
    expect(ics.startsWith(`BEGIN:VCALENDAR${CRLF}VERSION:2.0${CRLF}PRODID:-//Lineage//Events//EN${CRLF}`)).toBe(true);
    expect(ics.endsWith(`END:VCALENDAR${CRLF}`)).toBe(true);
    // Every line break is a CRLF.
    expect(ics.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    for (const line of ics.split(CRLF)) expect(octets(line)).toBeLessThanOrEqual(MAX_LINE_OCTETS);
    expect(ics.match(/^BEGIN:VEVENT$/gm)?.length).toBe(2);
    expect(ics.match(/^END:VEVENT$/gm)?.length).toBe(2);
    const text = unfold(ics);
    expect(text).toContain(`${CRLF}X-WR-CALNAME:Lineage events${CRLF}`);
    expect(text).toContain(`${CRLF}UID:SKfyJ1XZBaaVXvGY@lineage.example${CRLF}`);
    expect(text).toContain(`${CRLF}DTSTAMP:20260519T083500Z${CRLF}`);
    expect(text).toContain(`${CRLF}LAST-MODIFIED:20260520T080000Z${CRLF}`);
    expect(text).toContain(`${CRLF}DTSTART:20260620T130000Z${CRLF}DTEND:20260620T153000Z${CRLF}`);
    expect(text).toContain(`${CRLF}SUMMARY:AGM\\, with tea\\; and a talk${CRLF}`);
    expect(text).toContain(`${CRLF}LOCATION:Lineage House\\, 27 Archive Lane\\, London EC1\\, and online${CRLF}`);
    expect(text).toContain(`${CRLF}DESCRIPTION:Line one\\nLine two\\\\three${CRLF}`);
    expect(text).toContain(`${CRLF}URL:https://lineage.example/sog-events/agm-2026${CRLF}`);
  });

  it("leaves out DTEND, LOCATION and DESCRIPTION it does not have", () => {
    const ics = buildCalendar({
      prodId: "-//Lineage//Events//EN",
      events: [{ ...event, end: null, location: null, description: null, url: null, created: null, lastModified: null }],
    });
    expect(ics).not.toMatch(/^(DTEND|LOCATION|DESCRIPTION|URL|CREATED|LAST-MODIFIED|X-WR-CALNAME)[:;]/m);
    expect(ics).toMatch(/^DTSTART:20260620T130000Z\r$/m);
  });

  it("leaves out an end that is not after the start", () => {
    const ics = buildCalendar({ prodId: "x", events: [{ ...event, end: event.start }] });
    expect(ics).not.toMatch(/^DTEND/m);
  });
});
