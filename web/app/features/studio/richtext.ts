// Rich text as Prismic stores it: a list of blocks, each a type and its text with spans
// (bold, italic, links) given as character offsets. The editor edits the text of a
// block in a plain text box; these functions keep the spans where they belong as the
// text changes, and add or take away a span over the selected text.

export interface Span {
  start: number;
  end: number;
  type: string;
  data?: Record<string, unknown>;
}

export interface TextBlock {
  type: string;
  text: string;
  spans: Span[];
  direction?: string;
}

export interface ImageBlock {
  type: "image";
  url: string;
  alt: string | null;
  copyright: string | null;
  dimensions: { width: number; height: number };
  id?: string;
  linkTo?: unknown;
}

export interface EmbedBlock {
  type: "embed";
  oembed: { embed_url: string; type?: string; html?: string | null; [k: string]: unknown };
}

export type Block = TextBlock | ImageBlock | EmbedBlock;

export function isTextBlock(block: Block): block is TextBlock {
  return block.type !== "image" && block.type !== "embed";
}

/**
 * The spans of a block after its text changed from `before` to `after` (one edit: the
 * common start and end are kept, the middle replaced). A span wholly inside removed text
 * goes; one the edit touches keeps what is left of it and grows with text typed at its end.
 */
export function shiftSpans(before: string, after: string, spans: readonly Span[]): Span[] {
  if (before === after) return spans.map((s) => ({ ...s }));
  let prefix = 0;
  const max = Math.min(before.length, after.length);
  while (prefix < max && before[prefix] === after[prefix]) prefix++;
  let suffix = 0;
  while (suffix < max - prefix && before[before.length - 1 - suffix] === after[after.length - 1 - suffix]) suffix++;
  const oldEnd = before.length - suffix;
  const newEnd = after.length - suffix;
  const delta = after.length - before.length;
  const mapStart = (p: number) => (p <= prefix ? p : p >= oldEnd ? p + delta : newEnd);
  const mapEnd = (p: number) => (p < prefix ? p : p >= oldEnd ? p + delta : newEnd);
  const out: Span[] = [];
  for (const span of spans) {
    const start = mapStart(span.start);
    const end = mapEnd(span.end);
    if (end > start) out.push({ ...span, start, end });
  }
  return out;
}

/**
 * Adds a span of `type` over [start, end), or takes it away when one of that type
 * already covers exactly that text. Links replace a link over the same text.
 */
export function toggleSpan(spans: readonly Span[], start: number, end: number, type: string, data?: Record<string, unknown>): Span[] {
  if (end <= start) return [...spans];
  const same = spans.findIndex((s) => s.type === type && s.start === start && s.end === end);
  if (same >= 0) {
    const rest = spans.filter((_, i) => i !== same);
    if (type !== "hyperlink" || !data) return rest;
    return sortSpans([...rest, { start, end, type, data }]);
  }
  return sortSpans([...spans, data ? { start, end, type, data } : { start, end, type }]);
}

export function sortSpans(spans: Span[]): Span[] {
  return [...spans].sort((a, b) => a.start - b.start || b.end - a.end || a.type.localeCompare(b.type));
}

/** The plain text of rich text, blocks joined by a space (lists, summaries). */
export function plainText(blocks: unknown): string {
  if (!Array.isArray(blocks)) return "";
  return blocks
    .map((b) => (b && typeof b === "object" && typeof (b as TextBlock).text === "string" ? (b as TextBlock).text : ""))
    .filter(Boolean)
    .join(" ");
}

/** Words for a block type, as a person says them. */
export const BLOCK_WORDS: Record<string, string> = {
  paragraph: "Paragraph",
  heading1: "Main heading",
  heading2: "Heading",
  heading3: "Subheading",
  heading4: "Small heading",
  heading5: "Smaller heading",
  heading6: "Smallest heading",
  "list-item": "Bulleted list item",
  "o-list-item": "Numbered list item",
  preformatted: "Preformatted text",
  image: "Picture",
  embed: "Video or other embed",
};

export const SPAN_WORDS: Record<string, string> = { strong: "Bold", em: "Italic", hyperlink: "Link" };

/** A link span's target in words: a page of the site or an address. */
export function linkWords(data: Record<string, unknown> | undefined): string {
  if (!data) return "";
  if (data.link_type === "Web") return String(data.url ?? "");
  if (data.link_type === "Document") return `the ${String(data.type ?? "document").replace(/_/g, " ")} “${String(data.uid ?? data.id ?? "")}”`;
  if (data.link_type === "Media") return String(data.name ?? data.url ?? "a file");
  return "";
}

/** Whether a web address is one a link may go to (http, https, mailto or tel). */
export function validLinkUrl(url: string): boolean {
  return /^(https?:\/\/[^\s/$.?#].[^\s]*|mailto:[^\s@]+@[^\s@]+|tel:\+?[0-9 ()-]+)$/i.test(url.trim());
}
