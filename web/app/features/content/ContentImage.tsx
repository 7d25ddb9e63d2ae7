import type { ImageField } from "@prismicio/client";
import { PrismicImage } from "@prismicio/react";

interface ContentImageProps {
  field: ImageField | null | undefined;
  className?: string;
  /** The `sizes` attribute; the srcset holds several widths. */
  sizes?: string;
  /** Eager for images at the top of a page, lazy elsewhere. */
  loading?: "lazy" | "eager";
}

/**
 * An image field as a responsive <img>. A missing alt text becomes alt=""
 * (decorative) rather than no alt at all.
 */
export function ContentImage({ field, className, sizes = "(min-width: 60rem) 60rem, 100vw", loading = "lazy" }: ContentImageProps) {
  if (!field?.url) return null;
  const width = field.dimensions?.width;
  const height = field.dimensions?.height;
  // Root-relative URLs cannot get an imgix srcset (it needs an absolute URL).
  if (!/^https?:\/\//.test(field.url)) {
    return (
      <img src={field.url} alt={field.alt ?? ""} className={className} loading={loading} width={width} height={height} />
    );
  }
  return (
    <PrismicImage
      field={field}
      fallbackAlt=""
      className={className}
      sizes={sizes}
      widths={[480, 800, 1200, 1800]}
      loading={loading}
      width={width}
      height={height}
    />
  );
}
