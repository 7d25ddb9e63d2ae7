// Editors often open a document's body with a hero that repeats the document's
// title and summary, which the page has already shown as its heading and lead.
// The page shows each once: the lead hero keeps its image and link but loses
// the repeated words.
import { asText, isFilled, type RichTextField } from "@prismicio/client";
import type { BodySlice } from "./content-types";

const same = (a: string, b: string) => {
  const norm = (s: string) => s.replace(/\s+/g, " ").trim().toLowerCase();
  return norm(a) !== "" && norm(a) === norm(b);
};

/**
 * The body without the lead hero's repeats of `title` and `summary` (plain
 * text). A hero left with nothing to show (no words, image or link) is dropped.
 */
export function withoutRepeatedLead(
  slices: readonly BodySlice[] | null | undefined,
  page: { title: string; summary?: string | null },
): BodySlice[] {
  if (!slices?.length) return [];
  const [first, ...rest] = slices;
  if (first?.slice_type !== "hero") return [...slices];
  const { title, text, image, link } = first.primary;
  const repeatsTitle = same(asText(title), page.title);
  const repeatsSummary = same(asText(text), page.summary ?? "") || (repeatsTitle && same(asText(text), page.title));
  if (!repeatsTitle && !repeatsSummary) return [...slices];
  const none: RichTextField = [];
  const primary = { ...first.primary, title: repeatsTitle ? none : title, text: repeatsSummary ? none : text };
  const empty = !asText(primary.title) && !asText(primary.text) && !isFilled.image(image) && !isFilled.link(link);
  return empty ? rest : [{ ...first, primary }, ...rest];
}
