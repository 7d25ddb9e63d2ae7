// The images API's objects (docs/iiif.md, "The images API") and the paths built from
// them. Pure: shared by loaders and components, tested in items.test.ts.
import { isOpenAccess, parseAccess, type Access } from "../../lib/access-level";
import { pagePreview, type PagePreview } from "./manifest";

export interface ImageItemPage {
  id: string;
  page: number;
  label: string;
  width: number;
  height: number;
  /** The IIIF Image service, a same-origin path (`/iiif/3/{id}`). */
  service: string;
}

export interface ImageItem {
  slug: string;
  label: string;
  collection: { slug: string; title: string };
  target: { type: "record" | "library" | "archive" | string; id: number | string; key: string };
  /** Who may see the scans: an access level (lib/access-level.ts). */
  access: Access;
  /** Whether the requester may see the scans. When false, `thumbnail` is null and `images` empty. */
  allowed: boolean;
  pages: number;
  /** The viewer page, `/image-viewer/{slug}`. */
  viewer: string;
  /** The manifest's absolute id: what the viewer is given. */
  manifest: string;
  /** The same manifest as a same-origin path, for server-side reads. */
  manifest_path: string;
  thumbnail: string | null;
  images: ImageItemPage[];
}

export interface ImageItemList {
  data: ImageItem[];
  next?: string | null;
}

/** The viewer route. */
export const IMAGE_VIEWER_PATH = "/image-viewer";

/** An item slug or IIIF id: lower-case letters, digits and `-` (docs/iiif.md, "Words"). */
const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,198}[a-z0-9])?$/;

/** Whether a URL segment can be an item slug; anything else is a 404 without asking Go. */
export function isItemSlug(slug: string | undefined | null): slug is string {
  return typeof slug === "string" && SLUG.test(slug);
}

/** The viewer page of an item. */
export function viewerPath(slug: string): string {
  return `${IMAGE_VIEWER_PATH}/${slug}`;
}

/** The item's Presentation 3.0 manifest, a same-origin path. */
export function manifestPath(slug: string): string {
  return `/iiif/3/manifests/${slug}`;
}

/** The images API path of one item. */
export function itemApiPath(slug: string): string {
  return `/api/images/${slug}`;
}

/** The images API path of a list: every item, a collection's, or a record's. */
export function listApiPath({
  collection,
  record,
  person,
  after,
  limit,
}: { collection?: string | null; record?: number | string | null; person?: string | null; after?: string | null; limit?: number } = {}): string {
  const q = new URLSearchParams();
  if (record !== undefined && record !== null && record !== "") q.set("record", String(record));
  if (person) q.set("person", person);
  if (collection) q.set("collection", collection);
  if (limit) q.set("limit", String(limit));
  if (after) q.set("after", after);
  const s = q.toString();
  return s ? `/api/images?${s}` : "/api/images";
}

/** Whether a value has the shape of an item (enough of it for the pages to use). */
export function isImageItem(v: unknown): v is ImageItem {
  if (typeof v !== "object" || v === null) return false;
  const o = v as Record<string, unknown>;
  return (
    typeof o.slug === "string" &&
    typeof o.label === "string" &&
    typeof o.allowed === "boolean" &&
    typeof o.manifest === "string" &&
    Array.isArray(o.images)
  );
}

/** Whether the item's scans are not for everyone: any level but public, and any level this cannot read. */
export function restricted(item: Pick<ImageItem, "access">): boolean {
  return !isOpenAccess(item.access);
}

/** Who may see a restricted item's scans, as a short tag ("Members only", "Free with an account"…). */
export function accessLabel(item: Pick<ImageItem, "access">): string {
  return parseAccess(item.access).label;
}

/** The first page's preview for browsers without JavaScript, from the API's item. */
export function itemPreview(item: ImageItem): PagePreview | null {
  const first = [...item.images].sort((a, b) => a.page - b.page)[0];
  if (!item.allowed || !first) return null;
  return pagePreview(
    { service: first.service, width: first.width, height: first.height, label: first.label || `Page ${first.page}` },
    item.label,
    item.pages,
  );
}

/** The pages' labels in order ("Page N" for a page without one). */
export function itemPageLabels(item: ImageItem): string[] {
  return [...item.images].sort((a, b) => a.page - b.page).map((p) => p.label || `Page ${p.page}`);
}

/** "1 page", "3 pages". */
export function pagesText(n: number): string {
  return `${n} ${n === 1 ? "page" : "pages"}`;
}

/** The images API's name of a family-tree person: `{tree}:{xref}` (docs/iiif.md), xref without its @s. */
export function personTarget(tree: string, xref: string): string {
  return `${tree}:${xref.replace(/^@|@$/g, "")}`;
}
