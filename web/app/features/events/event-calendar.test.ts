import { describe, expect, it } from "vitest";
import { agendaDays, buildCalendarMonth, calendarBounds } from "./event-calendar";
import type { EventSummary } from "./events";

function event(uid: string, start: string, end: string | null = null): EventSummary {
  return {
    id: uid,
    uid,
    href: `/sog-events/${uid}`,
    title: `Event ${uid}`,
    summary: null,
    start,
    end,
    location: "Lineage House",
    online: false,
    inPerson: true,
  };
}

const wide = { first: "2026-01", last: "2027-12" };

describe("calendar month", () => {
  it("lays out weeks Monday first, padding the first and last week", () => {
    // 1 December 2026 is a Tuesday; 31 December a Thursday.
    const month = buildCalendarMonth("2026-12", [], { today: "2026-11-21", bounds: wide });
    expect(month.label).toBe("December 2026");
    expect(month.weeks.length).toBe(5);
    for (const week of month.weeks) expect(week.length).toBe(7);
    expect(month.weeks[0]![0]).toBeNull();
    expect(month.weeks[0]![1]).toMatchObject({ date: "2026-12-01", day: 1 });
    expect(month.weeks[4]!.map((d) => d?.day ?? null)).toEqual([28, 29, 30, 31, null, null, null]);
    expect(month.eventDays).toBe(0);
  });

  it("starts a month that begins on Monday with no padding", () => {
    // 1 February 2027 is a Monday; February 2027 has 28 days: exactly four weeks.
    const month = buildCalendarMonth("2027-02", [], { today: "2026-11-21", bounds: wide });
    expect(month.weeks.length).toBe(4);
    expect(month.weeks[0]![0]).toMatchObject({ day: 1 });
    expect(month.weeks[3]![6]).toMatchObject({ day: 28 });
  });

  it("puts events on their London days, with the time they start", () => {
    const month = buildCalendarMonth(
      "2026-06",
      [
        event("agm", "2026-06-20T13:00:00.000Z", "2026-06-20T15:30:00.000Z"),
        // 23:30 UTC on 20 June is 00:30 on 21 June in London.
        event("late", "2026-06-20T23:30:00.000Z"),
      ],
      { today: "2026-06-20", bounds: wide },
    );
    const day = (n: number) => month.weeks.flat().find((d) => d?.day === n)!;
    expect(day(20).today).toBe(true);
    expect(day(20).events).toEqual([{ href: "/sog-events/agm", title: "Event agm", time: "2pm" }]);
    expect(day(21).events).toEqual([{ href: "/sog-events/late", title: "Event late", time: "12:30am" }]);
    expect(month.eventDays).toBe(2);
  });

  it("draws an event on every day it lasts, also across the clock change and the month's end", () => {
    // Friday 23 October 10:00 BST to Monday 26 October 16:00 GMT (the clocks go back on the 25th).
    const long = event("weekend", "2026-10-23T09:00:00.000Z", "2026-10-26T16:00:00.000Z");
    const october = buildCalendarMonth("2026-10", [long], { today: "2026-11-21", bounds: wide });
    const days = october.weeks.flat().filter((d) => d && d.events.length).map((d) => [d!.day, d!.events[0]!.time]);
    expect(days).toEqual([
      [23, "10am"],
      [24, "continues"],
      [25, "continues"],
      [26, "continues"],
    ]);
    const across = event("new-year", "2026-12-31T18:00:00.000Z", "2027-01-02T12:00:00.000Z");
    const january = buildCalendarMonth("2027-01", [across], { today: "2026-11-21", bounds: wide });
    expect(january.weeks.flat().filter((d) => d?.events.length).map((d) => d!.day)).toEqual([1, 2]);
  });

  it("orders a day's events by start", () => {
    const month = buildCalendarMonth(
      "2026-12",
      [event("evening", "2026-12-05T19:00:00.000Z"), event("morning", "2026-12-05T10:00:00.000Z")],
      { today: "2026-11-21", bounds: wide },
    );
    expect(month.weeks.flat().find((d) => d?.day === 5)!.events.map((e) => e.title)).toEqual(["Event morning", "Event evening"]);
  });

  it("links to neighbouring months only within the bounds", () => {
    const bounds = { first: "2026-03", last: "2027-05" };
    const today = "2026-11-21";
    expect(buildCalendarMonth("2026-12", [], { today, bounds })).toMatchObject({ previous: "2026-11", next: "2027-01" });
    expect(buildCalendarMonth("2026-03", [], { today, bounds })).toMatchObject({ previous: null, next: "2026-04" });
    expect(buildCalendarMonth("2027-05", [], { today, bounds })).toMatchObject({ previous: "2027-04", next: null });
    // Far outside the bounds, one step leads back into them.
    expect(buildCalendarMonth("2031-01", [], { today, bounds })).toMatchObject({ previous: "2027-05", next: null });
    expect(buildCalendarMonth("2020-01", [], { today, bounds })).toMatchObject({ previous: null, next: "2026-03" });
  });

  it("bounds navigation by the first and last event, and this month", () => {
    expect(calendarBounds("2026-11", new Date("2026-03-14T10:00:00Z"), new Date("2027-05-22T16:00:00Z"))).toEqual({
      first: "2026-03",
      last: "2027-05",
    });
    expect(calendarBounds("2026-11", null, null)).toEqual({ first: "2026-11", last: "2026-11" });
    expect(calendarBounds("2028-01", new Date("2026-03-14T10:00:00Z"), new Date("2027-05-22T16:00:00Z"))).toEqual({
      first: "2026-03",
      last: "2028-01",
    });
  });
});

describe("calendar agenda (narrow screens)", () => {
  it("lists only the days with events, in order, named in words", () => {
    const month = buildCalendarMonth(
      "2026-10",
      [event("weekend", "2026-10-23T09:00:00.000Z", "2026-10-24T16:00:00.000Z"), event("talk", "2026-10-06T18:00:00.000Z")],
      { today: "2026-11-21", bounds: wide },
    );
    const agenda = agendaDays(month);
    expect(agenda.map((d) => d.label)).toEqual(["Tuesday 6 October", "Friday 23 October", "Saturday 24 October"]);
    expect(agenda.map((d) => d.date)).toEqual(["2026-10-06", "2026-10-23", "2026-10-24"]);
    expect(agenda[0]!.events).toEqual([{ href: "/sog-events/talk", title: "Event talk", time: "7pm" }]);
    expect(agenda[2]!.events[0]!.time).toBe("continues");
  });

  it("is empty for a month without events", () => {
    expect(agendaDays(buildCalendarMonth("2026-12", [], { today: "2026-11-21", bounds: wide }))).toEqual([]);
  });
});
