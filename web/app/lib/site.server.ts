// Facts about the public site that only the server knows.
import { asText, type RichTextField } from "@prismicio/client";
import type { PageSeo } from "./seo";

/** The public origin, from LINEAGE_PUBLIC_URL, else the request's own origin. */
export function publicOrigin(request: Request): string {
  const configured = process.env.LINEAGE_PUBLIC_URL?.trim();
  if (configured) return configured.replace(/\/+$/, "");
  return new URL(request.url).origin;
}

/** The absolute public URL of a site path. */
export function publicUrl(request: Request, path: string): string {
  return publicOrigin(request) + (path.startsWith("/") ? path : `/${path}`);
}

/**
 * What a loader knows about its request. `url` is React Router's normalised
 * URL: on client navigations `request.url` ends in `.data` and carries
 * `_routes`, so paths and query parameters must be read from `url`.
 */
export interface RequestInfo {
  request: Request;
  url: URL;
}

/** The canonical URL of the requested page: public origin + path, no query. */
export function canonicalUrl({ request, url }: RequestInfo, keepSearchParams: string[] = []): string {
  const kept = new URLSearchParams();
  for (const name of keepSearchParams) {
    const value = url.searchParams.get(name);
    if (value) kept.set(name, value);
  }
  const query = kept.toString();
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, "") || "/" : url.pathname;
  return publicOrigin(request) + path + (query ? `?${query}` : "");
}

/** Head data for a page; the canonical URL comes from the request path. */
export function pageSeo(
  info: RequestInfo,
  page: Omit<PageSeo, "url">,
  keepSearchParams: string[] = [],
): PageSeo {
  return { ...page, url: canonicalUrl(info, keepSearchParams) };
}

/**
 * Head data for an article (a news item, an event, a featured or custom-type document):
 * the first 300 characters of its summary describe it; `image`, for the kinds that have
 * one, is its link-preview picture.
 */
export function articleSeo(info: RequestInfo, title: string, summary: RichTextField, image: Pick<PageSeo, "image"> = {}): PageSeo {
  return pageSeo(info, { title, description: asText(summary).slice(0, 300) || null, ...image, type: "article" });
}
