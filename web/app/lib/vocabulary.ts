// The words the Go API and the web app share, written once on this side: surname
// modes (internal/names), the kinds of research collection (internal/research) and
// access levels (internal/access; "scopes:…" levels are built from scopes, not
// listed). The Go API lists its own at GET /api/research/vocabulary, and
// e2e/vocabulary.test.mjs checks that these equal them, so the two cannot drift.
//
// No imports and only erasable TypeScript: the e2e test loads this file with Node's
// own type stripping.

export const SURNAME_MODES = ["exact", "variants", "soundex", "phonetic", "wildcard"] as const;
export type SurnameMode = (typeof SURNAME_MODES)[number];
/** What a surname search means when it does not say. */
export const DEFAULT_SURNAME_MODE: SurnameMode = "variants";

export const RECORD_KINDS = ["record_set", "index", "memorial_cards", "birth_briefs", "archive", "library"] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

export const ACCESS_LEVELS = ["public", "registered", "members"] as const;
export type AccessLevelName = (typeof ACCESS_LEVELS)[number];

/** A form's words for every surname mode; the order of the keys is the order of its options. */
export type SurnameModeLabels = Record<SurnameMode, string>;

/** A select's options from a form's labels. */
export function surnameModeOptions(labels: SurnameModeLabels): { value: SurnameMode; label: string }[] {
  return Object.entries(labels).map(([value, label]) => ({ value: value as SurnameMode, label }));
}
