import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createContentFetch, createContentClient, getEvents } from "../content/index.server";
import { ENDPOINT, repository } from "../content/content-api.test-support";
import { NO_EVENT_FILTERS } from "./events";
import { loadEventList, PAST_EVENTS_PAGE_SIZE } from "./events-list.server";
import { eventsCalendar, toCalendarEvent } from "./events-feed.server";
import { eventDocument } from "./events.test-support";

const NOW = new Date("2026-11-21T12:00:00Z");

const eventDoc = (uid: string, start: string, end: string, location: string) =>
  eventDocument(uid, start, end, location, { summary: `About ${uid}; with, punctuation` });

// Newest start first, as the content API orders them.
const demo = [
  eventDoc("open-day", "2027-05-22T09:00:00+0000", "2027-05-22T16:00:00+0000", "Lineage House"),
  eventDoc("london", "2027-02-13T10:30:00+0000", "2027-02-13T16:00:00+0000", "Lineage House"),
  eventDoc("dna", "2026-12-02T19:00:00+0000", "2026-12-02T20:30:00+0000", "Online"),
  eventDoc("palaeography", "2026-10-10T09:30:00+0000", "2026-10-10T14:30:00+0000", "Lineage House"),
  eventDoc("agm", "2026-06-20T13:00:00+0000", "2026-06-20T15:30:00+0000", "Lineage House, and online"),
  eventDoc("beginners", "2026-03-14T10:00:00+0000", "2026-03-14T16:00:00+0000", "Lineage House"),
];

function envelope(all: unknown[], page: number, pageSize: number) {
  const results = all.slice((page - 1) * pageSize, page * pageSize);
  const totalPages = Math.ceil(all.length / pageSize);
  return {
    page,
    results_per_page: pageSize,
    results_size: results.length,
    total_results_size: all.length,
    total_pages: totalPages,
    next_page: page < totalPages ? "next" : null,
    prev_page: null,
    results,
  };
}

/**
 * A content service that answers every search with `docs` (newest start
 * first, ordered by start ascending when asked), paged as asked, and records
 * the queries.
 */
function service(docs: unknown[] | (() => Response)) {
  const searches: URLSearchParams[] = [];
  const fetch = vi.fn(async (input: string | URL | Request) => {
    const url = new URL(String(input));
    if (url.pathname.endsWith("/api/v2")) return Response.json(repository);
    searches.push(url.searchParams);
    if (typeof docs === "function") return docs();
    const pageSize = Number(url.searchParams.get("pageSize") ?? 20);
    const page = Number(url.searchParams.get("page") ?? 1);
    const ordered = /start asc|start\]/.test(url.searchParams.get("orderings") ?? "") ? [...docs].reverse() : docs;
    return Response.json(envelope(ordered, page, pageSize));
  });
  return { client: createContentClient(undefined, createContentFetch({ fetch: fetch as unknown as typeof globalThis.fetch })), searches };
}

