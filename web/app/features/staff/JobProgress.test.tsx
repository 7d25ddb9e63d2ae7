import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { JobProgress } from "./JobProgress";
import type { Job } from "./types";

const running: Job = {
  id: 12,
  kind: "records",
  state: "running",
  created_at: "2026-11-26T01:00:00Z",
  updated_at: "2026-11-26T01:00:05Z",
  started_by: { id: 3, name: "Bea" },
  collection: "parish-1851",
  progress: { done: 5000, total: 12000, percent: 41 },
  report: null,
  error: null,
};

describe("JobProgress as the server renders it", () => {
  it("is a named progress bar with its value in words, and an empty polite live region", () => {
    const html = renderToStaticMarkup(<JobProgress initial={running}>{() => <p>outcome</p>}</JobProgress>);
    expect(html).toMatch(/role="progressbar"/);
    expect(html).toMatch(/aria-valuenow="41"/);
    expect(html).toMatch(/aria-valuetext="41%: 5,000 of 12,000 records"/);
    expect(html).toContain("Importing the records");
    expect(html).toMatch(/<div role="status" aria-live="polite" class="visually-hidden"><\/div>/);
    expect(html).toContain("In progress");
    expect(html).toContain("<p>outcome</p>");
  });

  it("shows a finished job full, and a scans job with the file it is on", () => {
    const done = renderToStaticMarkup(<JobProgress initial={{ ...running, state: "done" }}>{() => null}</JobProgress>);
    expect(done).toMatch(/aria-valuenow="100"/);
    expect(done).toContain("Finished");
    const scans = renderToStaticMarkup(
      <JobProgress initial={{ ...running, kind: "scans", progress: { done: 3, total: 10, percent: 30, current: "page-004.jpg" } }}>{() => null}</JobProgress>,
    );
    expect(scans).toContain("Preparing the scans");
    expect(scans).toContain("3 of 10 scans");
    expect(scans).toContain("(now: page-004.jpg)");
  });
});
