import { describe, expect, it } from "vitest";
import { editable, editionRequest, parseWallTime, progressPercent, progressText, SECTIONS, statusText } from "./edition";
import { formData as form } from "../../lib/form-data.test-support";

describe("editionRequest", () => {
  it("reads list, document, trimmed subject and the ticked sections in the API's order", () => {
    const request = editionRequest(
      form([
        ["list", "news"],
        ["document", "demo-newsletter"],
        ["subject", "  December news "],
        ["sections", "collections"],
        ["sections", "news"],
        ["sections", "bogus"],
      ]),
    );
    expect(request).toEqual({ list: "news", document: "demo-newsletter", subject: "December news", sections: ["news", "collections"] });
  });

  it("sends no sections when none is ticked (they are off)", () => {
    expect(editionRequest(form([["subject", "x"]])).sections).toEqual([]);
  });

  it("knows the API's three sections", () => {
    expect(SECTIONS.map((s) => s.value)).toEqual(["news", "events", "collections"]);
  });
});

describe("status and progress", () => {
  it("names every status", () => {
    expect(["draft", "scheduled", "sending", "sent"].map((s) => statusText(s as never))).toEqual(["Draft", "Scheduled", "Sending", "Sent"]);
  });

  it("lets drafts and scheduled editions change, not those sending or sent", () => {
    expect(editable({ status: "draft" })).toBe(true);
    expect(editable({ status: "scheduled" })).toBe(true);
    expect(editable({ status: "sending" })).toBe(false);
    expect(editable({ status: "sent" })).toBe(false);
  });

  it("says the progress in words, leaving out what is zero", () => {
    expect(progressText({ recipients: 300, queued: 178, sent: 120, failed: 2 })).toBe("120 of 300 sent, 2 failed, 178 waiting");
    expect(progressText({ recipients: 3, queued: 0, sent: 3, failed: 0 })).toBe("3 of 3 sent");
    expect(progressText({ recipients: 5, queued: 1, sent: 2, failed: 0, skipped: 2 })).toBe("2 of 5 sent, 2 left out (no longer members), 1 waiting");
  });

  it("counts sent, failed and left out as done", () => {
    expect(progressPercent({ recipients: 300, queued: 178, sent: 120, failed: 2 })).toBe(41);
    expect(progressPercent({ recipients: 0, queued: 0, sent: 0, failed: 0 })).toBe(0);
    expect(progressPercent({ recipients: 2, queued: 0, sent: 2, failed: 1 })).toBe(100);
    expect(progressPercent({ recipients: 4, queued: 0, sent: 2, failed: 0, skipped: 2 })).toBe(100);
  });
});

describe("parseWallTime", () => {
  it("reads a day and a time", () => {
    expect(parseWallTime("2026-12-01", "09:05")).toEqual({ year: 2026, month: 12, day: 1, hour: 9, minute: 5 });
    expect(parseWallTime(" 2027-02-28 ", "9:30")).toEqual({ year: 2027, month: 2, day: 28, hour: 9, minute: 30 });
  });

  it.each([
    ["", "09:00"],
    ["2026-12-01", ""],
    ["2026-13-01", "09:00"],
    ["2027-02-29", "09:00"],
    ["2026-12-00", "09:00"],
    ["2026-12-01", "24:00"],
    ["2026-12-01", "09:60"],
    ["1/12/2026", "09:00"],
  ])("refuses %j %j", (date, time) => {
    expect(parseWallTime(date, time)).toBeNull();
  });
});
