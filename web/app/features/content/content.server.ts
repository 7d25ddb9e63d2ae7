// Server-side access to editorial content: the Prismic v2 content API (ours
// or a hosted repository), through the official @prismicio/client.
//
// Every loader goes through these helpers. They never let a content-service
// failure become a 500: the failure is logged and the caller gets an empty
// value plus `unavailable: true`, so pages show their empty states.
import * as prismic from "@prismicio/client";
import { createContext, type RouterContextProvider } from "react-router";
import { createContentFetch, DEFAULT_TIMEOUT_MS, type ContentFetch } from "./content-fetch.server";
import { LruCache } from "../../lib/lru";
import { parseContentDate } from "../../lib/dates";
import type {
  CustomTypeDocument,
  CustomTypeName,
  EventDocument,
  FeatureItemDocument,
  HomeDocument,
  NewsItemDocument,
  PageDocument,
} from "./content-types";

export const REPOSITORY_NAME = "lineage";
export const DEFAULT_CONTENT_API = "http://127.0.0.1:8080/content/api/v2";
export const FORBIDDEN_UID_WILDCARD = "FORBIDDEN. You can't use getByUID with *, use the predicates instead.";
export const NEWS_PAGE_SIZE = 10;

/** One cache for the whole server process, shared by every request's client. */
const sharedFetch: ContentFetch = createContentFetch({
  timeoutMs: Number(process.env.LINEAGE_CONTENT_TIMEOUT_MS) || DEFAULT_TIMEOUT_MS,
});

/** How many parsed answers (one per query URL, which names its ref) a process keeps. */
export const PARSED_CACHE_ENTRIES = 256;
/**
 * How large the parsed answers a process keeps may be together, counted as the length of
 * their JSON: visitors vary some queries (an events search), and 256 large answers would
 * take a good part of a worker's heap (LINEAGE_SSR_MAX_OLD_SPACE_MB).
 */
export const PARSED_CACHE_CHARS = 8 * 1024 * 1024;

/** A cache for cacheParsedByRef, bounded by entries and by the length of their JSON. */
export function createParsedCache(maxChars = PARSED_CACHE_CHARS): LruCache<prismic.Query> {
  return new LruCache<prismic.Query>(PARSED_CACHE_ENTRIES, { max: maxChars, weigh: (answer) => JSON.stringify(answer).length });
}

/** Parsed answers of queries read at the master ref, shared by every request's client. */
const sharedParsed = createParsedCache();

/** Freezes a parsed answer and everything in it: it is shared by every later render. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * Makes `client` keep the parsed answer of each query read at the master ref in `cache`,
 * keyed by the query's URL, which holds the ref: an answer at a ref never changes, so
 * it is never stale; a publish moves the master ref and with it every URL. The master
 * ref itself is asked for on every request (client.getRepository, no-cache): Go's page
 * cache is purged at a publish and renders the page again at once, so a worker must
 * not read the old master ref after that (decision 016, "Applied"). A query at any
 * other ref — a preview (io.prismic.preview cookie), a release — is not kept: it goes
 * to the content API as before and is seen only by this request.
 *
 * client.get carries every query the helpers below make (getByType, dangerouslyGetAll,
 * getAllByUIDs); getFirst (getSingle, getByUID) reads @prismicio/client's response
 * directly, so it is rebuilt on get, as the client's own does it.
 */
export function cacheParsedByRef(client: prismic.Client, cache: LruCache<prismic.Query>): prismic.Client {
  const get = client.get.bind(client);
  const cachedGet = async (params?: Parameters<prismic.Client["get"]>[0]): Promise<prismic.Query> => {
    const url = await client.buildQueryURL(params);
    const ref = new URL(url).searchParams.get("ref");
    if (ref !== (await client.getMasterRef()).ref) return get(params);
    const hit = cache.get(url);
    if (hit) return hit;
    const answer = deepFreeze(await get(params));
    cache.set(url, answer);
    return answer;
  };
  const cachedGetFirst = async (params?: Parameters<prismic.Client["getFirst"]>[0]): Promise<prismic.PrismicDocument> => {
    const actual = params?.page || params?.pageSize ? params : { ...params, pageSize: 1 };
    const { results } = await cachedGet(actual);
    if (results[0]) return results[0];
    throw new prismic.NotFoundError("No documents were returned", await client.buildQueryURL(actual), undefined);
  };
  return Object.assign(client, { get: cachedGet, getFirst: cachedGetFirst });
}

