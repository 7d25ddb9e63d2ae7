// Facts about the public site that only the server knows.
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

/** The canonical URL of the requested page: public origin + path, no query. */
export function canonicalUrl(request: Request, keepSearchParams: string[] = []): string {
  const url = new URL(request.url);
  const kept = new URLSearchParams();
  for (const name of keepSearchParams) {
    const value = url.searchParams.get(name);
    if (value) kept.set(name, value);
  }
  const query = kept.toString();
  return publicOrigin(request) + url.pathname + (query ? `?${query}` : "");
}

/** Head data for a page; the canonical URL comes from the request path. */
export function pageSeo(
  request: Request,
  page: Omit<PageSeo, "url">,
  keepSearchParams: string[] = [],
): PageSeo {
  return { ...page, url: canonicalUrl(request, keepSearchParams) };
}
