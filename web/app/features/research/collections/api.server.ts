// The collection pages' calls to the research API (docs/research.md), made as
// the visitor (their session or token goes along), so the API's paywall
// decides what they see.
import type { RouterContextProvider } from "react-router";
import type { ApiResult } from "../../../lib/api-result";
import { failureText, getApi } from "../../../lib/api.server";
import { getAuth } from "../../auth/index.server";
import type { Collection, CollectionDetail, SearchAnswer, SearchOutcome } from "./model";

export type { SearchOutcome } from "./model";

type Context = Readonly<RouterContextProvider>;

const unavailable = (what: string) =>
  new Response(`${what} are temporarily unavailable`, { status: 503, statusText: "Service Unavailable" });
export const notFound = () => new Response("This page could not be found", { status: 404, statusText: "Not Found" });

async function get<T>(context: Context, path: string): Promise<ApiResult<T>> {
  const auth = getAuth(context);
  const done = await getApi<T>(auth, path);
  if (!done.ok && (done.status === 0 || done.status >= 500)) auth.log.error(`[research] ${failureText(`GET ${path.split("?")[0]}`, done)}`);
  return done;
}

/** Every collection (of one kind), ordered by kind then title. A 503 page when the API fails. */
export async function listCollections(context: Context, kind?: string): Promise<Collection[]> {
  const done = await get<{ data: Collection[] }>(context, `/api/research/collections${kind ? `?${new URLSearchParams({ kind })}` : ""}`);
  if (!done.ok || !Array.isArray(done.body.data)) throw unavailable("The collections");
  return done.body.data;
}

/**
 * One collection with what it holds (and, for catalogues, a page of `items`
 * from `after`). A 404 page when there is no such collection, or when it is
 * not of one of `kinds`.
 */
export async function getCollection(context: Context, slug: string, options: { kinds?: readonly string[]; after?: string } = {}): Promise<CollectionDetail> {
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/.test(slug)) throw notFound();
  const q = options.after && /^\d{1,18}$/.test(options.after) ? `?${new URLSearchParams({ after: options.after })}` : "";
  const done = await get<CollectionDetail>(context, `/api/research/collections/${encodeURIComponent(slug)}${q}`);
  if (!done.ok && done.status === 404) throw notFound();
  if (!done.ok || !done.body.collection) throw unavailable("The collections");
  const body = done.body;
  if (options.kinds && !options.kinds.includes(body.collection.kind)) throw notFound();
  return {
    ...body,
    record_types: body.record_types ?? [],
    decades: body.decades ?? [],
    counties: body.counties ?? [],
    items: body.items ?? [],
  };
}

export async function searchRecords(context: Context, params: URLSearchParams): Promise<SearchOutcome> {
  const done = await get<SearchAnswer>(context, `/api/research/search?${params}`);
  if (done.ok && Array.isArray(done.body.results)) return done;
  if (!done.ok && done.status === 422) return { ...done, message: done.message ?? "The search could not be run." };
  throw unavailable("The records");
}
