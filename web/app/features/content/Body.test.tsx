import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import type { BodySlice } from "./content-types";
import { Body } from "./Body";

const image = (name: string, alt: string | null = `Picture of ${name}`) => ({
  id: name,
  url: `https://x.test/media/${name}.svg`,
  alt,
  copyright: null,
  dimensions: { width: 1200, height: 800 },
  edit: { x: 0, y: 0, zoom: 1, background: "transparent" },
});

const slice = (slice_type: string, primary: object, items: object[] = []) =>
  ({ slice_type, slice_label: null, id: `${slice_type}$1`, variation: "default", version: "v1", primary, items }) as unknown as BodySlice;

const render = (slices: BodySlice[], leadHeroIsPageHeading = false) =>
  renderToStaticMarkup(
    <MemoryRouter>
      <Body slices={slices} context={{ leadHeroIsPageHeading }} />
    </MemoryRouter>,
  );

describe("Body slices", () => {
  it("renders rich_text", () => {
    const html = render([slice("rich_text", { content: [{ type: "paragraph", text: "Hello", spans: [] }] })]);
    expect(html).toContain('<section class="slice slice--rich-text prose"><p>Hello</p></section>');
  });

  it("renders hero with its link and image", () => {
    const hero = slice("hero", {
      title: [{ type: "heading1", text: "Discover", spans: [] }],
      text: [{ type: "paragraph", text: "Start here", spans: [] }],
      image: image("church"),
      link: { link_type: "Document", id: "P", type: "page", uid: "how-to-start-your-family-tree", tags: [], lang: "en-gb", isBroken: false },
      link_label: "Start your tree",
    });
    const html = render([hero]);
    expect(html).toContain('<h2 class="hero__title">Discover</h2>');
    expect(html).toContain('href="/learn/guides/how-to-start-your-family-tree"');
    expect(html).toContain("Start your tree");
    expect(html).toContain('alt="Picture of church"');
    expect(render([hero], true)).toContain('<h1 class="hero__title">Discover</h1>');
  });

  it("renders gallery items with captions and skips empty images", () => {
    const html = render([
      slice("gallery", { title: "From the collections" }, [
        { image: image("register"), caption: "Baptisms, 1783" },
        { image: {}, caption: "nothing" },
        { image: image("census", null), caption: null },
      ]),
    ]);
    expect(html).toContain("<h2>From the collections</h2>");
    expect(html.match(/<li class="gallery__item">/g)).toHaveLength(2);
    expect(html).toContain("<figcaption>Baptisms, 1783</figcaption>");
    expect(html).not.toContain("nothing");
    expect(html).toMatch(/alt=""/);
  });

  it("renders video as a facade that requests nothing from the video host", () => {
    const html = render([
      slice("video", {
        title: "A talk on parish registers",
        video: {
          type: "video",
          version: "1.0",
          embed_url: "https://vimeo.com/76979871",
          html: "<b>x</b>",
          width: 640,
          height: 360,
          provider_name: "Vimeo",
          duration: 634,
          thumbnail_url: "https://i.vimeocdn.com/video/1.jpg",
        },
      }),
    ]);
    expect(html).not.toContain("<iframe");
    expect(html).not.toContain("vimeocdn");
    expect(html).not.toContain("<b>x</b>");
    expect(html).toMatch(/<a class="[^"]*" href="https:\/\/vimeo.com\/76979871"[^>]*>/);
    expect(html).toContain("Play video: </span>A talk on parish registers");
    expect(html).toContain('<time dateTime="PT10M34S" aria-hidden="true">10:34</time>');
    expect(html).toContain("10 minutes 34 seconds");
    expect(html).toContain("Plays from Vimeo when you press play");
  });

  it("renders grid cards with links", () => {
    const html = render([
      slice("grid", { title: "Explore" }, [
        {
          title: "Learn",
          text: [{ type: "paragraph", text: "Guides", spans: [] }],
          image: image("library"),
          link: { link_type: "Web", url: "https://example.org/learn" },
        },
        { title: "Volunteer", text: [], image: {}, link: { link_type: "Any" } },
      ]),
    ]);
    expect(html).toContain('<h2 id="grid-grid1">Explore</h2>');
    expect(html).toContain('<a href="https://example.org/learn" rel="noreferrer">Learn</a>');
    expect(html).toContain('<h3 class="card__title">Volunteer</h3>');
  });

  it("ignores unknown slice types and empty bodies", () => {
    expect(render([slice("mystery", {})])).toBe('<div class="body"></div>');
    expect(render([])).toBe("");
  });
});
