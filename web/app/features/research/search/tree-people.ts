// The advanced search's "In family trees" section: the same search asked of the family
// trees' pedigree search (GET /api/trees/search, docs/trees.md), which takes the research
// search's surname modes, given names, place and year ± as they are. Pure mapping only:
// the loader calls the API (features/research/search/api.server.ts), TreePeople.tsx shows it.
import { type PedigreeSearchAnswer, PEDIGREE_SEARCH_PATH, personPath, treePath } from "../../trees";
import type { SearchQuery } from "./query";
import { DEFAULT_SURNAME_MODE } from "../../../lib/vocabulary";

/** How many tree people the section shows; "see all" leads to the rest. */
export const TREE_PEOPLE_LIMIT = 10;

/**
 * The pedigree search's parameters for a records search, or null when the search has
 * no surname (the section is only for surname searches). Carried over: surname,
 * surname_mode (same keys), given, place (as text; a bare gazetteer id means nothing to
 * the trees, so it is left out), year and year_pm. The records' other filters (decade,
 * county, record type, collection, role, relative) have no counterpart in the trees.
 */
export function treeSearchParams(query: SearchQuery): URLSearchParams | null {
  const surname = query.surname.trim();
  if (!surname) return null;
  const out = new URLSearchParams({ surname });
  if (query.surname_mode && query.surname_mode !== DEFAULT_SURNAME_MODE) out.set("surname_mode", query.surname_mode);
  if (query.given.trim()) out.set("given", query.given.trim());
  const place = query.place.trim();
  if (place && !/^\d+$/.test(place)) out.set("place", place);
  if (query.year) {
    out.set("year", query.year);
    if (query.year_pm && query.year_pm !== "0") out.set("year_pm", query.year_pm);
  }
  return out;
}

/** The pedigree search page showing every tree person of this search. */
export function pedigreeSearchUrl(params: URLSearchParams): string {
  return `${PEDIGREE_SEARCH_PATH}?${params}#results`;
}

/** One row of the section's table. A living person comes as 'Living' with no dates: shown as it comes. */
export interface TreePersonRow {
  key: string;
  name: string;
  href: string;
  born: string;
  died: string;
  tree: string;
  treeHref: string;
}

function year(event: { date?: { year?: number } | null } | null | undefined): string {
  return event?.date?.year ? String(event.date.year) : "";
}

/** The API's results as the table's rows. */
export function treePeopleRows(answer: Pick<PedigreeSearchAnswer, "results">): TreePersonRow[] {
  return answer.results.map(({ tree, person }) => ({
    key: `${tree.slug}~${person.id}`,
    name: person.name || "(no name recorded)",
    href: personPath(tree.slug, person.id),
    born: person.living ? "" : year(person.birth),
    died: person.living ? "" : year(person.death),
    tree: tree.title || tree.slug,
    treeHref: treePath(tree.slug),
  }));
}