export function contentEndpoint(): string {
  return process.env.LINEAGE_CONTENT_API || DEFAULT_CONTENT_API;
}

/**
 * A content client for one request. With the request given, a preview cookie
 * (`io.prismic.preview`) on it makes every query read the previewed ref. Queries at
 * the master ref are answered from `parsed` when it holds them (cacheParsedByRef);
 * by default the process's cache, unless another fetch is given (tests).
 */
export function createContentClient(
  request?: Request,
  fetchImpl: prismic.FetchLike = sharedFetch,
  parsed: LruCache<prismic.Query> | null = fetchImpl === sharedFetch ? sharedParsed : null,
): prismic.Client {
  const client = prismic.createClient(REPOSITORY_NAME, {
    documentAPIEndpoint: contentEndpoint(),
    accessToken: process.env.LINEAGE_CONTENT_TOKEN || undefined,
    fetch: fetchImpl,
    // Links to pages carry their parent's uid, so the link resolver can place them.
    defaultParams: { fetchLinks: ["page.parent"] },
  });
  if (request) client.enableAutoPreviewsFromReq(request);
  return parsed ? cacheParsedByRef(client, parsed) : client;
}

/**
 * getByUID that refuses the all-languages wildcard: a uid is only unique
 * within one language, so `lang: "*"` could return the wrong document.
 */
export async function getByUID<TDocument extends prismic.PrismicDocument>(
  client: prismic.Client,
  type: TDocument["type"],
  uid: string,
  params: Partial<prismic.BuildQueryURLArgs> = {},
): Promise<TDocument> {
  if (params.lang === "*") throw new Error(FORBIDDEN_UID_WILDCARD);
  return (await client.getByUID(type, uid, params)) as unknown as TDocument;
}

export interface Loaded<T> {
  value: T;
  /** True when the content service failed (not merely "nothing found"). */
  unavailable: boolean;
}

/**
 * Runs a content query. "Not found" gives the fallback; any other failure is
 * logged and also gives the fallback, flagged unavailable.
 */
export async function loadContent<T>(
  client: prismic.Client,
  what: string,
  task: () => Promise<T>,
  fallback: T,
): Promise<Loaded<T>> {
  try {
    try {
      return { value: await task(), unavailable: false };
    } catch (error) {
      // A stale preview cookie must not blank the site: show published content.
      if (!(error instanceof prismic.PreviewTokenExpiredError)) throw error;
      console.warn(`[content] preview expired while loading ${what}; showing published content`);
      client.disableAutoPreviews();
      return { value: await task(), unavailable: false };
    }
  } catch (error) {
    if (error instanceof prismic.NotFoundError && !(error instanceof prismic.RepositoryNotFoundError)) {
      return { value: fallback, unavailable: false };
    }
    const message = error instanceof Error ? error.message : String(error);
    console.error(`[content] ${what} failed: ${message}`);
    return { value: fallback, unavailable: true };
  }
}

const unavailableContext = createContext(false);

/**
 * A loader's `unavailable` (ContentUnavailable's notice): true when any of its content
 * could not be loaded. It is also noted on the request, so that the answer, the page or
 * its data for a client-side navigation alike, is `no-store` (entry.server.tsx): neither
 * the page cache nor a CDN keeps the degraded copy once the service answers again.
 */
export function pageUnavailable(context: Readonly<RouterContextProvider>, ...failed: boolean[]): boolean {
  const unavailable = failed.some(Boolean);
  if (unavailable) context.set(unavailableContext, true);
  return unavailable;
}

/** Whether a loader of this request drew its page without some of its content (pageUnavailable). */
export function drawnWithoutContent(context: Readonly<RouterContextProvider>): boolean {
  return context.get(unavailableContext);
}

/** Throws a 503 page when content could not be loaded, a 404 when there is none. */
export function requireDocument<T>(loaded: Loaded<T | null>): T {
  if (loaded.value) return loaded.value;
  if (loaded.unavailable) {
    throw new Response("Content is temporarily unavailable", { status: 503, statusText: "Service Unavailable" });
  }
  throw new Response("This page could not be found", { status: 404, statusText: "Not Found" });
}

