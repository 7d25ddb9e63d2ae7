// The research API calls of the search pages (docs/research.md), made as the visitor
// (their session or token goes along), so the API's paywall decides what they see.
import type { RouterContextProvider } from "react-router";
import { getAuth } from "../../auth/context";
import { apiParams, type SearchQuery } from "./query";
import { TREE_PEOPLE_LIMIT, treeSearchParams } from "./tree-people";
import { pedigreeSearch } from "../../trees/api.server";
import type { PedigreeSearchAnswer } from "../../trees/types";
import type {
  ApiErrors,
  CollectionSummary,
  GlobalAnswer,
  ResearchRecord,
  SearchAnswer,
} from "./types";

type Context = Readonly<RouterContextProvider>;

/** How an API call ended: the answer, the API's 422 (shown at the fields), or unavailable (logged). */
export type Outcome<T> = { status: "ok"; data: T } | { status: "invalid"; errors: ApiErrors } | { status: "unavailable" };

export const PAGE_SIZE = 20;

async function read<T>(context: Context, path: string): Promise<Outcome<T> | { status: "missing" }> {
  const auth = getAuth(context);
  try {
    const response = await auth.request<T>("GET", path);
    if (response.status === 200 && response.body) return { status: "ok", data: response.body };
    if (response.status === 404) return { status: "missing" };
    if (response.status === 422) {
      const body = (response.body ?? {}) as Partial<ApiErrors>;
      return {
        status: "invalid",
        errors: {
          message: typeof body.message === "string" ? body.message : "The search could not be run.",
          errors: body.errors && typeof body.errors === "object" ? body.errors : {},
        },
      };
    }
    auth.log.error(`[research] GET ${path.split("?")[0]} answered ${response.status}`);
  } catch (error) {
    auth.log.error(`[research] GET ${path.split("?")[0]} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return { status: "unavailable" };
}

/** One page of a search. */
export async function searchRecords(context: Context, query: SearchQuery): Promise<Outcome<SearchAnswer>> {
  const params = apiParams(query);
  params.set("limit", String(PAGE_SIZE));
  const outcome = await read<SearchAnswer>(context, `/api/research/search?${params}`);
  return outcome.status === "missing" ? { status: "unavailable" } : outcome;
}

/** The global search's four groups. */
export async function globalSearch(context: Context, q: string): Promise<Outcome<GlobalAnswer>> {
  const outcome = await read<GlobalAnswer>(context, `/api/search?${new URLSearchParams({ q })}`);
  return outcome.status === "missing" ? { status: "unavailable" } : outcome;
}

/** A record, or null when there is none with that id. Other failures throw a 503 page. */
export async function getRecord(context: Context, id: string): Promise<ResearchRecord | null> {
  if (!/^[1-9]\d{0,17}$/.test(id)) return null;
  const outcome = await read<ResearchRecord>(context, `/api/research/records/${id}`);
  if (outcome.status === "ok") return outcome.data;
  if (outcome.status === "missing" || outcome.status === "invalid") return null;
  throw new Response("The records are temporarily unavailable", { status: 503, statusText: "Service Unavailable" });
}

/** The collections of index records (not catalogues), for the collection filter; [] when unavailable. */
export async function recordCollections(context: Context): Promise<CollectionSummary[]> {
  const outcome = await read<{ data: CollectionSummary[] }>(context, "/api/research/collections");
  if (outcome.status !== "ok" || !Array.isArray(outcome.data.data)) return [];
  return outcome.data.data.filter((c) => c.kind !== "library" && c.kind !== "archive");
}

/**
 * The "In family trees" part of a records search: the pedigree search (docs/trees.md)
 * with the same surname, mode, given names, place and year ±. Null when the search has
 * no surname. Never throws: a failure of the trees API is logged and reported as
 * unavailable, so the records results still show.
 */
export async function searchTrees(
  context: Context,
  query: SearchQuery,
): Promise<{ params: string; outcome: { status: "ok"; data: PedigreeSearchAnswer } | { status: "unavailable" } } | null> {
  const params = treeSearchParams(query);
  if (!params) return null;
  try {
    const r = await pedigreeSearch(context, { ...Object.fromEntries(params), limit: TREE_PEOPLE_LIMIT });
    if (r.ok) return { params: params.toString(), outcome: { status: "ok", data: r.body } };
    getAuth(context).log.error(`[research] GET /api/trees/search answered ${r.status}: ${r.message ?? JSON.stringify(r.errors)}`);
  } catch (error) {
    // The trees' reader throws a 503 page (already logged there); here it is only a notice.
    if (!(error instanceof Response)) getAuth(context).log.error(`[research] GET /api/trees/search failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return { params: params.toString(), outcome: { status: "unavailable" } };
}
