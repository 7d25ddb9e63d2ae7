// The research hub's collection pages: what the collections API answers
// (docs/research.md) and the pure rules the pages share — where each
// collection lives, the search form's fields and how they become an API query.
// The search form's values and how its lists are read are the search page's
// (search/query.ts), so both read a query string alike.
import type { ApiResult } from "../../../lib/api-result";
import { surnameModeOptions, type RecordKind } from "../../../lib/vocabulary";
import { type SearchQuery, YEAR_TOLERANCES, listOf } from "../search/query";
import type { Access } from "../../../lib/access-level";
import type { CatalogueItem, Facet, Person, SearchAnswer, SearchResult } from "../search/types";

export type CollectionKind = RecordKind;
export type { Access } from "../../../lib/access-level";

export interface Collection {
  slug: string;
  kind: CollectionKind | string;
  title: string;
  description: string;
  access: Access;
  count: number;
  created_at?: string;
  updated_at?: string;
}


// The search API's answer (and a catalogue entry) are the same in a collection's
// page and in the search pages: search/types.ts defines them.
export type { CatalogueItem, Facet, Person, SearchAnswer, SearchResult };

export interface CollectionDetail {
  collection: Collection;
  record_types: Facet[];
  decades: Facet[];
  counties: Facet[];
  year_from: number | null;
  year_to: number | null;
  items: CatalogueItem[];
  next: string | number | null;
}


/** A search's answer, or the API's 422 (its messages shown at the fields). */
export type SearchOutcome = ApiResult<SearchAnswer>;

export const HUB_PATH = "/research-hub/our-collections";
export const RECORD_SETS_PATH = `${HUB_PATH}/record-sets`;
export const INDEXES_PATH = `${HUB_PATH}/indexes`;
export const MEMORIAL_CARDS_PATH = `${HUB_PATH}/memorial-cards`;
export const BIRTH_BRIEFS_PATH = `${HUB_PATH}/birth-briefs`;
export const SEARCH_PATH = `${HUB_PATH}/searchexplore`;

/** A record's page (the search pages own it). */
export const recordPath = (id: number | string) => `${HUB_PATH}/records/${id}`;

/** Segments under /research-hub/our-collections/ that are routes of their own, never a collection's slug. */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set([
  "memorial-cards",
  "record-sets",
  "indexes",
  "birth-briefs",
  "searchexplore",
  "records",
  "family-trees",
  "family-trees-record",
  "pedigree-search",
]);

/** The kinds in the order the overview shows them, with headings and a sentence each. */
export const KINDS: { kind: CollectionKind; heading: string; singular: string; intro: string }[] = [
  { kind: "record_set", heading: "Record sets", singular: "Record set", intro: "Transcribed registers and returns, searchable by name, year and place." },
  { kind: "index", heading: "Indexes", singular: "Index", intro: "Name indexes to wills, apprenticeships and other sources." },
  { kind: "memorial_cards", heading: "Memorial cards", singular: "Memorial cards", intro: "Funeral and memorial cards given to the society." },
  { kind: "birth_briefs", heading: "Birth briefs", singular: "Birth briefs", intro: "Members' birth briefs: three generations of ancestry on one sheet." },
  { kind: "library", heading: "Library", singular: "Library catalogue", intro: "Books, journals and pamphlets in the society's library." },
  { kind: "archive", heading: "Archive", singular: "Archive catalogue", intro: "Family papers and deposited collections." },
];

export const RECORD_KINDS: ReadonlySet<string> = new Set(["record_set", "index", "memorial_cards", "birth_briefs"]);
export const isCatalogue = (kind: string) => kind === "library" || kind === "archive";

export function kindLabel(kind: string): string {
  return KINDS.find((k) => k.kind === kind)?.singular ?? kind.replace(/_/g, " ");
}

/**
 * Where a collection's page is. Record sets, indexes and memorial cards have
 * pages under their kind's route (which offer that kind's search); birth briefs
 * have one page for all (a collection is a filter there); catalogues and any
 * other kind use the collections' own /:slug page.
 */
export function collectionPath(c: Pick<Collection, "slug" | "kind">): string {
  const slug = encodeURIComponent(c.slug);
  switch (c.kind) {
    case "record_set":
      return `${RECORD_SETS_PATH}/${slug}`;
    case "index":
      return `${INDEXES_PATH}/${slug}`;
    case "memorial_cards":
      return `${MEMORIAL_CARDS_PATH}/${slug}`;
    case "birth_briefs":
      return `${BIRTH_BRIEFS_PATH}?${new URLSearchParams({ collection: c.slug })}`;
    default:
      return `${HUB_PATH}/${slug}`;
  }
}

