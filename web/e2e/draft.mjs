// Saving a content draft into a stopped-or-running server's SQLite store.
//
// `lineage content` has no command that saves a draft (import publishes), so this
// does what internal/content's saveDraft does (storage.go), in SQL: set the draft_*
// columns of the document (inserting an unpublished one if new) and bump
// content_state.revision so servers notice. Keep it in step with
// internal/store/migrations/sqlite/00002_content.sql; drop it once the CLI can save
// drafts.
import { DatabaseSync } from "node:sqlite";
import path from "node:path";

/** Saves `doc` (a Prismic-shaped document) as a draft in the store under dataDir. */
export function saveDraft(dataDir, doc) {
  const db = new DatabaseSync(path.join(dataDir, "lineage.db"));
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    db.exec("BEGIN IMMEDIATE");
    const now = Date.now();
    const existing = db.prepare("SELECT type, lang FROM content_documents WHERE id = ?").get(doc.id);
    if (!existing) {
      db.prepare(
        `INSERT INTO content_documents (id, type, lang, alternate_ids, draft_uid, draft_tags, draft_data, draft_saved_at)
         VALUES (?, ?, ?, '[]', ?, ?, ?, ?)`,
      ).run(doc.id, doc.type, doc.lang ?? "en-gb", doc.uid ?? null, JSON.stringify(doc.tags ?? []), JSON.stringify(doc.data), now);
    } else {
      db.prepare("UPDATE content_documents SET draft_uid = ?, draft_tags = ?, draft_data = ?, draft_saved_at = ? WHERE id = ?").run(
        doc.uid ?? null,
        JSON.stringify(doc.tags ?? []),
        JSON.stringify(doc.data),
        now,
        doc.id,
      );
    }
    db.exec("UPDATE content_state SET revision = revision + 1 WHERE id = 1");
    db.exec("COMMIT");
  } catch (err) {
    try {
      db.exec("ROLLBACK");
    } catch {
      // not in a transaction
    }
    throw err;
  } finally {
    db.close();
  }
}
