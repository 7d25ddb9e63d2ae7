import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime, parseContentDate } from "./dates";

describe("dates", () => {
  it("parses Prismic dates and timestamps", () => {
    expect(parseContentDate("2024-05-01")?.toISOString()).toBe("2024-05-01T00:00:00.000Z");
    expect(parseContentDate("2018-03-04T00:57:25+0000")?.toISOString()).toBe("2018-03-04T00:57:25.000Z");
    expect(parseContentDate("nonsense")).toBeNull();
    expect(parseContentDate(null)).toBeNull();
  });
  it("formats for UK readers", () => {
    expect(formatDate("2024-05-01")).toBe("1 May 2024");
    expect(formatDateTime("2024-05-01T18:30:00+0000")).toContain("1 May 2024");
    expect(formatDate(undefined)).toBeNull();
  });
});
