import { describe, expect, it } from "vitest";
import { emptyValue, hasUid, labelOf, newSlice, richTextRules, sliceChoices, tabsOf, withAllFields, type CustomType, type SliceModel } from "./models";

const news: CustomType = {
  id: "news_item",
  label: "News item",
  json: {
    Main: {
      uid: { type: "UID", config: { label: "Address" } },
      title: { type: "StructuredText", config: { label: "Title", single: "heading1", required: true } },
      summary: { type: "StructuredText", config: { multi: "paragraph,strong,em,hyperlink" } },
      date: { type: "Date" },
      body: { type: "Slices", config: { choices: { hero: { type: "SharedSlice" }, old: { type: "Slice", fieldset: "Old quote", "non-repeat": { quote: { type: "Text" } }, repeat: {} } } } },
    },
    Extra: { flag: { type: "Boolean", config: { default_value: "true" } } },
  },
};

const hero: SliceModel = { id: "hero", name: "Hero", variations: [{ id: "default", primary: { title: { type: "StructuredText", config: { single: "heading1" } }, image: { type: "Image" } }, items: {} }] };

describe("type models", () => {
  it("lists the tabs' fields in order, the uid apart", () => {
    const tabs = tabsOf(news);
    expect(tabs.map((t) => t.name)).toEqual(["Main", "Extra"]);
    expect(tabs[0]!.fields.map((f) => f.id)).toEqual(["title", "summary", "date", "body"]);
    expect(hasUid(news)).toBe(true);
    expect(hasUid({ id: "home", json: { Main: { title: { type: "Text" } } } })).toBe(false);
  });
  it("labels a field by its model, else by its id", () => {
    expect(labelOf("title", news.json.Main!.title!)).toBe("Title");
    expect(labelOf("link_label", { type: "Text" })).toBe("Link label");
  });
  it("reads what a rich text field allows", () => {
    expect(richTextRules(news.json.Main!.title!)).toEqual({ blocks: ["heading1"], single: true, spans: [] });
    expect(richTextRules(news.json.Main!.summary!)).toEqual({ blocks: ["paragraph"], single: false, spans: ["strong", "em", "hyperlink"] });
    // Nothing said: everything allowed.
    expect(richTextRules({ type: "StructuredText" }).blocks).toContain("embed");
  });
  it("offers shared slices from their models and legacy slices from the zone", () => {
    const choices = sliceChoices(news.json.Main!.body!, [hero]);
    expect(choices.map((c) => [c.id, c.label, c.primary.map((f) => f.id)])).toEqual([
      ["hero", "Hero", ["title", "image"]],
      ["old", "Old quote", ["quote"]],
    ]);
    const slice = newSlice(choices[0]!, "k1");
    expect(slice).toMatchObject({ slice_type: "hero", id: "hero$k1", variation: "default", primary: { title: [], image: {} }, items: [] });
  });
  it("fills absent fields with Prismic's empty values and keeps present ones", () => {
    const data = withAllFields(news, { title: [{ type: "heading1", text: "A", spans: [] }] });
    expect(data).toEqual({ title: [{ type: "heading1", text: "A", spans: [] }], summary: [], date: null, body: [], flag: true });
    expect(emptyValue({ type: "Link" })).toEqual({ link_type: "Any" });
    expect(emptyValue({ type: "Weird" })).toBeNull();
  });
});
