// Editions as editors see them: the compose form's request, the status in words, and
// the sending progress.
import type { Edition, EditionCounts, EditionSection, EditionStatus } from "./types";

/** The automatic sections the API can add after the document, in the order it adds them. */
export const SECTIONS: readonly { value: EditionSection; label: string }[] = [
  { value: "news", label: "Latest news" },
  { value: "events", label: "Upcoming events" },
  { value: "collections", label: "Indexes and collections released since the last edition" },
];

export interface EditionRequest {
  list: string;
  document: string;
  subject: string;
  sections: EditionSection[];
}

const field = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

/** The compose form as the API's request; sections not ticked are off. */
export function editionRequest(form: FormData): EditionRequest {
  const ticked = new Set(form.getAll("sections"));
  return {
    list: field(form, "list"),
    document: field(form, "document"),
    subject: field(form, "subject").trim(),
    sections: SECTIONS.map((s) => s.value).filter((s) => ticked.has(s)),
  };
}

export function statusText(status: EditionStatus): string {
  switch (status) {
    case "draft":
      return "Draft";
    case "scheduled":
      return "Scheduled";
    case "sending":
      return "Sending";
    case "sent":
      return "Sent";
  }
}

/** Whether the edition may still be changed, scheduled or sent. */
export function editable(edition: Pick<Edition, "status">): boolean {
  return edition.status === "draft" || edition.status === "scheduled";
}

/** "120 of 300 sent, 2 failed, 178 waiting": the progress of a send, in words. */
export function progressText(counts: EditionCounts): string {
  const parts = [`${counts.sent} of ${counts.recipients} sent`];
  if (counts.failed) parts.push(`${counts.failed} failed`);
  if (counts.skipped) parts.push(`${counts.skipped} left out (no longer members)`);
  if (counts.queued) parts.push(`${counts.queued} waiting`);
  return parts.join(", ");
}

/** The share of recipients dealt with (sent, failed or left out), 0–100, for a progress bar. */
export function progressPercent(counts: EditionCounts): number {
  if (counts.recipients <= 0) return 0;
  return Math.min(100, Math.round(((counts.sent + counts.failed + (counts.skipped ?? 0)) / counts.recipients) * 100));
}

/**
 * A date and time typed in the form ("2026-12-01" and "09:00", UK time) as its parts,
 * or null when either is missing or not a real date and time.
 */
export function parseWallTime(date: string, time: string): { year: number; month: number; day: number; hour: number; minute: number } | null {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date.trim());
  const t = /^(\d{1,2}):(\d{2})$/.exec(time.trim());
  if (!d || !t) return null;
  const [year, month, day, hour, minute] = [d[1], d[2], d[3], t[1], t[2]].map(Number) as [number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59) return null;
  if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
  return { year, month, day, hour, minute };
}
