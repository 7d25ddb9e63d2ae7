// The one place that maps content documents (and links to them) to site paths.
// Used by pages, rich-text links, previews, feeds and the sitemap, and by the
// catch-all route to check that a requested path is the document's real path.
// Rules: seed-spec §2 "Content-link resolution", plus the site routes for the
// document types that have their own routes (see docs/web.md).

/** What the resolver needs of a document or of a link to one. */
export interface LinkableDocument {
  type?: string | null;
  uid?: string | null;
  url?: string | null;
  /** Document data; only `parent.uid` (a content relationship) is read. */
  data?: unknown;
}

function parentUid(data: unknown): string | null {
  if (!data || typeof data !== "object") return null;
  const parent = (data as { parent?: unknown }).parent;
  if (!parent || typeof parent !== "object") return null;
  const uid = (parent as { uid?: unknown }).uid;
  return typeof uid === "string" && uid ? uid : null;
}

/** Uids of governance pages placed under /about/organisation/. */
export const ORGANISATION_UIDS: readonly string[] = [
  "society-policies",
  "annual-reports-and-agm",
  "governance",
];

/** Uids of governance pages placed under /about/organisation/governance/. */
export const GOVERNANCE_UIDS: readonly string[] = ["board-of-trustees", "nominations"];

/** Uids of the guides placed under /learn/guides/. */
export const GUIDE_UIDS: readonly string[] = [
  "how-to-use-probate-records",
  "how-to-start-your-family-tree",
  "how-to-use-census-records",
  "how-to-search-for-birth-marriage-and-death-certificates-1",
  "how-to-search-for-birth-marriage-and-death-certificates-2",
];

/** Uids of the hints and tips placed under /learn/hints-tips/. */
export const HINTS_TIPS_UIDS: readonly string[] = [
  "genealogy-as-a-career",
  "how-to-get-the-best-results-from-familysearch",
  "make-connections",
  "genealogy-or-family-history",
  "how-to-get-the-best-results-from-the-igi",
  "writing-genealogical-reports",
  "employing-a-professional-genealogist",
  "finding-and-downloading-pcc-wills-from-the-national",
  "top-10-tips-for-starting-your-family-history",
  "london-research",
  "surname-searching",
];

/**
 * Custom types that have a route of their own named after the type
 * (`/{type}` lists them, `/{type}/{uid}` shows one).
 */
export const ROUTED_CUSTOM_TYPES: readonly string[] = ["fhwuifhe", "cwbhvwt", "dheyenbvu"];

/**
 * Custom types whose route has no slug (seed-spec §2 lists only `/dheyenbvu`):
 * the list page shows each document in full under an anchor named by its uid.
 */
export const SINGLE_PAGE_CUSTOM_TYPES: readonly string[] = ["dheyenbvu"];

/** Uid of the `page` that /sog-events/join shows (seed-spec §2: "events list, event, join"). */
export const EVENTS_JOIN_UID = "sog-events-join";

/**
 * The list of each routed custom type is headed by content, never by its code
 * name: `uid` is the `page` whose title, description and body head `/{type}`;
 * `label` is the type's label in the content model, the heading when that page
 * is missing.
 */
export const CUSTOM_TYPE_LISTINGS: Readonly<Record<string, { uid: string; label: string }>> = {
  fhwuifhe: { uid: "research-room-notices", label: "Research room notices" },
  cwbhvwt: { uid: "volunteer-opportunities", label: "Volunteer opportunities" },
  dheyenbvu: { uid: "publications", label: "Publications" },
};

/**
 * `page` documents that a route of their own shows instead of the catch-all,
 * by uid. Their generic path (`/{uid}`) is then a 404, so each has one address.
 */
export const ROUTED_PAGE_PATHS: Readonly<Record<string, string>> = {
  [EVENTS_JOIN_UID]: "/sog-events/join",
  ...Object.fromEntries(Object.entries(CUSTOM_TYPE_LISTINGS).map(([type, { uid }]) => [uid, `/${type}`])),
};

/**
 * Returns the site path of a document, or null when it has none (then
 * `@prismicio/client` falls back to the document's `url`).
 */
export function linkResolver(doc: LinkableDocument): string | null {
  const uid = doc.uid || null;
  const type = doc.type ?? "";

  if (type === "home") return "/";
  if (!uid) return doc.url || null;

  if (type === "news_item") return `/news/${uid}`;
  if (type === "feature_item") return `/education/learning-hub/featured/${uid}`;
  if (type === "event") return `/sog-events/${uid}`;
  if (SINGLE_PAGE_CUSTOM_TYPES.includes(type)) return `/${type}#${uid}`;
  if (ROUTED_CUSTOM_TYPES.includes(type)) return `/${type}/${uid}`;
  if (type === "page" && Object.hasOwn(ROUTED_PAGE_PATHS, uid)) return ROUTED_PAGE_PATHS[uid]!;

  if (ORGANISATION_UIDS.includes(uid)) return `/about/organisation/${uid}`;
  if (GOVERNANCE_UIDS.includes(uid)) return `/about/organisation/governance/${uid}`;
  if (GUIDE_UIDS.includes(uid)) return `/learn/guides/${uid}`;
  if (HINTS_TIPS_UIDS.includes(uid)) return `/learn/hints-tips/${uid}`;

  const parent = parentUid(doc.data);
  if (parent) return `/${parent}/${uid}`;
  return `/${uid}`;
}

/** Normalises a request path for comparison with a resolved path. */
export function normalisePath(pathname: string): string {
  let path = pathname;
  try {
    path = decodeURI(pathname);
  } catch {
    // keep the raw path; it simply will not match
  }
  if (path.length > 1 && path.endsWith("/")) path = path.replace(/\/+$/, "");
  return path || "/";
}

/**
 * Section index paths and the pages they list. Their own page document is
 * optional: without one the section shows a plain list of its pages.
 */
export const SECTION_INDEXES: Readonly<Record<string, { title: string; uids: readonly string[] }>> = {
  "/learn/guides": { title: "Guides", uids: GUIDE_UIDS },
  "/learn/hints-tips": { title: "Hints and tips", uids: HINTS_TIPS_UIDS },
  "/about/organisation": { title: "Our organisation", uids: ORGANISATION_UIDS },
  "/about/organisation/governance": { title: "Governance", uids: GOVERNANCE_UIDS },
};
