// Content as the page's components draw it, for loader data: every loader's answer is
// serialised into the page and hydrated, so the fields no component reads — an image's
// crop (`edit`), id and copyright, a document link's tags, slug, language and
// `isBroken`, an oEmbed answer's provider HTML and author — are left out. What stays:
// image url, alt and dimensions (and a rich-text image's copyright and link, which are
// drawn); links' type, id, uid, url, target and data (the link resolver reads
// `data.parent`); oEmbed's embed_url, title, provider, size, thumbnail and duration
// (the video facade, Embed.tsx).

type Json = unknown;

const DOCUMENT_LINK_KEYS = ["link_type", "id", "type", "uid", "url", "target", "data"] as const;
const IMAGE_KEYS = ["url", "alt"] as const;
const RICH_TEXT_IMAGE_KEYS = ["type", "url", "alt", "copyright", "linkTo"] as const;
const EMBED_KEYS = ["type", "embed_url", "title", "provider_name", "width", "height", "thumbnail_url", "duration"] as const;
const SLICE_DROPPED = new Set(["version"]);

function pick(source: Record<string, Json>, keys: readonly string[]): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const key of keys) if (key in source) out[key] = trimContent(source[key]);
  return out;
}

function dimensions(source: Record<string, Json>): { width: number; height: number } | undefined {
  const d = source.dimensions as { width?: unknown; height?: unknown } | null | undefined;
  return d && typeof d.width === "number" && typeof d.height === "number" ? { width: d.width, height: d.height } : undefined;
}

/** `value` with only what the components draw (see above); a new value, `value` is untouched. */
export function trimContent<T>(value: T): T {
  if (Array.isArray(value)) return value.map(trimContent) as T;
  if (!value || typeof value !== "object") return value;
  const source = value as Record<string, Json>;
  if (source.link_type === "Document") return pick(source, DOCUMENT_LINK_KEYS) as T;
  if (typeof source.embed_url === "string") return pick(source, EMBED_KEYS) as T;
  if (typeof source.url === "string" && "dimensions" in source) {
    const image = pick(source, source.type === "image" ? RICH_TEXT_IMAGE_KEYS : IMAGE_KEYS);
    const size = dimensions(source);
    if (size) image.dimensions = size;
    return image as T;
  }
  const out: Record<string, Json> = {};
  const slice = typeof source.slice_type === "string";
  for (const [key, child] of Object.entries(source)) {
    if (slice && SLICE_DROPPED.has(key)) continue;
    out[key] = trimContent(child);
  }
  return out as T;
}
