import { describe, expect, it } from "vitest";
import type { BodySlice, HeroSlice } from "./content-types";
import { withoutRepeatedLead } from "./lead-hero";

const rt = (text: string, type = "paragraph") => (text ? [{ type, text, spans: [] }] : []);

function hero({ title = "", text = "", image = true, link = true } = {}): HeroSlice {
  return {
    slice_type: "hero",
    slice_label: null,
    id: "hero$1",
    variation: "default",
    version: "initial",
    items: [],
    primary: {
      title: rt(title, "heading1"),
      text: rt(text),
      image: image ? { url: "/media/church.svg", alt: "A church", copyright: null, dimensions: { width: 800, height: 600 }, edit: { x: 0, y: 0, zoom: 1, background: "" }, id: "i" } : {},
      link: link ? { link_type: "Web", url: "https://example.org/" } : { link_type: "Any" },
      link_label: link ? "Book" : null,
    },
  } as unknown as HeroSlice;
}

const richText = { slice_type: "rich_text", id: "rt$1", primary: { content: rt("Body text.") } } as unknown as BodySlice;
const primaryOf = (slice: BodySlice | undefined) => (slice as HeroSlice).primary;

describe("withoutRepeatedLead", () => {
  it("drops the lead hero's title and text when they repeat the page's heading and summary", () => {
    const body = [hero({ title: "DNA: an introduction", text: "What a DNA test can tell you." }), richText];
    const out = withoutRepeatedLead(body, { title: "DNA: an introduction", summary: " What a DNA test  can tell you. " });
    expect(out).toHaveLength(2);
    expect(primaryOf(out[0]).title).toEqual([]);
    expect(primaryOf(out[0]).text).toEqual([]);
    // The image and the link stay.
    expect(primaryOf(out[0]).image).toMatchObject({ url: "/media/church.svg" });
    expect(primaryOf(out[0]).link_label).toBe("Book");
    expect(out[1]).toBe(richText);
  });

  it("keeps the words that differ", () => {
    const out = withoutRepeatedLead([hero({ title: "About us", text: "Founded in 1911." })], { title: "About us", summary: null });
    expect(primaryOf(out[0]).title).toEqual([]);
    expect(primaryOf(out[0]).text).toEqual(rt("Founded in 1911."));
  });

  it("drops a hero left with nothing to show", () => {
    const out = withoutRepeatedLead([hero({ title: "Open day", text: "Come along.", image: false, link: false }), richText], {
      title: "Open day",
      summary: "Come along.",
    });
    expect(out).toEqual([richText]);
  });

  it("leaves a body alone when its hero says something else or comes later", () => {
    const body = [hero({ title: "Learn with the Society", text: "Courses." }), richText];
    expect(withoutRepeatedLead(body, { title: "Education", summary: "Courses for all." })).toEqual(body);
    const later = [richText, hero({ title: "Education" })];
    expect(withoutRepeatedLead(later, { title: "Education" })).toEqual(later);
    expect(withoutRepeatedLead(null, { title: "x" })).toEqual([]);
  });
});
