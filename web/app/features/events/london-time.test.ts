import { describe, expect, it } from "vitest";
import {
  addMonths,
  formatClock,
  formatLondonDate,
  formatTimeRange,
  londonDayKey,
  londonIso,
  londonMonthRange,
  londonOffsetMinutes,
  londonParts,
  londonToUtc,
  londonYearMonth,
  monthLabel,
  monthsBetween,
  parseYearMonth,
  timeRangeText,
  weekdayIndex,
} from "./london-time";

const utc = (iso: string) => new Date(iso);

describe("London time", () => {
  it("reads wall-clock time in GMT and in BST", () => {
    expect(londonParts(utc("2026-12-02T19:00:00Z"))).toMatchObject({ year: 2026, month: 12, day: 2, hour: 19, minute: 0 });
    expect(londonParts(utc("2026-06-20T13:00:00Z"))).toMatchObject({ month: 6, day: 20, hour: 14 });
    // 23:30 UTC on 20 June is already 21 June in London.
    expect(londonDayKey(utc("2026-06-20T23:30:00Z"))).toBe("2026-06-21");
    expect(londonParts(utc("2026-06-20T23:30:00Z")).hour).toBe(0);
  });

  it("knows the offset either side of the clock changes", () => {
    // BST 2026: 29 March 01:00 UTC to 25 October 01:00 UTC.
    expect(londonOffsetMinutes(utc("2026-03-29T00:59:00Z"))).toBe(0);
    expect(londonOffsetMinutes(utc("2026-03-29T01:00:00Z"))).toBe(60);
    expect(londonOffsetMinutes(utc("2026-10-25T00:59:00Z"))).toBe(60);
    expect(londonOffsetMinutes(utc("2026-10-25T01:00:00Z"))).toBe(0);
  });

  it("turns London wall-clock time into instants", () => {
    expect(londonToUtc(2026, 12, 2, 19, 0).toISOString()).toBe("2026-12-02T19:00:00.000Z");
    expect(londonToUtc(2026, 6, 20, 14, 0).toISOString()).toBe("2026-06-20T13:00:00.000Z");
    expect(londonToUtc(2026, 4, 1).toISOString()).toBe("2026-03-31T23:00:00.000Z");
    // 01:30 does not exist on 29 March 2026: it comes out as 02:30 BST.
    expect(londonToUtc(2026, 3, 29, 1, 30).toISOString()).toBe("2026-03-29T01:30:00.000Z");
    // 01:30 happens twice on 25 October 2026: the first (BST) one.
    expect(londonToUtc(2026, 10, 25, 1, 30).toISOString()).toBe("2026-10-25T00:30:00.000Z");
  });

  it("writes London time with its offset for <time datetime>", () => {
    expect(londonIso(utc("2026-06-20T13:00:00Z"))).toBe("2026-06-20T14:00:00+01:00");
    expect(londonIso(utc("2026-12-02T19:00:00Z"))).toBe("2026-12-02T19:00:00+00:00");
  });

  it("says times of day the GOV.UK way", () => {
    expect(formatClock(19, 0)).toBe("7pm");
    expect(formatClock(10, 30)).toBe("10:30am");
    expect(formatClock(12, 0)).toBe("midday");
    expect(formatClock(0, 0)).toBe("midnight");
    expect(formatClock(12, 15)).toBe("12:15pm");
    expect(formatClock(0, 5)).toBe("12:05am");
  });

  it("names days without relying on the runtime's locale data", () => {
    expect(formatLondonDate(utc("2026-12-02T19:00:00Z"))).toBe("Wednesday 2 December 2026");
    expect(weekdayIndex(2026, 12, 1)).toBe(1); // a Tuesday
    expect(weekdayIndex(2026, 11, 1)).toBe(6); // a Sunday
  });

  it("formats an event's time range", () => {
    const evening = formatTimeRange(utc("2026-12-02T19:00:00Z"), utc("2026-12-02T20:30:00Z"));
    expect(timeRangeText(evening)).toBe("Wednesday 2 December 2026, 7pm to 8:30pm");
    expect(evening.start.iso).toBe("2026-12-02T19:00:00+00:00");
    expect(evening.end?.iso).toBe("2026-12-02T20:30:00+00:00");

    const summer = formatTimeRange(utc("2026-06-20T13:00:00Z"), utc("2026-06-20T15:30:00Z"));
    expect(timeRangeText(summer)).toBe("Saturday 20 June 2026, 2pm to 4:30pm");

    const weekend = formatTimeRange(utc("2027-02-13T10:30:00Z"), utc("2027-02-14T16:00:00Z"));
    expect(timeRangeText(weekend)).toBe("Saturday 13 February 2027, 10:30am to Sunday 14 February 2027, 4pm");

    expect(formatTimeRange(utc("2027-02-13T10:30:00Z"), null).end).toBeNull();
    // An end before the start is no end.
    expect(formatTimeRange(utc("2027-02-13T10:30:00Z"), utc("2027-02-13T09:00:00Z")).end).toBeNull();
  });
});

describe("months", () => {
  it("parses YYYY-MM", () => {
    expect(parseYearMonth("2026-12")).toEqual({ year: 2026, month: 12 });
    expect(parseYearMonth("2026-13")).toBeNull();
    expect(parseYearMonth("2026-1")).toBeNull();
    expect(parseYearMonth("26-01")).toBeNull();
    expect(parseYearMonth("")).toBeNull();
    expect(parseYearMonth(null)).toBeNull();
  });

  it("counts months across years", () => {
    expect(addMonths("2026-12", 1)).toBe("2027-01");
    expect(addMonths("2027-01", -1)).toBe("2026-12");
    expect(addMonths("2026-03", 14)).toBe("2027-05");
    expect(monthsBetween("2026-11", "2027-02")).toEqual(["2026-11", "2026-12", "2027-01", "2027-02"]);
    expect(monthsBetween("2027-02", "2026-11")).toEqual([]);
    expect(monthLabel("2026-12")).toBe("December 2026");
  });

  it("knows the London month of an instant and the instants of a month", () => {
    expect(londonYearMonth(utc("2026-05-31T23:30:00Z"))).toBe("2026-06");
    const june = londonMonthRange("2026-06");
    expect(june.from.toISOString()).toBe("2026-05-31T23:00:00.000Z");
    expect(june.to.toISOString()).toBe("2026-06-30T23:00:00.000Z");
    const december = londonMonthRange("2026-12");
    expect(december.from.toISOString()).toBe("2026-12-01T00:00:00.000Z");
    expect(december.to.toISOString()).toBe("2027-01-01T00:00:00.000Z");
  });
});
