// What the collection pages' loaders share: running a collection-scoped search
// (and recording a signed-in member's search in their history).
import type { RouterContextProvider } from "react-router";
import { pageSeo } from "../../../lib/site.server";
import { recordSearch } from "../../members/index.server";
import { getCollection, listCollections, searchRecords } from "./api.server";
import { type SearchForm, type SearchOutcome, apiSearchParams, countText, hasCriteria, parseSearchForm, totalText } from "./model";

type Context = Readonly<RouterContextProvider>;

export interface ScopedSearch {
  form: SearchForm;
  /** Whether the visitor asked for anything beyond the page's own scope. */
  asked: boolean;
  /** The answer or the API's 422; null when nothing was searched. */
  outcome: SearchOutcome | null;
}

/** A one-line summary for search history: "Smith, John, 1850, Guildford: 12 results". */
export function searchSummary(form: SearchForm, outcome: SearchOutcome): string {
  const parts = [form.surname, form.given, form.year, form.place, form.relative].filter(Boolean);
  const what = parts.length ? parts.join(", ") : "Collection search";
  return outcome.ok ? `${what}: ${totalText(outcome.body.total, outcome.body.total_exact)}` : what;
}

/**
 * Runs the page's search over `scope` (its collections' slugs). With
 * `browse`, a page without a query lists the scope's records in date order;
 * otherwise nothing is searched until the visitor asks.
 */
export async function scopedSearch(context: Context, url: URL, scope: readonly string[], browse: boolean): Promise<ScopedSearch> {
  const form = parseSearchForm(url.searchParams);
  const asked = hasCriteria(form);
  if (scope.length === 0 || (!asked && !browse)) return { form, asked, outcome: null };
  const outcome = await searchRecords(context, apiSearchParams(form, scope));
  if (asked && !form.after) await recordSearch(context, url.pathname + url.search, searchSummary(form, outcome));
  return { form, asked, outcome };
}

/** A kind's page: its collections and a search over them. */
export async function loadKindPage(context: Context, url: URL, kind: string, browse: boolean) {
  const collections = (await listCollections(context, kind)).filter((c) => c.kind === kind);
  const search = await scopedSearch(context, url, collections.map((c) => c.slug), browse);
  return { collections, ...search };
}

/** One collection of the given kinds (404 otherwise), with a search scoped to it. */
export async function loadCollectionPage(context: Context, url: URL, slug: string, kinds: readonly string[]) {
  const detail = await getCollection(context, slug, { kinds });
  const search = await scopedSearch(context, url, [detail.collection.slug], true);
  return { detail, ...search };
}

/** What a kind's route (record sets, indexes, memorial cards) says about its list page. */
export interface KindRoute {
  /** The collections' kind, e.g. "record_set". */
  kind: string;
  /** Whether the list page without a query lists the kind's records. */
  browse: boolean;
  title: string;
  description: string;
}

/**
 * The loader of a kind's `…/:slug?` route: with a slug, that collection's
 * page (404 unless it is of the kind); without one, the kind's page.
 */
export async function kindLoader(
  route: KindRoute,
  { request, url, params, context }: { request: Request; url: URL; params: { slug?: string }; context: Context },
) {
  if (params.slug !== undefined) {
    const data = await loadCollectionPage(context, url, params.slug, [route.kind]);
    const c = data.detail.collection;
    return { kind: "collection" as const, ...data, seo: pageSeo({ request, url }, { title: c.title, description: c.description || `${c.title}: ${countText(c)}.` }) };
  }
  const data = await loadKindPage(context, url, route.kind, route.browse);
  return {
    kind: "list" as const,
    ...data,
    seo: pageSeo({ request, url }, { title: route.title, description: route.description }),
  };
}

export type KindLoaderData = Awaited<ReturnType<typeof kindLoader>>;
