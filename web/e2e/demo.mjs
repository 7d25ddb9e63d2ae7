// The demo content set (demo/content/<type>.<uid>.json), read from disk so tests
// assert the titles and texts the server really loads instead of guesses.

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { DEMO_CONTENT_DIR } from "./harness.mjs";

let cache = null;

/** Every demo document, as stored. */
export function demoDocuments() {
  if (!cache) {
    cache = readdirSync(DEMO_CONTENT_DIR)
      .filter((f) => f.endsWith(".json"))
      .sort()
      .map((f) => JSON.parse(readFileSync(path.join(DEMO_CONTENT_DIR, f), "utf8")));
  }
  return cache;
}

/** Demo documents of one type. */
export function demoByType(type) {
  return demoDocuments().filter((d) => d.type === type);
}

/** The demo document with this uid (and type, when given); throws when absent. */
export function demoDoc(uid, type) {
  const doc = demoDocuments().find((d) => d.uid === uid && (!type || d.type === type));
  if (!doc) throw new Error(`demo content has no ${type ?? "document"} with uid ${uid}`);
  return doc;
}

/** Plain text of a rich-text field (or a key-text string). */
export function asText(field) {
  if (field == null) return "";
  if (typeof field === "string") return field;
  if (Array.isArray(field)) return field.map((b) => b.text ?? "").filter(Boolean).join("\n");
  return "";
}

/** The document's title as plain text. */
export function titleOf(doc) {
  return asText(doc.data?.title).trim();
}

/** The first paragraph of text found in the document's body slices. */
export function firstBodyParagraph(doc) {
  for (const slice of doc.data?.body ?? []) {
    for (const block of slice.primary?.content ?? slice.primary?.text ?? []) {
      if (block.type === "paragraph" && block.text && block.spans?.length === 0 && block.text.length > 30) return block.text;
    }
  }
  return null;
}

/** News items newest first (by data.date, then id as the content API breaks ties). */
export function newsNewestFirst() {
  return demoByType("news_item")
    .slice()
    .sort((a, b) => (b.data.date ?? "").localeCompare(a.data.date ?? "") || a.id.localeCompare(b.id));
}
