import { asImageWidthSrcSet, type ImageField } from "@prismicio/client";
import { LruCache } from "../../lib/lru";

interface ContentImageProps {
  field: ImageField | null | undefined;
  className?: string;
  /** The `sizes` attribute, for images an imgix host can resize (see imgixSrcSet). */
  sizes?: string;
  /** Eager for images at the top of a page, lazy elsewhere. */
  loading?: "lazy" | "eager";
}

/** The widths of an imgix srcset. */
export const SRCSET_WIDTHS = [480, 800, 1200, 1800];

/** Hosts that resize an image by its URL's `width` parameter. */
export function isImgixUrl(url: string): boolean {
  const host = /^https?:\/\/([^/?#:]+)/i.exec(url)?.[1]?.toLowerCase();
  return host === "images.prismic.io" || Boolean(host?.endsWith(".imgix.net"));
}

const srcSets = new LruCache<{ src: string; srcSet: string }>(500);

/**
 * src and srcset of an image on an imgix host (a hosted Prismic repository's media),
 * built once per URL. Lineage's own media (/media/…) ignore a query string, so
 * a srcset there would only list the same file under four names: they get none.
 */
export function imgixSrcSet(url: string): { src: string; srcSet: string } {
  let hit = srcSets.get(url);
  if (!hit) {
    const built = asImageWidthSrcSet({ url, alt: null, copyright: null, dimensions: { width: 1, height: 1 }, id: "", edit: { x: 0, y: 0, zoom: 1, background: "transparent" } }, { widths: SRCSET_WIDTHS });
    hit = { src: built?.src ?? url, srcSet: built?.srcset ?? "" };
    srcSets.set(url, hit);
  }
  return hit;
}

/**
 * An image field as an <img> with its width and height (so the page does not shift
 * when it loads). A missing alt text becomes alt="" (decorative) rather than no alt
 * at all.
 */
export function ContentImage({ field, className, sizes = "(min-width: 60rem) 60rem, 100vw", loading = "lazy" }: ContentImageProps) {
  if (!field?.url) return null;
  const width = field.dimensions?.width;
  const height = field.dimensions?.height;
  const alt = field.alt || "";
  if (!isImgixUrl(field.url)) {
    return <img src={field.url} alt={alt} className={className} loading={loading} width={width} height={height} />;
  }
  const { src, srcSet } = imgixSrcSet(field.url);
  return <img src={src} srcSet={srcSet} alt={alt} className={className} sizes={sizes} loading={loading} width={width} height={height} />;
}
