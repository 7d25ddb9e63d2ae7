// The collection pages' calls to the research API (docs/research.md), made as
// the visitor (their session or token goes along), so the API's paywall
// decides what they see.
import type { RouterContextProvider } from "react-router";
import { getAuth } from "../../auth/context";
import type { Collection, CollectionDetail, SearchAnswer, SearchOutcome } from "./model";

export type { SearchOutcome } from "./model";

type Context = Readonly<RouterContextProvider>;

const unavailable = (what: string) =>
  new Response(`${what} are temporarily unavailable`, { status: 503, statusText: "Service Unavailable" });
export const notFound = () => new Response("This page could not be found", { status: 404, statusText: "Not Found" });

async function get<T>(context: Context, path: string): Promise<{ status: number; body: T | null }> {
  const auth = getAuth(context);
  try {
    const response = await auth.request<T>("GET", path);
    if (response.status >= 500) auth.log.error(`[research] GET ${path.split("?")[0]} answered ${response.status}`);
    return { status: response.status, body: response.body };
  } catch (error) {
    auth.log.error(`[research] GET ${path.split("?")[0]} failed: ${error instanceof Error ? error.message : String(error)}`);
    return { status: 0, body: null };
  }
}

/** Every collection (of one kind), ordered by kind then title. A 503 page when the API fails. */
export async function listCollections(context: Context, kind?: string): Promise<Collection[]> {
  const { status, body } = await get<{ data: Collection[] }>(context, `/api/research/collections${kind ? `?${new URLSearchParams({ kind })}` : ""}`);
  if (status !== 200 || !body || !Array.isArray(body.data)) throw unavailable("The collections");
  return body.data;
}

/**
 * One collection with what it holds (and, for catalogues, a page of `items`
 * from `after`). A 404 page when there is no such collection, or when it is
 * not of one of `kinds`.
 */
export async function getCollection(context: Context, slug: string, options: { kinds?: readonly string[]; after?: string } = {}): Promise<CollectionDetail> {
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/.test(slug)) throw notFound();
  const q = options.after && /^\d{1,18}$/.test(options.after) ? `?${new URLSearchParams({ after: options.after })}` : "";
  const { status, body } = await get<CollectionDetail>(context, `/api/research/collections/${encodeURIComponent(slug)}${q}`);
  if (status === 404) throw notFound();
  if (status !== 200 || !body?.collection) throw unavailable("The collections");
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
  const { status, body } = await get<SearchAnswer & { message?: string; errors?: Record<string, string[]> }>(
    context,
    `/api/research/search?${params}`,
  );
  if (status === 200 && body && Array.isArray(body.results)) return { ok: true, answer: body };
  if (status === 422 && body) {
    return {
      ok: false,
      message: typeof body.message === "string" ? body.message : "The search could not be run.",
      errors: body.errors && typeof body.errors === "object" ? body.errors : {},
    };
  }
  throw unavailable("The records");
}