export interface Listing<T> {
  results: T[];
  page: number;
  totalPages: number;
  totalResults: number;
}

const emptyListing = <T>(page = 1): Listing<T> => ({ results: [], page, totalPages: 0, totalResults: 0 });

function toListing<T>(query: prismic.Query<prismic.PrismicDocument>): Listing<T> {
  return {
    results: query.results as unknown as T[],
    page: query.page,
    totalPages: query.total_pages,
    totalResults: query.total_results_size,
  };
}

// ---------------------------------------------------------------------------
// Queries used by the routes

export function getHome(client: prismic.Client) {
  return loadContent(client, "home", () => client.getSingle("home") as unknown as Promise<HomeDocument>, null);
}

export function getNewsPage(client: prismic.Client, page: number, pageSize = NEWS_PAGE_SIZE) {
  return loadContent(
    client,
    `news page ${page}`,
    async () =>
      toListing<NewsItemDocument>(
        await client.getByType("news_item", {
          page,
          pageSize,
          orderings: [{ field: "my.news_item.date", direction: "desc" }, { field: "document.first_publication_date", direction: "desc" }],
        }),
      ),
    emptyListing<NewsItemDocument>(page),
  );
}

export function getNewsItem(client: prismic.Client, uid: string) {
  return loadContent(client, `news item ${uid}`, () => getByUID<NewsItemDocument>(client, "news_item", uid), null);
}

/**
 * The upcoming-events query names the start of its minute, not the moment of the render:
 * its URL is the key of the process's content caches (an answer at a ref is kept for
 * good), so a URL that changed with every render would fill them with answers never
 * asked for again.
 */
export const UPCOMING_EVENTS_STEP_MS = 60_000;

/**
 * The `count` events that start after `now`, soonest first. The query asks for those
 * after the start of now's minute and drops the ones that started since; only when that
 * leaves the list short of a full answer is the exact moment asked for.
 */
export function getUpcomingEvents(client: prismic.Client, count: number, now = new Date()) {
  const startingAfter = async (moment: Date) =>
    (
      await client.getByType("event", {
        pageSize: count,
        filters: [prismic.filter.dateAfter("my.event.start", moment)],
        orderings: [{ field: "my.event.start" }],
      })
    ).results as unknown as EventDocument[];
  return loadContent(
    client,
    "upcoming events",
    async () => {
      const minute = new Date(now.getTime() - (now.getTime() % UPCOMING_EVENTS_STEP_MS));
      const answer = await startingAfter(minute);
      const upcoming = answer.filter((event) => (parseContentDate(event.data.start)?.getTime() ?? -Infinity) > now.getTime());
      if (upcoming.length < answer.length && answer.length === count) return startingAfter(now);
      return upcoming;
    },
    [] as EventDocument[],
  );
}

/** The fields event lists, the calendar and the iCalendar feeds need (no body). */
export const EVENT_LIST_FIELDS = ["event.title", "event.summary", "event.start", "event.end", "event.location"];
/** Event lists consider at most this many events, the latest-starting first. */
export const EVENTS_MAX = 500;
/** How far before a window an event may start and still reach into it. */
export const EVENT_LOOKBACK_DAYS = 14;

export interface EventQuery {
  /** Only events that may take place in [from, to). */
  window?: { from: Date; to: Date } | null;
  /** Words that must all be in the title (the content API's fulltext). */
  titleWords?: string;
}

/**
 * Events for the events pages and feeds, latest start first, without their
 * bodies. The content API narrows by date window and title words; callers
 * then apply exact overlap and online/in-person rules (features/events/events.ts). Pages
 * after the first are fetched in parallel, up to EVENTS_MAX events.
 */
