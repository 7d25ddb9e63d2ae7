// Head tags for a page: title, description, canonical link and Open Graph.
// Loaders build a PageSeo (with absolute URLs from LINEAGE_PUBLIC_URL);
// each route's `meta` turns it into tags with `seoMeta`.

export const SITE_NAME = "Lineage";
export const SITE_TAGLINE = "Genealogy and family history society";

export interface PageSeo {
  title: string;
  description?: string | null;
  /** Absolute canonical URL. */
  url: string;
  /** Absolute image URL for link previews. */
  image?: string | null;
  type?: "website" | "article";
}

export type MetaDescriptor = Record<string, string>;

/** Head tags of a route: its page's, or an error title when its boundary shows. */
export function routeMeta({ loaderData, error }: { loaderData?: unknown; error?: unknown }): MetaDescriptor[] {
  if (error !== undefined && error !== null) {
    const status = typeof error === "object" && "status" in error && typeof error.status === "number" ? error.status : 500;
    const title = status === 404 ? "This page could not be found" : status === 503 ? "Temporarily unavailable" : "Something went wrong";
    return [{ title: pageTitle(title) }, { name: "robots", content: "noindex" }];
  }
  return seoMeta((loaderData as { seo?: PageSeo } | undefined)?.seo);
}

export function pageTitle(title: string | null | undefined): string {
  const clean = title?.trim();
  return clean && clean !== SITE_NAME ? `${clean} | ${SITE_NAME}` : `${SITE_NAME} | ${SITE_TAGLINE}`;
}

export function seoMeta(seo: PageSeo | undefined | null): MetaDescriptor[] {
  if (!seo) return [{ title: pageTitle(null) }];
  const title = pageTitle(seo.title);
  const tags: MetaDescriptor[] = [
    { title },
    { tagName: "link", rel: "canonical", href: seo.url },
    { property: "og:site_name", content: SITE_NAME },
    { property: "og:title", content: seo.title?.trim() || SITE_NAME },
    { property: "og:type", content: seo.type ?? "website" },
    { property: "og:url", content: seo.url },
    { property: "og:locale", content: "en_GB" },
  ];
  if (seo.description) {
    tags.push({ name: "description", content: seo.description });
    tags.push({ property: "og:description", content: seo.description });
  }
  if (seo.image) tags.push({ property: "og:image", content: seo.image });
  tags.push({ name: "twitter:card", content: seo.image ? "summary_large_image" : "summary" });
  return tags;
}
