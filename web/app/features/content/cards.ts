// The small, serialisable summary of a document that lists and cards show,
// so loaders do not send whole documents (with bodies) to the browser.
import { asText, type ImageField, type RichTextField } from "@prismicio/client";
import { linkResolver, type LinkableDocument } from "./link-resolver";
import { trimContent } from "./trim";

export interface Card {
  id: string;
  href: string;
  title: string;
  summary: RichTextField | null;
  /** A date ("2024-05-01") or timestamp, for <time>. */
  date: string | null;
  image: ImageField | null;
  location?: string | null;
}

interface CardSource extends LinkableDocument {
  id: string;
  first_publication_date?: string | null;
  data: object;
}

export function toCard(doc: CardSource): Card {
  const data = (doc.data ?? {}) as Record<string, unknown>;
  const title = asText((data.title as RichTextField | undefined) ?? []).trim();
  const summary = (data.summary as RichTextField | undefined) ?? null;
  const date = (data.date as string | undefined) ?? (data.start as string | undefined) ?? null;
  const image = (data.image as ImageField | undefined) ?? null;
  return {
    id: doc.id,
    href: linkResolver(doc) ?? "/",
    title: title || doc.uid || "Untitled",
    summary: summary && summary.length ? trimContent(summary) : null,
    date,
    image: image && (image as { url?: string }).url ? trimContent(image) : null,
    ...(typeof data.location === "string" ? { location: data.location } : {}),
  };
}
