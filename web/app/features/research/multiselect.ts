// Pure rules of the multi-select dropdown (seed-spec §4, §5, §8, §9), shared
// by the component and its tests. The texts are the spec's, word for word.

export interface MultiSelectOption {
  /** What the form submits (a facet's `value`). */
  value: string;
  /** What the visitor reads (a facet's `label`). */
  label: string;
  /** How many records have it (a facet's `count`), shown after the label. */
  count?: number;
}

/** Dropdown list maximum height (seed-spec §9). */
export const MAX_HEIGHT_PX = 300;
/** How many chosen options are shown as tags before 'and N more' (seed-spec §9). */
export const DISPLAY_LIMIT = 99999;

export const EMPTY_LIST_TEXT = "List is empty.";
export const NO_RESULTS_TEXT = "No elements found. Consider changing the search query.";

/** 'Maximum of N options selected. First remove a selected option to select another.' */
export function maxText(max: number): string {
  return `Maximum of ${max} options selected. First remove a selected option to select another.`;
}

/** 'and N more', for chosen options beyond those shown as tags. */
export function overflowText(more: number): string {
  return `and ${more} more`;
}

/** Whether no further option may be chosen. A max of 0 or less means no maximum. */
export function atMax(selected: readonly string[], max: number | undefined): boolean {
  return max !== undefined && max > 0 && selected.length >= max;
}

/** The chosen options shown as tags and how many more there are. */
export function visibleTags<T>(selected: readonly T[], displayLimit: number = DISPLAY_LIMIT): { shown: T[]; more: number } {
  const limit = Math.max(0, Math.floor(displayLimit));
  return { shown: selected.slice(0, limit), more: Math.max(0, selected.length - limit) };
}

/** The option's text in the list: "Surrey (4)" when a count is known. */
export function optionText(option: MultiSelectOption): string {
  return option.count === undefined ? option.label : `${option.label} (${option.count.toLocaleString("en-GB")})`;
}

/** Folds case and accents, so "mull" finds "Müller" (as the dropdown's filter does). */
export function fold(text: string): string {
  return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
}

/** Options whose label contains the query (case and accents ignored). */
export function filterOptions(options: readonly MultiSelectOption[], query: string): MultiSelectOption[] {
  const q = fold(query.trim());
  if (q === "") return [...options];
  return options.filter((o) => fold(o.label).includes(q));
}

/** The message the open list shows instead of options, if any. */
export function emptyText(options: readonly MultiSelectOption[], query: string): string | null {
  if (options.length === 0) return EMPTY_LIST_TEXT;
  if (filterOptions(options, query).length === 0) return NO_RESULTS_TEXT;
  return null;
}

/**
 * The selection after toggling one option: removes it when chosen, adds it
 * when the maximum allows (single mode replaces), else leaves it unchanged.
 */
export function toggle(selected: readonly string[], value: string, mode: "single" | "multiple", max?: number): string[] {
  if (selected.includes(value)) return selected.filter((v) => v !== value);
  if (mode === "single") return [value];
  if (atMax(selected, max)) return [...selected];
  return [...selected, value];
}

/**
 * The values a request carries for one multi-select (repeated or
 * comma-separated parameters), without blanks or repeats, limited to `max`
 * (a form sent without JavaScript cannot enforce the maximum itself).
 */
export function valuesFromParams(params: URLSearchParams, name: string, max?: number): string[] {
  const out: string[] = [];
  for (const raw of params.getAll(name)) {
    for (const part of raw.split(",")) {
      const v = part.trim();
      if (v !== "" && !out.includes(v)) out.push(v);
    }
  }
  return max !== undefined && max > 0 ? out.slice(0, max) : out;
}

/**
 * Options for the chosen values that the list lacks (a facet that no longer
 * counts them), so a chosen value always shows and can be removed.
 */
export function withChosen(options: readonly MultiSelectOption[], selected: readonly string[]): MultiSelectOption[] {
  const known = new Set(options.map((o) => o.value));
  const missing = selected.filter((v) => !known.has(v)).map((v) => ({ value: v, label: v }));
  return [...options, ...missing];
}
