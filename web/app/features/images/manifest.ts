// Reading IIIF Presentation 3.0 manifests (protocols.md §4.2) for what the pages show
// around the viewer: the title, the metadata pairs, the page labels and the first
// page's image for browsers without JavaScript. Pure functions, shared by the server
// (loaders) and the browser; anything malformed reads as absent, never throws.

/** A IIIF language map: `{ "en": ["Parish register"] }`, `{ "none": ["p. 1"] }`. */
export type LanguageMap = Record<string, unknown>;

/** The first page image shown without JavaScript (and when the viewer cannot start). */
export interface PagePreview {
  /** A derivative small enough for a page: at most PREVIEW_SIDE pixels on its longer side. */
  src: string;
  /** The full image, for the "open the full image" link. */
  href: string;
  /** Its text alternative: the item's title and the page's label. */
  alt: string;
  width: number | null;
  height: number | null;
}

export interface MetadataPair {
  label: string;
  value: string;
}

/** Longer side of the no-JavaScript preview image, in pixels (docs/iiif.md's `!1200,1200`). */
export const PREVIEW_SIDE = 1200;

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);
const positive = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) && v > 0 ? Math.round(v) : null);

/**
 * The text of a language map in the preferred language: `en` (or any `en-…`), then
 * `none`, then the first language given. Several values are joined with "; ". A plain
 * string (Presentation 2 style) is accepted as it is.
 */
export function labelText(map: unknown, lang = "en"): string {
  if (typeof map === "string") return map.trim();
  if (!isObject(map)) return "";
  const keys = Object.keys(map);
  const pick =
    keys.find((k) => k === lang) ??
    keys.find((k) => k.toLowerCase().startsWith(`${lang}-`)) ??
    keys.find((k) => k === "none") ??
    keys[0];
  if (pick === undefined) return "";
  return asArray(map[pick])
    .filter((v): v is string => typeof v === "string")
    .map((v) => stripTags(v).trim())
    .filter(Boolean)
    .join("; ");
}

/** Presentation 3 allows a little HTML in values; the page shows them as text. */
function stripTags(s: string): string {
  return s.replace(/<[^>]*>/g, "").replace(/\s+/g, " ");
}

/** The Canvases of a manifest, in order. */
export function canvases(manifest: unknown): Json[] {
  if (!isObject(manifest)) return [];
  return asArray(manifest.items).filter((c): c is Json => isObject(c) && c.type === "Canvas");
}

/** The manifest's title, or "" when it has none. */
export function manifestTitle(manifest: unknown): string {
  return isObject(manifest) ? labelText(manifest.label) : "";
}

/** Each page's label ("p. 1"); a page without one is "Page N". */
export function pageLabels(manifest: unknown): string[] {
  return canvases(manifest).map((c, i) => labelText(c.label) || `Page ${i + 1}`);
}

/** The manifest's metadata pairs, then its required statement (attribution), as text. */
export function metadataPairs(manifest: unknown): MetadataPair[] {
  if (!isObject(manifest)) return [];
  const pairs: MetadataPair[] = [];
  for (const entry of asArray(manifest.metadata)) {
    if (!isObject(entry)) continue;
    const label = labelText(entry.label);
    const value = labelText(entry.value);
    if (label && value) pairs.push({ label, value });
  }
  const statement = manifest.requiredStatement;
  if (isObject(statement)) {
    const label = labelText(statement.label);
    const value = labelText(statement.value);
    if (label && value) pairs.push({ label, value });
  }
  return pairs;
}

/** The manifest's summary as text ("" without one). */
export function manifestSummary(manifest: unknown): string {
  return isObject(manifest) ? labelText(manifest.summary) : "";
}

interface PaintedImage {
  /** The image resource's own URL. */
  id: string;
  width: number | null;
  height: number | null;
  /** The id of its IIIF Image API service (no trailing slash), if it has one. */
  service: string | null;
}

