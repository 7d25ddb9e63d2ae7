import { describe, expect, it } from "vitest";
import { actionText, bytesText, changeLines, roleText } from "./words";
import { announcement, progressText } from "./JobProgress";
import type { Job } from "./types";

describe("changeLines", () => {
  it.each([
    [{ role: "registered" }, { role: "editor" }, ["role: Registered user → Editor"]],
    [{ disabled: false }, { disabled: true }, ["disabled: false → true"]],
    [null, { state: "failed" }, ["state: failed"]],
    [{ a: 1, b: 2 }, { a: 1 }, ["b: 2 → removed"]],
    [{ a: 1 }, { a: 1 }, []],
    ["not an object", [1, 2], []],
  ])("%j → %j", (before, after, want) => {
    expect(changeLines(before, after)).toEqual(want);
  });
});

describe("words", () => {
  it("names roles and actions, and shows unknown ones as they are", () => {
    expect(roleText("admin")).toBe("Administrator");
    expect(roleText("owner")).toBe("owner");
    expect(actionText("user.role")).toBe("Changed a role");
    expect(actionText("content.publish")).toBe("content.publish");
  });
  it("sizes files", () => {
    expect(bytesText(1)).toBe("1 byte");
    expect(bytesText(10 * 1024)).toBe("10 KB");
    expect(bytesText(2.5 * 1024 * 1024)).toBe("2.5 MB");
  });
});

function job(state: Job["state"], done: number, total: number): Job {
  return { id: 1, kind: "records", state, created_at: "", updated_at: "", started_by: null, progress: { done, total, percent: Math.floor((100 * done) / total) }, report: null, error: null };
}

describe("the live region's announcements", () => {
  it("says the start, each quarter once, and the end", () => {
    const last = { state: "queued", quarter: 0 };
    const said = [job("running", 0, 100), job("running", 10, 100), job("running", 26, 100), job("running", 30, 100), job("running", 55, 100), job("running", 80, 100), job("done", 100, 100)]
      .map((j) => announcement(j, last))
      .filter(Boolean);
    expect(said).toEqual(["The import has started.", "26% done: 26 of 100 records.", "55% done: 55 of 100 records.", "80% done: 80 of 100 records.", "The import has finished."]);
  });
  it("says why a job failed", () => {
    const failed = { ...job("failed", 5, 100), error: "The server stopped during the import; nothing was kept." };
    expect(announcement(failed, { state: "running", quarter: 0 })).toBe("The import failed. The server stopped during the import; nothing was kept.");
  });
  it("words a queued job and a scans job", () => {
    expect(progressText({ ...job("queued", 0, 0), progress: null })).toBe("Waiting for another import to finish");
    expect(progressText({ ...job("running", 3, 10), kind: "scans" })).toBe("3 of 10 scans");
  });
});