describe("events from the content API", () => {
  beforeEach(() => {
    process.env.LINEAGE_CONTENT_API = ENDPOINT;
    vi.spyOn(console, "error").mockImplementation(() => {});
  });
  afterEach(() => {
    delete process.env.LINEAGE_CONTENT_API;
    vi.restoreAllMocks();
  });

  it("asks for the list fields, latest start first, narrowed by month window and title words", async () => {
    const s = service(demo);
    const from = new Date("2026-12-01T00:00:00Z");
    const to = new Date("2027-01-01T00:00:00Z");
    await getEvents(s.client, { window: { from, to }, titleWords: "DNA talk" });
    const q = s.searches[0]!.getAll("q").join("");
    expect(q).toContain('[at(document.type, "event")]');
    expect(q).toContain(`[date.before(my.event.start, ${to.getTime()})]`);
    expect(q).toContain(`[date.after(my.event.start, ${from.getTime() - 14 * 86_400_000})]`);
    expect(q).toContain('[fulltext(my.event.title, "DNA talk")]');
    expect(s.searches[0]!.get("fetch")).toBe("event.title,event.summary,event.start,event.end,event.location");
    expect(s.searches[0]!.get("orderings")).toBe("[my.event.start desc]");
    expect(s.searches[0]!.get("pageSize")).toBe("100");
  });

  it("fetches the pages after the first together, up to the cap", async () => {
    const many = Array.from({ length: 250 }, (_, i) =>
      eventDoc(`e${i}`, new Date(Date.UTC(2030, 0, 1) - i * 86_400_000).toISOString().replace(/\.\d{3}Z$/, "+0000"), "", "Online"),
    );
    const s = service(many);
    const result = await getEvents(s.client);
    expect(result.value.length).toBe(250);
    expect(s.searches.map((p) => p.get("page") ?? "1").sort()).toEqual(["1", "2", "3"]);
  });

  it("lists upcoming soonest first and past most recent first, filters in person, and pages the past", async () => {
    const s = service(demo);
    const view = (await loadEventList(s.client, NO_EVENT_FILTERS, NOW))!;
    expect(view.upcoming.map((e) => e.href)).toEqual(["/sog-events/dna", "/sog-events/london", "/sog-events/open-day"]);
    expect(view.past.map((e) => e.href)).toEqual(["/sog-events/palaeography", "/sog-events/agm", "/sog-events/beginners"]);
    expect(view.resultText).toBe("6 events: 3 upcoming, 3 past.");
    expect(view.unavailable).toBe(false);
    expect(view.totalPages).toBe(1);
    // The calendar shows this month; navigation spans the first to the last event.
    expect(view.calendar.month).toBe("2026-11");
    expect(view.calendarLinks.previous).toBe("/sog-events?month=2026-10#calendar");
    expect(view.calendarLinks.next).toBe("/sog-events?month=2026-12#calendar");
    expect(view.calendarLinks.thisMonth).toBeNull();
    expect(view.monthOptions.map((g) => g.year)).toEqual(["2026", "2027"]);
    expect(view.monthOptions[0]!.months[0]).toEqual({ value: "2026-03", label: "March 2026" });
    expect(view.monthOptions[1]!.months.at(-1)).toEqual({ value: "2027-05", label: "May 2027" });

    const inPerson = (await loadEventList(s.client, { ...NO_EVENT_FILTERS, attendance: "in-person" }, NOW))!;
    expect(inPerson.upcoming.map((e) => e.href)).toEqual(["/sog-events/london", "/sog-events/open-day"]);
    expect(inPerson.past.map((e) => e.href)).toContain("/sog-events/agm");

    const online = (await loadEventList(s.client, { ...NO_EVENT_FILTERS, attendance: "online" }, NOW))!;
    expect([...online.upcoming, ...online.past].map((e) => e.href)).toEqual(["/sog-events/dna", "/sog-events/agm"]);
  });

  it("narrows to a month, shows that month in the calendar and keeps the other filters in its links", async () => {
    const s = service(demo);
    const view = (await loadEventList(s.client, { ...NO_EVENT_FILTERS, month: "2026-12", attendance: "online" }, NOW))!;
    expect(view.upcoming.map((e) => e.href)).toEqual(["/sog-events/dna"]);
    expect(view.past).toEqual([]);
    expect(view.calendar.month).toBe("2026-12");
    expect(view.calendar.weeks.flat().find((d) => d?.day === 2)!.events[0]!.href).toBe("/sog-events/dna");
    expect(view.calendarLinks.previous).toBe("/sog-events?month=2026-11&attendance=online#calendar");
    expect(view.calendarLinks.thisMonth).toBe("/sog-events?month=2026-11&attendance=online#calendar");
    expect(view.resultText).toBe("1 online event in December 2026: 1 upcoming, 0 past.");
  });

  it("pages past events and has no page past the last", async () => {
    const past = Array.from({ length: PAST_EVENTS_PAGE_SIZE + 3 }, (_, i) =>
      eventDoc(`p${i}`, new Date(Date.UTC(2026, 9, 30) - i * 86_400_000).toISOString().replace(/\.\d{3}Z$/, "+0000"), "", "Online"),
    );
    const s = service(past);
    const first = (await loadEventList(s.client, NO_EVENT_FILTERS, NOW))!;
    expect(first.past.length).toBe(PAST_EVENTS_PAGE_SIZE);
    expect(first.totalPages).toBe(2);
    const second = (await loadEventList(s.client, { ...NO_EVENT_FILTERS, page: 2 }, NOW))!;
    expect(second.past.map((e) => e.href)).toEqual(["/sog-events/p10", "/sog-events/p11", "/sog-events/p12"]);
    expect(second.upcoming).toEqual([]);
    expect(await loadEventList(s.client, { ...NO_EVENT_FILTERS, page: 3 }, NOW)).toBeNull();
  });

  it("finds nothing for a search without words, without asking the API to search for it", async () => {
    const s = service(demo);
    const view = (await loadEventList(s.client, { ...NO_EVENT_FILTERS, q: "!!!" }, NOW))!;
    expect(view.upcoming).toEqual([]);
    expect(view.past).toEqual([]);
    expect(s.searches.some((p) => p.getAll("q").join("").includes("fulltext"))).toBe(false);
  });

  it("shows the empty list with a notice when the content service fails", async () => {
    const s = service(() => new Response("down", { status: 503 }));
    const view = (await loadEventList(s.client, NO_EVENT_FILTERS, NOW))!;
    expect(view.unavailable).toBe(true);
    expect(view.upcoming).toEqual([]);
    expect(view.calendar.month).toBe("2026-11");
  });
});

describe("events as iCalendar", () => {
  const request = new Request("https://lineage.example/feeds/events.ics");

  it("makes a VEVENT per event document: UID on the public host, UTC times, escaped text, the page URL", () => {
    const vevent = toCalendarEvent(request, demo[4]!)!;
    expect(vevent.uid).toBe("IDagm@lineage.example");
    expect(vevent.start.toISOString()).toBe("2026-06-20T13:00:00.000Z");
    expect(vevent.end?.toISOString()).toBe("2026-06-20T15:30:00.000Z");
    expect(vevent.url).toBe("https://lineage.example/sog-events/agm");
    expect(vevent.stamp.toISOString()).toBe("2026-02-01T09:30:00.000Z");
    const ics = eventsCalendar(request, [demo[4]!], null);
    const text = ics.replace(/\r\n[ \t]/g, "");
    expect(text).toContain("\r\nSUMMARY:Event agm\r\n");
    expect(text).toContain("\r\nLOCATION:Lineage House\\, and online\r\n");
    expect(text).toContain("\r\nDESCRIPTION:About agm\\; with\\, punctuation\\n\\nDetails: https://lineage.example/sog-events/agm\r\n");
    expect(text).toContain("\r\nDTSTART:20260620T130000Z\r\nDTEND:20260620T153000Z\r\n");
  });
});
