// The research hub's page addresses, in a module of their own: the surname search box
// on the home page needs only SEARCH_PATH, not the query reader and writer of query.ts
// with its vocabularies (which would otherwise be a chunk of the home page's code).
export const SEARCH_PATH = "/research-hub/our-collections/searchexplore";

export function recordPath(id: number | string): string {
  return `/research-hub/our-collections/records/${id}`;
}
