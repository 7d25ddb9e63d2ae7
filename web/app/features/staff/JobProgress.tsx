// A background job followed live: the job as the loader read it, then the server-sent
// events of GET /api/studio/jobs/{id}/events (docs/studio-staff.md). The bar is
// react-aria's ProgressBar (role="progressbar" with its value in words); a polite live
// region says when the job starts, passes each quarter and ends, rather than every
// change, so a screen reader is not flooded. Without JavaScript (or EventSource) the
// page shows the job as loaded with a link to look again.
import { useEffect, useRef, useState, type ReactNode } from "react";
import { Label, ProgressBar } from "react-aria-components";
import type { Job } from "./types";
import { jobFinished, jobStateText, plural } from "./words";
import styles from "./staff.module.css";

const EVENTS = ["job", "progress", "done", "failed", "canceled"] as const;

/** What one job's bar says: "5,000 of 12,000 records". */
export function progressText(job: Job): string {
  const p = job.progress;
  const noun = job.kind === "scans" ? "scan" : "record";
  if (!p || !p.total) return job.state === "queued" ? "Waiting for another import to finish" : jobStateText(job.state);
  return `${p.done.toLocaleString("en-GB")} of ${plural(p.total, noun)}`;
}

function percentOf(job: Job): number {
  if (job.state === "done") return 100;
  const p = job.progress;
  if (!p) return 0;
  if (Number.isFinite(p.percent)) return Math.max(0, Math.min(100, p.percent));
  return p.total ? Math.round((100 * p.done) / p.total) : 0;
}

/** The sentence the live region says for a job, or null when nothing worth saying changed. */
export function announcement(job: Job, last: { state: string; quarter: number }): string | null {
  const quarter = Math.floor(percentOf(job) / 25);
  const what = job.kind === "scans" ? "The scans" : "The import";
  if (job.state !== last.state) {
    last.state = job.state;
    last.quarter = quarter;
    switch (job.state) {
      case "running":
        return `${what} has started.`;
      case "undoing":
        return `${what} stopped and is taking back what it loaded.`;
      case "done":
        return `${what} has finished.`;
      case "failed":
        return `${what} failed. ${job.error ?? ""}`.trim();
      case "canceled":
        return `${what} was stopped. ${job.error ?? ""}`.trim();
      default:
        return null;
    }
  }
  if (job.state === "running" && quarter > last.quarter && quarter < 4) {
    last.quarter = quarter;
    return `${percentOf(job)}% done: ${progressText(job)}.`;
  }
  return null;
}

export function JobProgress({ initial, children }: { initial: Job; children: (job: Job) => ReactNode }) {
  const [job, setJob] = useState(initial);
  const [said, setSaid] = useState("");
  const [lost, setLost] = useState(false);
  const last = useRef({ state: initial.state as string, quarter: Math.floor(percentOf(initial) / 25) });

  useEffect(() => {
    setJob(initial);
  }, [initial]);

  const finished = jobFinished(job.state);
  useEffect(() => {
    if (finished || typeof EventSource === "undefined") return;
    const source = new EventSource(`/api/studio/jobs/${initial.id}/events`, { withCredentials: true });
    const onEvent = (event: MessageEvent<string>) => {
      let next: Job;
      try {
        next = JSON.parse(event.data) as Job;
      } catch {
        return;
      }
      setLost(false);
      setJob(next);
      const words = announcement(next, last.current);
      if (words) setSaid(words);
      if (jobFinished(next.state)) source.close();
    };
    for (const name of EVENTS) source.addEventListener(name, onEvent as EventListener);
    // The browser reconnects by itself (with Last-Event-ID); say so only when it gave up.
    source.onerror = () => {
      if (source.readyState === EventSource.CLOSED) setLost(true);
    };
    return () => source.close();
  }, [initial.id, finished]);

  const percent = percentOf(job);
  const title = job.kind === "scans" ? "Preparing the scans" : "Importing the records";
  return (
    <div className={styles.progress}>
      <ProgressBar value={percent} minValue={0} maxValue={100} valueLabel={`${percent}%: ${progressText(job)}`}>
        {({ valueText }) => (
          <>
            <div className={styles.progressLabel}>
              <Label>{title}</Label>
              <span>{valueText}</span>
            </div>
            <div className={styles.bar}>
              <div className={styles.fill} style={{ width: `${percent}%` }} />
            </div>
          </>
        )}
      </ProgressBar>
      <p>
        <strong>{jobStateText(job.state)}</strong>
        {job.progress?.current ? ` (now: ${job.progress.current})` : null}
      </p>
      <div role="status" aria-live="polite" className="visually-hidden">
        {said}
      </div>
      {lost ? (
        <p role="alert">
          The live progress stopped. <a href="">Reload this page</a> to see how far it has got.
        </p>
      ) : null}
      {children(job)}
    </div>
  );
}