export function getEvents(client: prismic.Client, { window, titleWords }: EventQuery = {}) {
  const filters: string[] = [];
  if (window) {
    filters.push(prismic.filter.dateBefore("my.event.start", window.to));
    filters.push(prismic.filter.dateAfter("my.event.start", new Date(window.from.getTime() - EVENT_LOOKBACK_DAYS * 86_400_000)));
  }
  if (titleWords) filters.push(prismic.filter.fulltext("my.event.title", titleWords));
  const params = {
    filters,
    pageSize: 100,
    fetch: EVENT_LIST_FIELDS,
    orderings: [{ field: "my.event.start", direction: "desc" as const }],
  };
  return loadContent(
    client,
    "events",
    async () => {
      const first = await client.getByType("event", params);
      const lastPage = Math.min(first.total_pages, Math.ceil(EVENTS_MAX / params.pageSize));
      const rest = await Promise.all(
        Array.from({ length: Math.max(0, lastPage - 1) }, (_, i) => client.getByType("event", { ...params, page: i + 2 })),
      );
      return [first, ...rest].flatMap((r) => r.results) as unknown as EventDocument[];
    },
    [] as EventDocument[],
  );
}

/** The first and the last event by start: the span the calendar and month filter offer. */
export function getEventBounds(client: prismic.Client) {
  const edge = async (direction: "asc" | "desc") =>
    (
      (
        await client.getByType("event", {
          pageSize: 1,
          fetch: ["event.start", "event.end"],
          orderings: [{ field: "my.event.start", direction }],
        })
      ).results[0] as unknown as EventDocument | undefined
    ) ?? null;
  return loadContent(
    client,
    "event bounds",
    async () => {
      const [first, last] = await Promise.all([edge("asc"), edge("desc")]);
      return { first, last };
    },
    { first: null, last: null } as { first: EventDocument | null; last: EventDocument | null },
  );
}

export function getEvent(client: prismic.Client, uid: string) {
  return loadContent(client, `event ${uid}`, () => getByUID<EventDocument>(client, "event", uid), null);
}

export function getFeaturedItems(client: prismic.Client, page = 1, pageSize = 12) {
  return loadContent(
    client,
    "featured learning items",
    async () =>
      toListing<FeatureItemDocument>(
        await client.getByType("feature_item", {
          page,
          pageSize,
          orderings: [{ field: "document.first_publication_date", direction: "desc" }],
        }),
      ),
    emptyListing<FeatureItemDocument>(page),
  );
}

export function getFeaturedItem(client: prismic.Client, uid: string) {
  return loadContent(client, `featured item ${uid}`, () => getByUID<FeatureItemDocument>(client, "feature_item", uid), null);
}

export function getPage(client: prismic.Client, uid: string) {
  return loadContent(client, `page ${uid}`, () => getByUID<PageDocument>(client, "page", uid), null);
}

export function getCustomTypeList(client: prismic.Client, type: CustomTypeName, page = 1, pageSize = 20) {
  return loadContent(
    client,
    `${type} list`,
    async () =>
      toListing<CustomTypeDocument>(
        await client.getByType(type, {
          page,
          pageSize,
          orderings: [{ field: "document.first_publication_date", direction: "desc" }],
        }),
      ),
    emptyListing<CustomTypeDocument>(page),
  );
}

export function getCustomTypeItem(client: prismic.Client, type: CustomTypeName, uid: string) {
  return loadContent(client, `${type} ${uid}`, () => getByUID<CustomTypeDocument>(client, type, uid), null);
}

/** Every document of the given types, for the sitemap. */
export function getAllOfTypes(client: prismic.Client, types: string[]) {
  return loadContent(
    client,
    "sitemap documents",
    () => client.dangerouslyGetAll({ filters: [prismic.filter.any("document.type", types)] }),
    [] as prismic.PrismicDocument[],
  );
}

/** True when the request carries a content preview cookie. */
export function isPreviewRequest(request: Request): boolean {
  const cookies = request.headers.get("cookie") ?? "";
  return cookies.split(/;\s*/).some((c) => c.startsWith(`${prismic.cookie.preview}=`) && c.length > prismic.cookie.preview.length + 1);
}

/** Pages with the given uids, in the order of `uids`. */
export function getPagesByUIDs(client: prismic.Client, uids: readonly string[]) {
  return loadContent(
    client,
    `pages ${uids.join(",")}`,
    async () => {
      if (uids.length === 0) return [] as PageDocument[];
      const docs = (await client.getAllByUIDs("page", [...uids])) as unknown as PageDocument[];
      const order = new Map(uids.map((uid, i) => [uid, i]));
      return docs.sort((a, b) => (order.get(a.uid ?? "") ?? 0) - (order.get(b.uid ?? "") ?? 0));
    },
    [] as PageDocument[],
  );
}
