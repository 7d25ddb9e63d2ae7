// The search page's state lives in its URL (bookmarkable; the back button works).
// These pure functions read that URL into a query, write a query back into page
// URLs, and turn it into the research API's parameters (docs/research.md).
import { DEFAULT_SURNAME_MODE, surnameModeOptions } from "../../../lib/vocabulary";
import { SEARCH_PATH } from "./paths";

export { SEARCH_PATH, recordPath } from "./paths";

export const SURNAME_MODE_OPTIONS = surnameModeOptions({
  exact: "Exact spelling",
  variants: "Known variant spellings",
  soundex: "Sounds like (Soundex)",
  phonetic: "Sounds like (phonetic codes)",
  wildcard: "Wildcard (* and ?)",
});

export const YEAR_TOLERANCES = ["0", "1", "2", "5", "10", "20", "40"] as const;

export const RELATIVE_ROLES = [
  { value: "any", label: "Any relative" },
  { value: "father", label: "Father" },
  { value: "mother", label: "Mother" },
  { value: "spouse", label: "Husband or wife" },
] as const;

export const SORTS = [
  { value: "relevance", label: "Best match first" },
  { value: "date", label: "Date, earliest first" },
  { value: "name", label: "Name, A to Z" },
] as const;

export const ROLES = [
  "principal",
  "father",
  "mother",
  "spouse",
  "groom",
  "bride",
  "witness",
  "head",
  "wife",
  "son",
  "daughter",
  "executor",
  "master",
] as const;

/** The record types of the society's indexes (docs/research.md), offered before a search has facets. */
export const RECORD_TYPES = [
  { value: "baptism", label: "Baptism" },
  { value: "marriage", label: "Marriage" },
  { value: "burial", label: "Burial" },
  { value: "will", label: "Will" },
  { value: "apprenticeship", label: "Apprenticeship" },
  { value: "census", label: "Census" },
  { value: "memorial_card", label: "Memorial card" },
  { value: "birth_brief", label: "Birth brief" },
] as const;

/** Text parameters are at most 200 characters; lists at most 20 values (the API's limits). */
export const MAX_TEXT = 200;
export const MAX_VALUES = 20;

/** A search as the page holds it. Every value is as the visitor gave it (trimmed). */
export interface SearchQuery {
  surname: string;
  surname_mode: string;
  given: string;
  year: string;
  year_pm: string;
  decade: string;
  /** The place field: a name, a path or an id from the gazetteer. */
  place: string;
  /** The county facet: a place id. The place field wins when both are given. */
  county: string;
  record_type: string[];
  collection: string[];
  role: string[];
  relative: string;
  relative_role: string;
  sort: string;
  /** The keyset cursor of the page shown ("" = the first page). */
  after: string;
}

const TEXT_KEYS = [
  "surname",
  "surname_mode",
  "given",
  "year",
  "year_pm",
  "decade",
  "place",
  "county",
  "relative",
  "relative_role",
  "sort",
  "after",
] as const;
const LIST_KEYS = ["record_type", "collection", "role"] as const;
type TextKey = (typeof TEXT_KEYS)[number];
type ListKey = (typeof LIST_KEYS)[number];

export function emptyQuery(): SearchQuery {
  return {
    surname: "",
    surname_mode: "",
    given: "",
    year: "",
    year_pm: "",
    decade: "",
    place: "",
    county: "",
    record_type: [],
    collection: [],
    role: [],
    relative: "",
    relative_role: "",
    sort: "",
    after: "",
  };
}

/**
 * Repeated and comma-separated values, trimmed, without empties and duplicates;
 * each value cut to `maxLength` characters and at most `max` values (no limits
 * unless given). The collection pages' form reads its lists with this too.
 */
export function listOf(
  params: URLSearchParams,
  key: string,
  { maxLength = Infinity, max = Infinity }: { maxLength?: number; max?: number } = {},
): string[] {
  const out: string[] = [];
  for (const raw of params.getAll(key)) {
    for (const part of raw.split(",")) {
      const value = part.trim().slice(0, maxLength);
      if (value && !out.includes(value)) out.push(value);
    }
  }
  return out.slice(0, max);
}