/** Collections grouped by kind in the overview's order (unknown kinds last), each group by title. */
export function groupByKind(collections: readonly Collection[]): { kind: string; heading: string; intro: string; collections: Collection[] }[] {
  const groups = KINDS.map((k) => ({ kind: k.kind as string, heading: k.heading, intro: k.intro, collections: [] as Collection[] }));
  for (const c of collections) {
    let g = groups.find((x) => x.kind === c.kind);
    if (!g) {
      g = { kind: c.kind, heading: kindLabel(c.kind), intro: "", collections: [] };
      groups.push(g);
    }
    g.collections.push(c);
  }
  for (const g of groups) g.collections.sort((a, b) => a.title.localeCompare(b.title, "en-GB"));
  return groups.filter((g) => g.collections.length > 0);
}

/** "1,234 records" / "1 record" / "56 catalogue entries". */
export function countText(c: Pick<Collection, "count" | "kind">): string {
  const n = c.count.toLocaleString("en-GB");
  if (isCatalogue(c.kind)) return `${n} catalogue ${c.count === 1 ? "entry" : "entries"}`;
  return `${n} ${c.count === 1 ? "record" : "records"}`;
}

/** "1840–1859", "from 1850", or null when nothing is dated (the API's decade bounds). */
export function dateSpan(from: number | null, to: number | null): string | null {
  if (from === null && to === null) return null;
  if (from !== null && to !== null) return from === to ? String(from) : `${from}–${to}`;
  return from !== null ? `from ${from}` : `to ${to}`;
}

// ---------------------------------------------------------------------------
// The search form

export const SURNAME_MODE_OPTIONS = surnameModeOptions({
  variants: "Spelling variants",
  exact: "Exact spelling",
  soundex: "Sounds like (Soundex)",
  phonetic: "Sounds like (phonetic)",
  wildcard: "Wildcard (* and ?)",
});

export { YEAR_TOLERANCES };

export const SORTS = [
  { value: "relevance", label: "Best match" },
  { value: "date", label: "Date" },
  { value: "name", label: "Name" },
] as const;

/** The most record types or roles a filter may hold (the API takes 20). */
export const MAX_CHOICES = 5;
/** The most collections the collection filter may hold. */
export const MAX_COLLECTIONS = 3;

/** The collection pages' search form: the same fields as the search page's query. */
export type SearchForm = SearchQuery;

const TEXT_LIMIT = 200;

function text(params: URLSearchParams, name: string): string {
  return (params.get(name) ?? "").trim().slice(0, TEXT_LIMIT);
}

function list(params: URLSearchParams, name: string, max = MAX_CHOICES): string[] {
  return listOf(params, name, { maxLength: TEXT_LIMIT, max });
}

/** The form's values from a request's query string (unknown or blank values dropped). */
export function parseSearchForm(params: URLSearchParams): SearchForm {
  const mode = text(params, "surname_mode");
  const sort = text(params, "sort");
  const pm = text(params, "year_pm");
  const relRole = text(params, "relative_role");
  return {
    surname: text(params, "surname"),
    surname_mode: SURNAME_MODE_OPTIONS.some((m) => m.value === mode) ? mode : "",
    given: text(params, "given"),
    year: text(params, "year"),
    year_pm: (YEAR_TOLERANCES as readonly string[]).includes(pm) ? pm : "",
    place: text(params, "place"),
    county: /^\d{1,12}$/.test(text(params, "county")) ? text(params, "county") : "",
    decade: /^\d{1,4}0$/.test(text(params, "decade")) ? text(params, "decade") : "",
    record_type: list(params, "record_type"),
    collection: list(params, "collection", MAX_COLLECTIONS),
    role: list(params, "role"),
    relative: text(params, "relative"),
    relative_role: ["father", "mother", "spouse", "any"].includes(relRole) ? relRole : "",
    sort: SORTS.some((s) => s.value === sort) ? sort : "",
    after: text(params, "after").slice(0, 1000),
  };
}

/** Whether the visitor asked for anything (a search beyond the page's own scope). */
export function hasCriteria(form: SearchForm): boolean {
  return Boolean(
    form.surname || form.given || form.year || form.place || form.county || form.decade || form.relative ||
      form.record_type.length || form.collection.length || form.role.length,
  );
}

/**
 * The API query of a form on a page scoped to `scope` (the collections the
 * page covers): the visitor's chosen collections within the scope, else the
 * whole scope, so a search never leaves the page's collections. Without a
 * surname the records come in date order (browsing).
 */
export function apiSearchParams(form: SearchForm, scope: readonly string[], limit = 20): URLSearchParams {
  const p = new URLSearchParams();
  const set = (k: string, v: string) => {
    if (v) p.set(k, v);
  };
  set("surname", form.surname);
  if (form.surname) set("surname_mode", form.surname_mode);
  set("given", form.given);
  set("year", form.year);
  if (form.year) set("year_pm", form.year_pm);
  if (!form.year) set("decade", form.decade);
  set("place", form.place || form.county);
  for (const v of form.record_type) p.append("record_type", v);
  const chosen = scope.length ? form.collection.filter((c) => scope.includes(c)) : form.collection;
  for (const v of chosen.length ? chosen : scope) p.append("collection", v);
  for (const v of form.role) p.append("role", v);
  set("relative", form.relative);
  if (form.relative) set("relative_role", form.relative_role);
  set("sort", form.sort || (form.surname ? "" : "date"));
  p.set("limit", String(limit));
  set("after", form.after);
  return p;
}

