// The staff screens' words for what the API names in codes: roles, job states, audit
// actions and the before/after of a change. Volunteers read these, so they are plain.
import { plural } from "../trees/index";
import type { JobState } from "./types";

export { plural };

const ROLE_WORDS: Record<string, string> = {
  registered: "Registered user",
  editor: "Editor",
  admin: "Administrator",
};

/** A role in words ("Editor"); an unknown role as the API names it. */
export function roleText(role: string): string {
  return ROLE_WORDS[role] ?? role;
}

const STATE_WORDS: Record<JobState, string> = {
  queued: "Waiting to start",
  running: "In progress",
  undoing: "Stopped: taking back what it loaded",
  done: "Finished",
  failed: "Failed",
  canceled: "Stopped",
};

export function jobStateText(state: JobState): string {
  return STATE_WORDS[state] ?? state;
}

/** Whether a job can change no more. */
export function jobFinished(state: JobState): boolean {
  return state === "done" || state === "failed" || state === "canceled";
}

const ACTION_WORDS: Record<string, string> = {
  "user.add": "Added an account",
  "user.delete": "Deleted an account",
  "user.role": "Changed a role",
  "user.disable": "Disabled an account",
  "user.enable": "Enabled an account",
  "user.password_reset": "Sent a password reset",
  "records.mapping_save": "Saved a column matching",
  "records.mapping_delete": "Deleted a column matching",
  "records.import": "Imported records",
  "scans.import": "Imported scans",
  "tree.upload": "Uploaded a family tree",
  "tree.publish": "Published a family tree",
  "tree.unpublish": "Unpublished a family tree",
  "tree.access": "Changed who may see a family tree",
};

/** An audit action in words; one without words here is shown as the API names it. */
export function actionText(action: string): string {
  return ACTION_WORDS[action] ?? action;
}

function valueText(value: unknown): string {
  if (value === null || value === undefined || value === "") return "nothing";
  if (typeof value === "string") return ROLE_WORDS[value] ?? value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

function asObject(value: unknown): Record<string, unknown> {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * What changed, one line per key: "role: Registered user → Editor". Keys only in the
 * after are "key: value"; keys whose value stayed the same are left out.
 */
export function changeLines(before: unknown, after: unknown): string[] {
  const b = asObject(before);
  const a = asObject(after);
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  const lines: string[] = [];
  for (const key of keys) {
    const was = valueText(b[key]);
    const now = valueText(a[key]);
    if (!(key in b)) lines.push(`${key}: ${now}`);
    else if (!(key in a)) lines.push(`${key}: ${was} → removed`);
    else if (was !== now) lines.push(`${key}: ${was} → ${now}`);
  }
  return lines;
}

/** A file size in words: "10 KB", "2.5 MB". */
export function bytesText(bytes: number): string {
  if (bytes < 1024) return plural(bytes, "byte");
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

const ACCESS_WORDS: Record<string, string> = { public: "Everyone", registered: "Anyone signed in", members: "Members only" };

/** Who may see something (lib/vocabulary's access levels) in words. */
export function accessText(level: string): string {
  return ACCESS_WORDS[level] ?? level;
}