/** Reads a page URL's query (or a form's fields) into a search. */
export function readQuery(params: URLSearchParams): SearchQuery {
  const query = emptyQuery();
  for (const key of TEXT_KEYS) {
    // A form may send a field twice (a select and a hidden input): the last one wins.
    const values = params.getAll(key);
    query[key] = (values[values.length - 1] ?? "").trim();
  }
  for (const key of LIST_KEYS) query[key] = listOf(params, key);
  return query;
}

/** The global search's text (`?q=`), "" when absent. */
export function readGlobalQuery(params: URLSearchParams): string {
  return (params.get("q") ?? "").trim();
}

/**
 * True when the search names something the API can search by: a surname, year,
 * decade, place, county, collection or record type (given names, relatives and roles
 * only narrow a search).
 */
export function isSearch(query: SearchQuery): boolean {
  return Boolean(
    query.surname ||
      query.year ||
      query.decade ||
      query.place ||
      query.county ||
      query.collection.length ||
      query.record_type.length,
  );
}

/** True when the visitor filled in anything at all (so the page should answer). */
export function hasAnyField(query: SearchQuery): boolean {
  const settings: readonly TextKey[] = ["after", "sort", "surname_mode", "year_pm", "relative_role"];
  return TEXT_KEYS.some((key) => !settings.includes(key) && query[key] !== "") || LIST_KEYS.some((key) => query[key].length > 0);
}

/**
 * The research API's parameters for a search (for /api/research/search and
 * /api/research/count). Values that only make sense with another one are left out
 * without it (a tolerance without a year, a relative's role without a relative), and
 * defaults are not sent. The place field wins over the county facet.
 */
export function apiParams(query: SearchQuery, { withPaging = true }: { withPaging?: boolean } = {}): URLSearchParams {
  const out = new URLSearchParams();
  const set = (key: string, value: string) => {
    if (value) out.set(key, value);
  };
  set("surname", query.surname);
  if (query.surname && query.surname_mode) set("surname_mode", query.surname_mode);
  set("given", query.given);
  set("year", query.year);
  if (query.year && query.year_pm && query.year_pm !== "0") set("year_pm", query.year_pm);
  if (!query.year) set("decade", query.decade);
  set("place", query.place || query.county);
  for (const key of LIST_KEYS) for (const value of query[key]) out.append(key, value);
  set("relative", query.relative);
  if (query.relative && query.relative_role && query.relative_role !== "any") set("relative_role", query.relative_role);
  if (withPaging) {
    if (query.sort && query.sort !== "relevance") set("sort", query.sort);
    set("after", query.after);
  }
  return out;
}

/** Settings the page leaves out of its URLs when they hold their default. */
const PAGE_DEFAULTS: Partial<Record<TextKey, string>> = {
  surname_mode: DEFAULT_SURNAME_MODE,
  year_pm: "0",
  relative_role: "any",
  sort: "relevance",
};

/**
 * The page's own query string for a search: every field the visitor set (settings
 * left at their defaults are left out), lists as
 * repeated parameters, in a fixed order, so equal searches have equal URLs (saved
 * searches and history compare them).
 */
export function pageParams(query: SearchQuery): URLSearchParams {
  const out = new URLSearchParams();
  for (const key of TEXT_KEYS) if (key !== "after" && query[key] && query[key] !== PAGE_DEFAULTS[key]) out.set(key, query[key]);
  for (const key of LIST_KEYS) for (const value of query[key]) out.append(key, value);
  if (query.after) out.set("after", query.after);
  return out;
}

/** The page URL of a search (with its cursor, when it has one). */
export function searchUrl(query: SearchQuery): string {
  const qs = pageParams(query).toString();
  return qs ? `${SEARCH_PATH}?${qs}` : SEARCH_PATH;
}

/** The same search with some fields changed; any change but `after` starts from the first page. */
export function withChanges(query: SearchQuery, changes: Partial<SearchQuery>): SearchQuery {
  const next = { ...query, ...changes };
  if (!("after" in changes)) next.after = "";
  return next;
}

/** Adds or removes one value of a list filter (a facet link). */
export function toggleValue(query: SearchQuery, key: ListKey, value: string): SearchQuery {
  const values = query[key].includes(value) ? query[key].filter((v) => v !== value) : [...query[key], value].slice(0, MAX_VALUES);
  return withChanges(query, { [key]: values } as Partial<SearchQuery>);
}

