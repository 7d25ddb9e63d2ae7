import { describe, expect, it } from "vitest";
import {
  attendanceLabel,
  attendanceOf,
  eventIcsPath,
  eventsHref,
  isHappeningNow,
  isPlausibleUid,
  isUpcoming,
  matchesAttendance,
  NO_EVENT_FILTERS,
  overlaps,
  parseEventFilters,
  splitEvents,
  titleSearchWords,
  toEventListItem,
  toEventSummary,
  type EventSummary,
} from "./events";
import { describeResults } from "./events-list.server";
import { eventDocument } from "./events.test-support";

const eventDoc = (uid: string, start: string | null, end: string | null, location: string | null = "Lineage House") =>
  eventDocument(uid, start, end, location);

const summary = (uid: string, start: string, end: string | null, location: string | null = "Lineage House") =>
  toEventSummary(eventDoc(uid, start, end, location))!;

describe("online or in person", () => {
  it.each([
    ["Online", true, false],
    ["online", true, false],
    ["Online (Zoom)", true, false],
    ["Online webinar", true, false],
    ["Lineage House, 27 Archive Lane, London EC1", false, true],
    ["Lineage House, 27 Archive Lane, London EC1, and online", true, true],
    ["Lineage House and on Zoom", true, true],
    ["Meeting Room 2, Lineage House", false, true],
    ["", false, false],
  ])("%j → online %s, in person %s", (location, online, inPerson) => {
    expect(attendanceOf(location)).toEqual({ online, inPerson });
  });

  it("matches the filter and labels", () => {
    const both = attendanceOf("Lineage House, and online");
    expect(matchesAttendance(both, "online")).toBe(true);
    expect(matchesAttendance(both, "in-person")).toBe(true);
    expect(matchesAttendance(attendanceOf("Online"), "in-person")).toBe(false);
    expect(matchesAttendance(attendanceOf(null), null)).toBe(true);
    expect(matchesAttendance(attendanceOf(null), "online")).toBe(false);
    expect(attendanceLabel(both)).toBe("In person and online");
    expect(attendanceLabel(attendanceOf("Online"))).toBe("Online");
    expect(attendanceLabel(attendanceOf(""))).toBeNull();
  });
});

describe("event summaries", () => {
  it("keeps what lists need, with the event's path", () => {
    const e = summary("agm-2026", "2026-06-20T13:00:00+0000", "2026-06-20T15:30:00+0000", "Lineage House, and online");
    expect(e).toMatchObject({
      uid: "agm-2026",
      href: "/sog-events/agm-2026",
      title: "Event agm-2026",
      summary: null,
      start: "2026-06-20T13:00:00.000Z",
      end: "2026-06-20T15:30:00.000Z",
      online: true,
      inPerson: true,
    });
  });

  it("drops an end that is not after the start, and events without a start", () => {
    expect(summary("a", "2026-06-20T13:00:00+0000", "2026-06-20T12:00:00+0000").end).toBeNull();
    expect(summary("a", "2026-06-20T13:00:00+0000", null).end).toBeNull();
    expect(toEventSummary(eventDoc("a", null, null))).toBeNull();
    expect(toEventSummary(eventDoc("a", "not a date", null))).toBeNull();
  });

  it("formats list items in London time", () => {
    const item = toEventListItem(summary("a", "2026-06-20T13:00:00+0000", "2026-06-20T15:30:00+0000"), new Date("2026-01-01T00:00:00Z"));
    expect(item.when.start).toEqual({ iso: "2026-06-20T14:00:00+01:00", text: "Saturday 20 June 2026, 2pm" });
    expect(item.when.end).toEqual({ iso: "2026-06-20T16:30:00+01:00", text: "4:30pm" });
    expect(item.attendance).toBe("In person");
    expect(item.happeningNow).toBe(false);
  });
});

