// The studio's words for states and times, plain for volunteers.
import type { DocumentStatus } from "./types";

export const STATUS_WORDS: Record<DocumentStatus, string> = {
  draft: "Draft",
  scheduled: "Scheduled",
  published: "Published",
  archived: "Archived",
};

export function statusText(status: DocumentStatus, hasChanges = false): string {
  const base = STATUS_WORDS[status] ?? status;
  return status === "published" && hasChanges ? `${base}, with changes not yet published` : base;
}

/** A date and time as people read it, in the browser's (or server's) time zone. */
export function when(iso: string | null | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return d.toLocaleString("en-GB", { day: "numeric", month: "long", year: "numeric", hour: "2-digit", minute: "2-digit" });
}

/** An address part made from a title: lower case, words joined by hyphens. */
export function slugify(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 100)
    .replace(/-+$/g, "");
}

/** Tags typed as a list: trimmed, without duplicates, empty ones dropped. */
export function addTags(tags: readonly string[], typed: string): string[] {
  const out = [...tags];
  for (const t of typed.split(",").map((s) => s.trim()).filter(Boolean)) if (!out.includes(t)) out.push(t);
  return out;
}
