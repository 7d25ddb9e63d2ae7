import type { ImageField } from "@prismicio/client";
import { PrismicImage } from "@prismicio/react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ContentImage, imgixSrcSet, isImgixUrl, SRCSET_WIDTHS } from "./ContentImage";

const field = (url: string, alt: string | null = "A church"): ImageField =>
  ({
    id: "img1",
    url,
    alt,
    copyright: null,
    dimensions: { width: 1200, height: 800 },
    edit: { x: 0, y: 0, zoom: 1, background: "transparent" },
  }) as ImageField;

describe("ContentImage", () => {
  it("gives Lineage's media a plain img with width and height, without a srcset of the same file", () => {
    const html = renderToStaticMarkup(<ContentImage field={field("https://lineage.test/media/church.jpg")} className="card__image" />);
    expect(html).toBe('<img src="https://lineage.test/media/church.jpg" alt="A church" class="card__image" loading="lazy" width="1200" height="800"/>');
    // React adds a preload link for an eager image; the img itself is plain.
    expect(renderToStaticMarkup(<ContentImage field={field("/media/church.jpg", null)} loading="eager" />)).toContain(
      '<img src="/media/church.jpg" alt="" loading="eager" width="1200" height="800"/>',
    );
  });

  it("renders an imgix image exactly as @prismicio/react's PrismicImage did", () => {
    const image = field("https://images.prismic.io/repo/church.jpg?auto=format,compress");
    const sizes = "(min-width: 60rem) 20rem, 100vw";
    const ours = renderToStaticMarkup(<ContentImage field={image} sizes={sizes} className="c" />);
    const theirs = renderToStaticMarkup(
      <PrismicImage field={image} fallbackAlt="" className="c" sizes={sizes} widths={SRCSET_WIDTHS} loading="lazy" width={1200} height={800} />,
    );
    expect(ours).toBe(theirs);
    expect(ours).toContain("1800w");
  });

  it("builds an imgix srcset once per URL", () => {
    const url = "https://repo.imgix.net/a.png";
    expect(imgixSrcSet(url)).toBe(imgixSrcSet(url));
  });

  it("knows imgix hosts", () => {
    expect(isImgixUrl("https://images.prismic.io/x/y.png")).toBe(true);
    expect(isImgixUrl("https://foo.imgix.net/y.png")).toBe(true);
    expect(isImgixUrl("https://lineage.example/media/y.png")).toBe(false);
    expect(isImgixUrl("/media/y.png")).toBe(false);
    expect(isImgixUrl("https://evil.test/images.prismic.io/y.png")).toBe(false);
  });

  it("renders nothing without a URL", () => {
    expect(renderToStaticMarkup(<ContentImage field={{} as ImageField} />)).toBe("");
  });
});
