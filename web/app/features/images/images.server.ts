// Server-side reads of the images API and manifests (docs/iiif.md), as the visitor:
// through the request's auth session, so a member's session cookie (or token) reaches
// Go, which decides what is members-only. Pages must not rely on hiding anything.
import type { RouterContextProvider } from "react-router";
import type { ApiResult } from "../../lib/api-result";
import { failureText, getApi } from "../../lib/api.server";
import type { ScansData } from "./scans";
import { getAuth, type AuthSession } from "../auth/index.server";
import { firstPagePreview, manifestSummary, metadataPairs, pageLabels, type MetadataPair, type PagePreview } from "./manifest";
import {
  isImageItem,
  isItemSlug,
  itemApiPath,
  itemPageLabels,
  itemPreview,
  listApiPath,
  personTarget,
  type ImageItem,
  type ImageItemList,
} from "./items";

type Context = Readonly<RouterContextProvider>;

/** What <ImageViewer /> needs, read on the server. */
export interface ViewerData {
  /** The manifest to hand the viewer (its absolute id). */
  manifest: string;
  title: string;
  preview: PagePreview | null;
  pages: string[];
  metadata: MetadataPair[];
  summary: string;
}

function unavailable(what: string, detail: string, log: Pick<Console, "error">): never {
  log.error(`[images] ${what} failed: ${detail}`);
  throw new Response("Scans are temporarily unavailable", { status: 503, statusText: "Service Unavailable" });
}

/** A GET as the visitor; an API that cannot be reached is a 503 page. */
async function get<T>(auth: AuthSession, path: string, what: string): Promise<ApiResult<T>> {
  const done = await getApi<T>(auth, path);
  if (!done.ok && done.status === 0) unavailable(what, done.cause ?? "", auth.log);
  return done;
}

/** One item, or null for a slug that is malformed or unknown. A failing API is a 503. */
export async function loadImageItem(context: Context, slug: string | undefined): Promise<ImageItem | null> {
  if (!isItemSlug(slug)) return null;
  const auth = getAuth(context);
  const done = await get<unknown>(auth, itemApiPath(slug), "GET /api/images/{slug}");
  if (!done.ok && done.status === 404) return null;
  if (!done.ok || !isImageItem(done.body)) unavailable("GET /api/images/{slug}", `answered ${done.status}`, auth.log);
  return done.body;
}

/**
 * A page of items (every item, or a collection's); `after` is the API's cursor. Null
 * when the API refuses the parameters (a stale or made-up cursor): the page is a 404,
 * as a malformed `?page` is elsewhere on the site.
 */
export async function listImageItems(context: Context, options: { after?: string | null; collection?: string | null; limit?: number } = {}): Promise<{ items: ImageItem[]; next: string | null } | null> {
  const auth = getAuth(context);
  const done = await get<ImageItemList>(auth, listApiPath(options), "GET /api/images");
  if (!done.ok && (done.status === 422 || done.status === 400)) return null;
  if (!done.ok || !Array.isArray(done.body.data)) unavailable("GET /api/images", `answered ${done.status}`, auth.log);
  const body = done.body;
  return { items: body.data.filter(isImageItem), next: typeof body.next === "string" && body.next ? body.next : null };
}

/**
 * The items attached to a research record (docs/iiif.md: `?record=`), for record pages
 * that embed the viewer. Never throws: a failure is logged and reads as "no scans", so
 * the record page still shows.
 */
export async function loadRecordImages(context: Context, recordId: number | string): Promise<ImageItem[]> {
  return loadTargetImages(context, { record: recordId }, "record");
}

/** The items attached to a person of a published family tree (`?person={tree}:{xref}`). Never throws. */
export async function loadPersonImages(context: Context, tree: string, xref: string): Promise<ImageItem[]> {
  return loadTargetImages(context, { person: personTarget(tree, xref) }, "person");
}

async function loadTargetImages(context: Context, target: { record?: number | string; person?: string }, what: string): Promise<ImageItem[]> {
  const auth = getAuth(context);
  const done = await getApi<ImageItemList>(auth, listApiPath(target));
  if (done.ok && Array.isArray(done.body.data)) return done.body.data.filter(isImageItem);
  const call = `GET /api/images?${what}=`;
  auth.log.error(`[images] ${done.ok ? `${call} answered ${done.status}` : failureText(call, done)}`);
  return [];
}

/**
 * The viewer's data for an item the visitor may see (`item.allowed`): the manifest is
 * read as the visitor for its metadata and page labels; when that read fails, the
 * API's own fields are enough for the viewer (which reads the manifest itself).
 */
export async function loadViewerData(context: Context, item: ImageItem): Promise<ViewerData> {
  const base: ViewerData = {
    manifest: item.manifest,
    title: item.label,
    preview: itemPreview(item),
    pages: itemPageLabels(item),
    metadata: [],
    summary: "",
  };
  const auth = getAuth(context);
  const done = await getApi<unknown>(auth, item.manifest_path);
  if (!done.ok) {
    auth.log.error(`[images] ${failureText(`GET ${item.manifest_path}`, done)}`);
    return base;
  }
  try {
    const manifest = done.body;
    const pages = pageLabels(manifest);
    return {
      ...base,
      pages: pages.length ? pages : base.pages,
      preview: base.preview ?? firstPagePreview(manifest, item.label),
      metadata: metadataPairs(manifest),
      summary: manifestSummary(manifest),
    };
  } catch (error) {
    auth.log.error(`[images] GET ${item.manifest_path} failed: ${error instanceof Error ? error.message : String(error)}`);
    return base;
  }
}

/**
 * A record's "Scans" section (ItemScans): its items, and the viewer's data of the first
 * one the visitor may see. Never throws; without scans `items` is empty.
 */
export async function loadRecordScans(context: Context, recordId: number | string): Promise<ScansData> {
  return scansOf(context, await loadRecordImages(context, recordId));
}

/** A family-tree person's "Scans" section (ItemScans), as loadRecordScans. */
export async function loadPersonScans(context: Context, tree: string, xref: string): Promise<ScansData> {
  return scansOf(context, await loadPersonImages(context, tree, xref));
}

async function scansOf(context: Context, items: ImageItem[]): Promise<ScansData> {
  const first = items.find((i) => i.allowed);
  const viewer = first ? { ...(await loadViewerData(context, first)), slug: first.slug, path: first.viewer } : null;
  return {
    items: items.map(({ slug, label, pages, access, allowed, viewer }) => ({ slug, label, pages, access, allowed, viewer })),
    viewer,
    signedIn: getAuth(context).state.loggedIn,
  };
}