/** The address of the next page: the same query with `after`. */
export function nextPageHref(pathname: string, search: URLSearchParams, next: string): string {
  const p = new URLSearchParams(search);
  p.set("after", next);
  return `${pathname}?${p}`;
}

/** The address of the first page (the query without `after`). */
export function firstPageHref(pathname: string, search: URLSearchParams): string {
  const p = new URLSearchParams(search);
  p.delete("after");
  const q = p.toString();
  return q ? `${pathname}?${q}` : pathname;
}

/** The fields of a collection's search form, as its record types imply (docs/research.md). */
export interface SearchFields {
  /** The relative's field: its label and the roles it may take (empty: any role). */
  relative: { label: string; roles: { value: string; label: string }[] } | null;
  /** Roles the matched person may have (the role filter's options). */
  roles: { value: string; label: string }[];
  /** Whether to offer the record type filter (the collection holds several). */
  recordTypes: boolean;
}

const ROLE_LABELS: Record<string, string> = {
  principal: "Principal",
  father: "Father",
  mother: "Mother",
  spouse: "Spouse",
  groom: "Groom",
  bride: "Bride",
  witness: "Witness",
  head: "Head",
  wife: "Wife",
  son: "Son",
  daughter: "Daughter",
  executor: "Executor",
  master: "Master",
  deceased: "Deceased",
  testator: "Testator",
  apprentice: "Apprentice",
  paternal_grandfather: "Paternal grandfather",
  paternal_grandmother: "Paternal grandmother",
  maternal_grandfather: "Maternal grandfather",
  maternal_grandmother: "Maternal grandmother",
};
const role = (value: string) => ({ value, label: ROLE_LABELS[value] ?? value });

/** Roles each record type's persons take, and what its relative field asks for. */
const TYPE_FIELDS: Record<string, { roles: string[]; relative?: { label: string; roles: string[] } }> = {
  baptism: { roles: ["principal", "father", "mother"], relative: { label: "Parent's name", roles: ["father", "mother"] } },
  birth: { roles: ["principal", "father", "mother"], relative: { label: "Parent's name", roles: ["father", "mother"] } },
  marriage: { roles: ["groom", "bride", "father", "witness"], relative: { label: "Spouse's name", roles: ["spouse"] } },
  burial: { roles: ["principal", "father"], relative: { label: "Relative's name", roles: [] } },
  memorial_card: { roles: ["principal"] },
  will: { roles: ["principal", "executor"], relative: { label: "Executor or relative's name", roles: [] } },
  apprenticeship: { roles: ["principal", "master", "father"], relative: { label: "Master's or parent's name", roles: ["father"] } },
  census: { roles: ["head", "wife", "son", "daughter"], relative: { label: "Household member's name", roles: ["father", "mother", "spouse"] } },
  birth_brief: {
    roles: ["principal", "father", "mother", "paternal_grandfather", "paternal_grandmother", "maternal_grandfather", "maternal_grandmother"],
    relative: { label: "Parent's name", roles: ["father", "mother"] },
  },
};

export function searchFields(recordTypes: readonly string[]): SearchFields {
  const roles: string[] = [];
  const relRoles: string[] = [];
  const labels: string[] = [];
  let anyRelative = false;
  for (const t of recordTypes) {
    const f = TYPE_FIELDS[t];
    if (!f) {
      anyRelative = true;
      continue;
    }
    for (const r of f.roles) if (!roles.includes(r)) roles.push(r);
    if (f.relative) {
      anyRelative = true;
      if (!labels.includes(f.relative.label)) labels.push(f.relative.label);
      for (const r of f.relative.roles) if (!relRoles.includes(r)) relRoles.push(r);
    }
  }
  const relative = anyRelative
    ? { label: labels.length === 1 ? labels[0] : "Relative's name", roles: relRoles.map((r) => ({ value: r, label: ROLE_LABELS[r] ?? r })) }
    : null;
  return { relative, roles: roles.length > 1 ? roles.map(role) : [], recordTypes: recordTypes.length > 1 };
}

/** The matched person of a result (the API's `match`), or the first. */
export function keyPerson(r: Pick<SearchResult, "persons" | "match">): Person | undefined {
  return r.persons[r.match] ?? r.persons[0];
}

/** "Smith, John" / "Smith" / "John" / "(no name)". */
export function personName(p: Person | undefined): string {
  if (!p) return "(no name)";
  const parts = [p.surname, p.given_names].map((s) => (s ?? "").trim()).filter(Boolean);
  return parts.length ? parts.join(", ") : "(no name)";
}

/** "12 results" / "about 12,000 results". */
export function totalText(total: number, exact: boolean): string {
  const n = total.toLocaleString("en-GB");
  return `${exact ? "" : "about "}${n} ${total === 1 ? "result" : "results"}`;
}