/** The page URL of the global search for `q`. */
export function globalSearchUrl(q: string): string {
  return `${SEARCH_PATH}?${new URLSearchParams({ q })}`;
}

/** The search page for an index group's "see all" (`search` is the API's query string). */
export function seeAllUrl(search: string): string {
  return searchUrl(readQuery(new URLSearchParams(search)));
}

const numberFormat = new Intl.NumberFormat("en-GB");

/** "1 result", "1,234 results", "about 12,000 results" (an estimate). */
export function resultsText(total: number, exact: boolean): string {
  const n = numberFormat.format(total);
  const noun = total === 1 ? "result" : "results";
  return exact ? `${n} ${noun}` : `about ${n} ${noun}`;
}

/** A short description of a search for the member's history: "Smith (variants), John, 1850 ± 2, Guildford". */
export function describeQuery(query: SearchQuery, labels: { collections?: Record<string, string> } = {}): string {
  const parts: string[] = [];
  if (query.surname) {
    const mode = query.surname_mode || DEFAULT_SURNAME_MODE;
    parts.push(mode === DEFAULT_SURNAME_MODE ? query.surname : `${query.surname} (${mode})`);
  }
  if (query.given) parts.push(query.given);
  if (query.year) parts.push(query.year_pm && query.year_pm !== "0" ? `${query.year} ± ${query.year_pm}` : query.year);
  else if (query.decade) parts.push(`${query.decade}s`);
  if (query.place) parts.push(query.place);
  if (query.record_type.length) parts.push(query.record_type.join(", ").replace(/_/g, " "));
  // Without the collections' titles (a saved search in the account area), the slug as words.
  if (query.collection.length) parts.push(query.collection.map((c) => labels.collections?.[c] ?? c.replace(/-/g, " ")).join(", "));
  if (query.role.length) parts.push(`as ${query.role.join(" or ")}`);
  if (query.relative) parts.push(`with ${query.relative}`);
  return parts.join(", ");
}

/** "Smith, Henry" style display of a person; "(no name recorded)" when both are empty. */
export function personName(person: { surname: string; given_names: string }): string {
  const name = [person.given_names, person.surname].filter(Boolean).join(" ").trim();
  return name || "(no name recorded)";
}

/** A role as words: "principal" → "Principal". */
export function roleLabel(role: string): string {
  const text = role.replace(/_/g, " ");
  return text ? text[0]!.toUpperCase() + text.slice(1) : "";
}

/** The fields a search asked for, which decide the best score a record can reach. */
export type AskedFields = Partial<Pick<SearchQuery, "surname" | "given" | "year" | "decade" | "place">>;

/** The most a key person can score for the fields asked (docs/research.md, Ranking). */
export function bestScore(asked: AskedFields): number {
  return (asked.surname ? 40 : 0) + (asked.given ? 20 : 0) + (asked.year || asked.decade ? 15 : 0) + (asked.place ? 15 : 0);
}

/**
 * How well a record matches what was asked, as words: "Exact match" when every field
 * asked matches exactly, then "Close match", "Partial match", "Loose match" as the
 * record's score falls from the best the fields asked allow (a variant spelling of the
 * surname alone is close; an initial for a given name or an approximate date lowers
 * it). "—" when nothing was asked that scores (a browse by collection).
 */
export function matchLabel(score: number, asked: AskedFields): string {
  const best = bestScore(asked);
  if (!best) return "—";
  const share = score / best;
  if (share >= 1) return "Exact match";
  if (share >= 0.75) return "Close match";
  if (share >= 0.5) return "Partial match";
  return "Loose match";
}

/**
 * A saved or past search described for a reader, from the page's query parameters:
 * "Smith, John, 1850 ± 2" for an index search, "“John Smith 1850”" for a global one.
 */
export function describeSearch(params: Record<string, string | string[]>): string {
  const url = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) for (const v of Array.isArray(value) ? value : [value]) url.append(key, v);
  const q = readGlobalQuery(url);
  if (q) return `“${q}”`;
  return describeQuery(readQuery(url));
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** An ISO date ("1850-03-12") as words ("12 March 1850"); other text as it is. */
export function isoDateText(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  const month = m ? MONTHS[Number(m[2]) - 1] : undefined;
  return m && month ? `${Number(m[3])} ${month} ${Number(m[1])}` : iso;
}
