import type { RichTextField } from "@prismicio/client";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { RichText } from "./RichText";

const render = (field: RichTextField) =>
  renderToStaticMarkup(
    <MemoryRouter>
      <RichText field={field} />
    </MemoryRouter>,
  );

const text = (type: string, value: string, spans: unknown[] = []) => ({ type, text: value, spans }) as RichTextField[number];

describe("RichText", () => {
  it("renders headings 1–6, paragraphs and preformatted text", () => {
    const html = render([
      text("heading1", "One"),
      text("heading2", "Two"),
      text("heading3", "Three"),
      text("heading4", "Four"),
      text("heading5", "Five"),
      text("heading6", "Six"),
      text("paragraph", "Para"),
      text("preformatted", "  code <b>"),
    ]);
    for (let level = 1; level <= 6; level++) expect(html).toMatch(new RegExp(`<h${level}>[A-Z][a-z]+</h${level}>`));
    expect(html).toContain("<p>Para</p>");
    expect(html).toContain('<pre tabindex="0"><code>  code &lt;b&gt;</code></pre>');
  });

  it("groups list items into <ul> and <ol>", () => {
    const html = render([text("list-item", "a"), text("list-item", "b"), text("o-list-item", "one"), text("o-list-item", "two")]);
    expect(html).toContain("<ul><li>a</li><li>b</li></ul><ol><li>one</li><li>two</li></ol>");
  });

  it("renders strong, em, label and overlapping spans", () => {
    const html = render([
      text("paragraph", "bold italic label", [
        { start: 0, end: 11, type: "strong" },
        { start: 5, end: 11, type: "em" },
        { start: 12, end: 17, type: "label", data: { label: "highlight" } },
      ]),
    ]);
    expect(html).toContain("<strong>bold <em>italic</em></strong>");
    expect(html).toContain('<span class="rt-label rt-label--highlight">label</span>');
  });

  it("makes document links router links and web links external", () => {
    const html = render([
      text("paragraph", "news and site and file", [
        {
          start: 0,
          end: 4,
          type: "hyperlink",
          data: { link_type: "Document", id: "N", type: "news_item", uid: "agm", tags: [], lang: "en-gb", isBroken: false },
        },
        { start: 9, end: 13, type: "hyperlink", data: { link_type: "Web", url: "https://example.org/", target: "_blank" } },
        {
          start: 18,
          end: 22,
          type: "hyperlink",
          data: { link_type: "Media", id: "M", name: "r.pdf", kind: "document", url: "https://x.test/media/r.pdf", size: "1" },
        },
      ]),
    ]);
    expect(html).toMatch(/<a href="\/news\/agm"[^>]*>news<\/a>/);
    expect(html).toContain('<a target="_blank" href="https://example.org/" rel="noreferrer">site</a>');
    expect(html).toContain('<a href="https://x.test/media/r.pdf" rel="noreferrer">file</a>');
  });

  it("counts span offsets in UTF-16 code units", () => {
    const html = render([text("paragraph", "🌳 tree", [{ start: 3, end: 7, type: "strong" }])]);
    expect(html).toContain("🌳 <strong>tree</strong>");
  });

  it("renders images with alt, credit and linkTo", () => {
    const html = render([
      {
        type: "image",
        id: "img",
        url: "https://x.test/media/church.svg",
        alt: "A church",
        copyright: "The Society",
        dimensions: { width: 800, height: 400 },
        edit: { x: 0, y: 0, zoom: 1, background: "transparent" },
        linkTo: { link_type: "Document", id: "P", type: "page", uid: "how-to-use-census-records", tags: [], lang: "en-gb", isBroken: false },
      } as RichTextField[number],
      {
        type: "image",
        id: "img2",
        url: "https://x.test/media/map.svg",
        alt: null,
        copyright: null,
        dimensions: { width: 800, height: 400 },
        edit: { x: 0, y: 0, zoom: 1, background: "transparent" },
      } as RichTextField[number],
    ]);
    expect(html).toMatch(/<a href="\/learn\/guides\/how-to-use-census-records"[^>]*><img [^>]*alt="A church"/);
    expect(html).toContain("© The Society");
    expect(html).toMatch(/<img src="https:\/\/x.test\/media\/map.svg"[^>]*alt=""/);
  });

  it("renders embeds as a play facade without the provider's HTML or thumbnail", () => {
    const html = render([
      {
        type: "embed",
        oembed: {
          type: "video",
          version: "1.0",
          embed_url: "https://www.youtube.com/watch?v=aqz-KE-bpKQ",
          title: "Big Buck Bunny",
          thumbnail_url: "https://i.ytimg.com/vi/aqz-KE-bpKQ/hqdefault.jpg",
          html: '<iframe src="https://evil.example/"></iframe><script>alert(1)</script>',
          width: 480,
          height: 270,
        },
      } as RichTextField[number],
    ]);
    expect(html).toContain('href="https://www.youtube.com/watch?v=aqz-KE-bpKQ"');
    expect(html).toContain("Play video: </span>Big Buck Bunny");
    expect(html).toContain("Plays from YouTube when you press play");
    expect(html).not.toContain("<iframe");
    expect(html).not.toContain("ytimg");
    expect(html).not.toContain("evil.example");
    // The one script is the site's own play button (embed-play.js), none of the provider's.
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts).toHaveLength(1);
    expect(scripts[0]).toMatch(/^<script type="module" async="" src="[^"]*embed-play[^"]*">$/);
    expect(html).toContain('data-player="https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ?autoplay=1"');
    expect(html).toContain('data-player-title="Big Buck Bunny"');
  });

  it("renders nothing, or the fallback, for an empty field", () => {
    expect(render([])).toBe("");
    expect(
      renderToStaticMarkup(
        <MemoryRouter>
          <RichText field={[]} fallback={<p>none</p>} />
        </MemoryRouter>,
      ),
    ).toBe("<p>none</p>");
  });
});