describe("upcoming and past", () => {
  const now = new Date("2026-11-21T12:00:00Z");
  const events: EventSummary[] = [
    summary("palaeography", "2026-10-10T09:30:00+0000", "2026-10-10T14:30:00+0000"),
    summary("open-day", "2027-05-22T09:00:00+0000", "2027-05-22T16:00:00+0000"),
    summary("beginners", "2026-03-14T10:00:00+0000", "2026-03-14T16:00:00+0000"),
    summary("dna", "2026-12-02T19:00:00+0000", "2026-12-02T20:30:00+0000"),
    summary("today", "2026-11-21T10:00:00+0000", "2026-11-21T16:00:00+0000"),
    summary("this-morning", "2026-11-21T09:00:00+0000", null),
  ];

  it("lists upcoming soonest first, then past most recent first", () => {
    const { upcoming, past } = splitEvents(events, now);
    expect(upcoming.map((e) => e.uid)).toEqual(["today", "dna", "open-day"]);
    expect(past.map((e) => e.uid)).toEqual(["this-morning", "palaeography", "beginners"]);
  });

  it("counts an event in progress as upcoming and happening now", () => {
    const today = events.find((e) => e.uid === "today")!;
    expect(isUpcoming(today, now)).toBe(true);
    expect(isHappeningNow(today, now)).toBe(true);
    expect(isHappeningNow(events.find((e) => e.uid === "dna")!, now)).toBe(false);
  });

  it("finds events that take place at least partly in a window", () => {
    const weekend = summary("w", "2026-11-28T10:00:00+0000", "2026-12-01T16:00:00+0000");
    expect(overlaps(weekend, new Date("2026-12-01T00:00:00Z"), new Date("2027-01-01T00:00:00Z"))).toBe(true);
    expect(overlaps(weekend, new Date("2026-11-01T00:00:00Z"), new Date("2026-12-01T00:00:00Z"))).toBe(true);
    expect(overlaps(weekend, new Date("2026-12-02T00:00:00Z"), new Date("2027-01-01T00:00:00Z"))).toBe(false);
    expect(overlaps(weekend, new Date("2026-10-01T00:00:00Z"), new Date("2026-11-01T00:00:00Z"))).toBe(false);
  });
});

describe("filters in the query string", () => {
  const parse = (query: string) => parseEventFilters(new URLSearchParams(query));

  it("reads each filter", () => {
    expect(parse("")).toEqual(NO_EVENT_FILTERS);
    expect(parse("q=%20DNA%20%20talks%20&month=2026-12&attendance=online&page=2")).toEqual({
      q: "DNA talks",
      month: "2026-12",
      attendance: "online",
      page: 2,
    });
    expect(parse("attendance=in-person")?.attendance).toBe("in-person");
  });

  it("treats the empty fields a GET form sends as no filter", () => {
    expect(parse("q=&month=&attendance=&page=")).toEqual(NO_EVENT_FILTERS);
  });

  it("refuses malformed values", () => {
    expect(parse("month=2026-13")).toBeNull();
    expect(parse("month=December")).toBeNull();
    expect(parse("attendance=hybrid")).toBeNull();
    expect(parse("page=0")).toBeNull();
  });

  it("caps the search text", () => {
    expect(parse(`q=${"a".repeat(500)}`)?.q.length).toBe(100);
  });

  it("builds one URL per view, filters in a fixed order", () => {
    expect(eventsHref("/sog-events", NO_EVENT_FILTERS)).toBe("/sog-events");
    expect(eventsHref("/sog-events", { attendance: "online", month: "2026-12", q: "DNA & more", page: 1 }, "#calendar")).toBe(
      "/sog-events?q=DNA+%26+more&month=2026-12&attendance=online#calendar",
    );
    expect(eventsHref("/sog-events", { page: 3 })).toBe("/sog-events?page=3");
  });

  it("gives the content API only words", () => {
    expect(titleSearchWords(`beginners’ "day"\\`)).toBe("beginners day");
    expect(titleSearchWords("Généalogie 2027")).toBe("Généalogie 2027");
    expect(titleSearchWords("!!!")).toBe("");
  });

  it("describes what is shown", () => {
    expect(describeResults(NO_EVENT_FILTERS, 3, 3)).toBe("6 events: 3 upcoming, 3 past.");
    expect(describeResults({ ...NO_EVENT_FILTERS, month: "2026-12", attendance: "online", q: "DNA" }, 1, 0)).toBe(
      "1 online event in December 2026 with “DNA” in the title: 1 upcoming, 0 past.",
    );
    expect(describeResults({ ...NO_EVENT_FILTERS, attendance: "in-person" }, 0, 0)).toBe("No in-person events.");
  });
});

describe("uids in URLs", () => {
  it("accepts uids and refuses what could not be one", () => {
    expect(isPlausibleUid("agm-2026")).toBe(true);
    expect(isPlausibleUid("café")).toBe(true);
    expect(isPlausibleUid('a"b')).toBe(false);
    expect(isPlausibleUid("a\\b")).toBe(false);
    expect(isPlausibleUid("a b")).toBe(false);
    expect(isPlausibleUid("")).toBe(false);
    expect(isPlausibleUid(undefined)).toBe(false);
    expect(eventIcsPath("agm-2026")).toBe("/feeds/events/agm-2026.ics");
  });
});
