import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { Body } from "./Body";
import { CardList } from "./CardList";
import { toCard } from "./cards";
import type { BodySlice } from "./content-types";
import { RichText } from "./RichText";
import { trimContent } from "./trim";

const DEMO = path.resolve(import.meta.dirname, "../../../../demo/content");
const demo = (file: string) => JSON.parse(readFileSync(path.join(DEMO, file), "utf8"));
const html = (node: React.ReactNode) => renderToStaticMarkup(<MemoryRouter>{node}</MemoryRouter>);

describe("trimContent", () => {
  it("keeps what components draw and drops the rest", () => {
    const image = { id: "i", url: "/media/a.svg", alt: "A", copyright: "C", dimensions: { width: 4, height: 3 }, edit: { x: 0, y: 0, zoom: 1, background: "transparent" } };
    expect(trimContent(image)).toEqual({ url: "/media/a.svg", alt: "A", dimensions: { width: 4, height: 3 } });
    expect(trimContent({ ...image, type: "image", linkTo: { link_type: "Web", url: "https://x.test" } })).toEqual({
      type: "image",
      url: "/media/a.svg",
      alt: "A",
      copyright: "C",
      linkTo: { link_type: "Web", url: "https://x.test" },
      dimensions: { width: 4, height: 3 },
    });
    const link = { link_type: "Document", id: "D", type: "page", tags: ["t"], lang: "en-gb", slug: "s", uid: "u", isBroken: false, data: { parent: { link_type: "Document", id: "P", type: "page", uid: "p", lang: "en-gb", isBroken: false } } };
    expect(trimContent(link)).toEqual({ link_type: "Document", id: "D", type: "page", uid: "u", data: { parent: { link_type: "Document", id: "P", type: "page", uid: "p" } } });
    const oembed = { type: "video", embed_url: "https://youtu.be/abcdefgh", title: "T", provider_name: "YouTube", width: 480, height: 270, thumbnail_url: "/media/t.jpg", duration: 634, html: "<iframe></iframe>", author_name: "A", version: "1.0" };
    expect(trimContent(oembed)).toEqual({ type: "video", embed_url: "https://youtu.be/abcdefgh", title: "T", provider_name: "YouTube", width: 480, height: 270, thumbnail_url: "/media/t.jpg", duration: 634 });
    const frozen = Object.freeze({ a: Object.freeze([image]) });
    expect(trimContent(frozen).a[0]).not.toBe(image); // a copy: cached answers are frozen and shared
  });

  it("renders the demo home page's body and intro exactly as the whole document did, from less data", () => {
    const home = demo("home.home.json");
    const body = home.data.body as BodySlice[];
    const trimmed = trimContent(body);
    expect(html(<Body slices={trimmed} context={{ leadHeroIsPageHeading: true }} />)).toBe(html(<Body slices={body} context={{ leadHeroIsPageHeading: true }} />));
    expect(html(<RichText field={trimContent(home.data.intro)} />)).toBe(html(<RichText field={home.data.intro} />));
    expect(JSON.stringify(trimmed).length).toBeLessThan(0.8 * JSON.stringify(body).length);
  });

  it("renders every demo news, event and featured card as the untrimmed fields did", () => {
    const docs = readdirSync(DEMO)
      .filter((f) => /^(news_item|event|feature_item)\./.test(f))
      .map(demo);
    expect(docs.length).toBeGreaterThan(5);
    const cards = docs.map(toCard);
    const untrimmed = docs.map((doc, i) => ({
      ...cards[i]!,
      summary: doc.data.summary?.length ? doc.data.summary : null,
      image: doc.data.image?.url ? doc.data.image : null,
    }));
    expect(html(<CardList cards={cards} empty="none" withTime variant="grid" />)).toBe(html(<CardList cards={untrimmed} empty="none" withTime variant="grid" />));
  });
});
