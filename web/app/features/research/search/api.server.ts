// The research API calls of the search pages (docs/research.md), made as the visitor
// (their session or token goes along), so the API's paywall decides what they see.
import type { RouterContextProvider } from "react-router";
import type { ApiResult } from "../../../lib/api-result";
import { failureText, getApi } from "../../../lib/api.server";
import { getAuth } from "../../auth/index.server";
import { apiParams, type SearchQuery } from "./query";
import { TREE_PEOPLE_LIMIT, treeSearchParams } from "./tree-people";
import { pedigreeSearch } from "../../trees/index.server";
import type { TreePeopleResult } from "./TreePeople";
import type {
  CollectionSummary,
  GlobalAnswer,
  ResearchRecord,
  SearchAnswer,
} from "./types";

type Context = Readonly<RouterContextProvider>;

export const PAGE_SIZE = 20;

/**
 * A GET as the visitor. A 422 carries the API's message (a default when it sent
 * none); failures other than 404 and 422 are logged: to the visitor they are
 * "unavailable".
 */
async function read<T>(context: Context, path: string): Promise<ApiResult<T>> {
  const auth = getAuth(context);
  const done = await getApi<T>(auth, path);
  if (done.ok || done.status === 404) return done;
  if (done.status === 422) return { ...done, message: done.message ?? "The search could not be run." };
  auth.log.error(`[research] ${failureText(`GET ${path.split("?")[0]}`, done)}`);
  return done;
}

/** One page of a search. */
export async function searchRecords(context: Context, query: SearchQuery): Promise<ApiResult<SearchAnswer>> {
  const params = apiParams(query);
  params.set("limit", String(PAGE_SIZE));
  return read<SearchAnswer>(context, `/api/research/search?${params}`);
}

/** The global search's four groups. */
export async function globalSearch(context: Context, q: string): Promise<ApiResult<GlobalAnswer>> {
  return read<GlobalAnswer>(context, `/api/search?${new URLSearchParams({ q })}`);
}

/** A record, or null when there is none with that id. Other failures throw a 503 page. */
export async function getRecord(context: Context, id: string): Promise<ResearchRecord | null> {
  if (!/^[1-9]\d{0,17}$/.test(id)) return null;
  const outcome = await read<ResearchRecord>(context, `/api/research/records/${id}`);
  if (outcome.ok) return outcome.body;
  if (outcome.status === 404 || outcome.status === 422) return null;
  throw new Response("The records are temporarily unavailable", { status: 503, statusText: "Service Unavailable" });
}

/** The collections of index records (not catalogues), for the collection filter; [] when unavailable. */
export async function recordCollections(context: Context): Promise<CollectionSummary[]> {
  const outcome = await read<{ data: CollectionSummary[] }>(context, "/api/research/collections");
  if (!outcome.ok || !Array.isArray(outcome.body.data)) return [];
  return outcome.body.data.filter((c) => c.kind !== "library" && c.kind !== "archive");
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
): Promise<TreePeopleResult | null> {
  const params = treeSearchParams(query);
  if (!params) return null;
  try {
    const r = await pedigreeSearch(context, { ...Object.fromEntries(params), limit: TREE_PEOPLE_LIMIT });
    if (r.ok) return { params: params.toString(), outcome: r };
    getAuth(context).log.error(`[research] GET /api/trees/search answered ${r.status}: ${r.message ?? JSON.stringify(r.errors)}`);
  } catch (error) {
    // The trees' reader throws a 503 page (already logged there); here it is only a notice.
    if (!(error instanceof Response)) getAuth(context).log.error(`[research] GET /api/trees/search failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return { params: params.toString(), outcome: { ok: false, status: 503, errors: {} } };
}
