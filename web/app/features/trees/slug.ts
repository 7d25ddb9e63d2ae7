// Addresses of the family-tree pages. A person's page is
// /research-hub/our-collections/family-trees-record/{tree}~{person}: the tree's slug,
// a tilde, and the person's id in that tree. Tree slugs never contain "~" (they are
// lower-case letters, digits and hyphens); a person id may be anything the API gives
// (GEDCOM xrefs such as I12, or numbers), so it is percent-encoded and the split is at
// the first tilde.

export const TREES_PATH = "/research-hub/our-collections/family-trees";
export const PERSON_PATH = "/research-hub/our-collections/family-trees-record";
export const PEDIGREE_SEARCH_PATH = "/research-hub/our-collections/pedigree-search";
export const UPLOAD_PATH = "/user-account/trees";

const TREE_SLUG = /^[a-z0-9](?:[a-z0-9-]{0,118}[a-z0-9])?$/;

/** Whether a tree slug has the form the API uses (so no request is made for junk). */
export function validTreeSlug(slug: string | undefined | null): slug is string {
  return typeof slug === "string" && TREE_SLUG.test(slug);
}

export interface PersonRef {
  tree: string;
  person: string;
}

/** The person slug "{tree}~{person}" (the person id percent-encoded). */
export function personSlug(tree: string, person: string): string {
  return `${tree}~${encodeURIComponent(person)}`;
}

/** Parses a person slug; null when it is not one (the page is then a 404). */
export function parsePersonSlug(slug: string | undefined | null): PersonRef | null {
  if (!slug) return null;
  const at = slug.indexOf("~");
  if (at <= 0) return null;
  const tree = slug.slice(0, at);
  let person: string;
  try {
    person = decodeURIComponent(slug.slice(at + 1));
  } catch {
    return null;
  }
  if (!validTreeSlug(tree) || !person || person.length > 64 || /[\s/~?#]/.test(person)) return null;
  return { tree, person };
}

export function treePath(tree: string): string {
  return `${TREES_PATH}/${tree}`;
}

export function personPath(tree: string, person: string): string {
  return `${PERSON_PATH}/${personSlug(tree, person)}`;
}

export type ChartKind = "pedigree" | "descendants" | "hourglass";
export const CHART_KINDS: readonly ChartKind[] = ["pedigree", "descendants", "hourglass"];
export const MIN_GENERATIONS = 2;
export const MAX_GENERATIONS = 6;
export const DEFAULT_GENERATIONS = 4;

export interface ViewerState {
  person: string | null;
  chart: ChartKind;
  generations: number;
}

/** The viewer's state from a tree page's query (?person=&chart=&generations=), with defaults for anything malformed. */
export function viewerStateFrom(params: URLSearchParams): ViewerState {
  const person = params.get("person");
  const chart = params.get("chart") as ChartKind | null;
  const g = Number(params.get("generations"));
  return {
    person: person && person.length <= 64 && !/[\s/~?#]/.test(person) ? person : null,
    chart: chart && CHART_KINDS.includes(chart) ? chart : "pedigree",
    generations: Number.isInteger(g) && g >= MIN_GENERATIONS && g <= MAX_GENERATIONS ? g : DEFAULT_GENERATIONS,
  };
}

/** The query of a tree page showing this viewer state (defaults left out), with a hash to the viewer. */
export function viewerHref(tree: string, state: ViewerState, hash = "#viewer"): string {
  const q = new URLSearchParams();
  if (state.person) q.set("person", state.person);
  if (state.chart !== "pedigree") q.set("chart", state.chart);
  if (state.generations !== DEFAULT_GENERATIONS) q.set("generations", String(state.generations));
  const query = q.toString();
  return `${treePath(tree)}${query ? `?${query}` : ""}${hash}`;
}
