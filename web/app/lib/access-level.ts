// Who may open a collection, a record or a scan item, as the Go API writes it
// (internal/access; docs/research.md, "Paywall"; docs/iiif.md): "public" (or ""),
// "registered", "members" or "scopes:a,b". Shared by the research and images
// features. Anything this cannot read counts as restricted: a level the web app
// does not understand must never be shown, or treated, as free.

import type { AccessLevelName } from "./vocabulary";

/** An access level as the API sends it. */
export type Access = string;

export type AccessKind = AccessLevelName | "scopes" | "unknown";

export interface AccessLevel {
  kind: AccessKind;
  /** For "scopes": the scopes any one of which opens it. */
  scopes: string[];
  /** Whether everyone, signed in or not, may open it. */
  open: boolean;
  /** A short tag: "Free to search", "Members only"… */
  label: string;
  /** A sentence for a collection's facts. */
  description: string;
  /** Who may open it, for a parenthesis after a title: "" when open, else e.g. "members". */
  note: string;
}

// The same limits as internal/access, so a level Go refuses is not read here either.
const MAX_SCOPES = 16;
const MAX_SCOPE_LEN = 64;
const SCOPE = /^[A-Za-z0-9:_.-]+$/;
const VISITORS_SEE = "visitors see names, years and the collection";

/** A scope's name for people: "member" → "Members", "member:overseas" → "Overseas members". */
export function scopeLabel(scope: string): string {
  if (scope === "member") return "Members";
  if (scope === "registered") return "Account holders";
  const rest = scope.startsWith("member:") ? scope.slice("member:".length) : "";
  if (rest && /^[A-Za-z0-9_.-]+$/.test(rest)) {
    const words = rest.replace(/[_.-]+/g, " ").trim().toLowerCase();
    if (words) return `${words[0].toUpperCase()}${words.slice(1)} members`;
  }
  return `Members (${scope})`;
}

function parseScopes(list: string): string[] | null {
  const parts = list.split(",").map((s) => s.trim());
  if (parts.length > MAX_SCOPES) return null;
  const scopes: string[] = [];
  for (const s of parts) {
    if (!s || s.length > MAX_SCOPE_LEN || !SCOPE.test(s)) return null;
    if (!scopes.includes(s)) scopes.push(s);
  }
  return scopes.sort();
}

/** Reads a level; null, undefined, a non-string or an unreadable level is "unknown" (restricted). */
export function parseAccess(access: unknown): AccessLevel {
  if (typeof access !== "string") return unknown();
  const t = access.trim();
  switch (t.toLowerCase()) {
    case "":
    case "public":
      return { kind: "public", scopes: [], open: true, label: "Free to search", description: "Free to search and read", note: "" };
    case "registered":
      return {
        kind: "registered",
        scopes: [],
        open: false,
        label: "Free with an account",
        description: "Free with an account: sign in or register to search and read",
        note: "free with an account",
      };
    case "members":
      return members(["member"]);
  }
  if (t.slice(0, "scopes:".length).toLowerCase() !== "scopes:") return unknown();
  const scopes = parseScopes(t.slice("scopes:".length));
  return scopes ? members(scopes) : unknown();
}

function members(scopes: string[]): AccessLevel {
  if (scopes.length === 1 && scopes[0] === "member")
    return { kind: "members", scopes, open: false, label: "Members only", description: `Members only: ${VISITORS_SEE}`, note: "members" };
  const who = scopes.map(scopeLabel).join(" or ");
  return { kind: "scopes", scopes, open: false, label: `${who} only`, description: `${who} only: ${VISITORS_SEE}`, note: who[0].toLowerCase() + who.slice(1) };
}

function unknown(): AccessLevel {
  return { kind: "unknown", scopes: [], open: false, label: "Restricted", description: `Restricted: ${VISITORS_SEE}`, note: "restricted" };
}

/** Whether everyone may open what carries this level. */
export function isOpenAccess(access: unknown): boolean {
  return parseAccess(access).open;
}

/** A title with who may open it: "Parish registers (members)"; the title alone when open. */
export function titleWithAccess(title: string, access: unknown): string {
  const level = parseAccess(access);
  return level.open ? title : `${title} (${level.note})`;
}