/** The first image painted on a canvas. */
function paintedImage(canvas: Json): PaintedImage | null {
  for (const page of asArray(canvas.items)) {
    if (!isObject(page)) continue;
    for (const anno of asArray(page.items)) {
      if (!isObject(anno) || (anno.motivation !== "painting" && !asArray(anno.motivation).includes("painting"))) continue;
      // A Choice body offers alternatives; its first item is the default.
      let body = asArray(anno.body)[0];
      if (isObject(body) && body.type === "Choice") body = asArray(body.items)[0];
      if (!isObject(body) || body.type !== "Image" || typeof body.id !== "string") continue;
      let service: string | null = null;
      for (const s of asArray(body.service)) {
        if (!isObject(s)) continue;
        const id = typeof s.id === "string" ? s.id : typeof s["@id"] === "string" ? (s["@id"] as string) : null;
        if (id && /ImageService[23]/.test(String(s.type ?? s["@type"] ?? ""))) {
          service = id.replace(/\/+$/, "");
          break;
        }
      }
      return {
        id: body.id,
        width: positive(body.width) ?? positive(canvas.width),
        height: positive(body.height) ?? positive(canvas.height),
        service,
      };
    }
  }
  return null;
}

/** The size of an image confined to `box` × `box`, keeping its shape, never enlarged. */
export function confinedSize(width: number, height: number, box: number): { width: number; height: number } {
  const scale = Math.min(1, box / width, box / height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/**
 * A IIIF Image API URL of the whole image confined to `side` × `side` (`!w,h`: as large
 * as fits, never larger than the image, so no `^` is needed).
 */
export function confinedImageUrl(service: string, side: number): string {
  return `${service.replace(/\/+$/, "")}/full/!${side},${side}/0/default.jpg`;
}

/**
 * The largest image the server will make of a page: IIIF's `max` size, the whole scan
 * shrunk to the server's maxWidth, maxHeight and maxArea (docs/iiif.md), so the link
 * follows whatever limits the operator set.
 */
export function largestImageUrl(service: string): string {
  return `${service.replace(/\/+$/, "")}/full/max/0/default.jpg`;
}

/** One page image as the preview needs it. */
export interface PreviewSource {
  /** The IIIF Image service id (absolute or a same-origin path), or null for a plain image. */
  service: string | null;
  /** The image itself, used when there is no service. */
  id?: string | null;
  width: number | null;
  height: number | null;
  /** The page's label ("p. 1", "Front"). */
  label: string;
}

/**
 * The first page's preview: a derivative at most PREVIEW_SIDE pixels on its longer side,
 * a link to the largest one the server makes, and alt text naming the item and the page.
 */
export function pagePreview(page: PreviewSource, title: string, totalPages: number): PagePreview | null {
  const alt = `${title || "Scan"}, ${totalPages > 1 ? `${page.label} (first of ${totalPages} pages)` : page.label}`;
  if (!page.service) {
    return page.id ? { src: page.id, href: page.id, alt, width: page.width, height: page.height } : null;
  }
  const size = page.width && page.height ? confinedSize(page.width, page.height, PREVIEW_SIDE) : null;
  return {
    src: confinedImageUrl(page.service, PREVIEW_SIDE),
    href: largestImageUrl(page.service),
    alt,
    width: size?.width ?? null,
    height: size?.height ?? null,
  };
}

/**
 * The first page's image for browsers without JavaScript, from a manifest: a derivative
 * from its image service (or the image itself when it has none). Null when the
 * manifest paints no image.
 */
export function firstPagePreview(manifest: unknown, title = manifestTitle(manifest)): PagePreview | null {
  const list = canvases(manifest);
  for (const [i, canvas] of list.entries()) {
    const image = paintedImage(canvas);
    if (!image) continue;
    const label = labelText(canvas.label) || `Page ${i + 1}`;
    return pagePreview({ ...image, label }, title, list.length);
  }
  return null;
}
