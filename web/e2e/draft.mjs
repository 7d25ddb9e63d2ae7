// Saving a content document into a running server's store, the way an editor's tooling
// does: `lineage content import DIR` publishes it, and with --draft only preview refs
// see it.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { runLineage } from "./harness.mjs";

/** Runs `lineage content import <flags> DIR` on a folder holding only `doc`. */
function importDocument(doc, flags, env) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lineage-import-"));
  try {
    writeFileSync(path.join(dir, `${doc.id}.json`), JSON.stringify(doc));
    runLineage(["content", "import", ...flags, dir], { env });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Saves `doc` (a Prismic-shaped document) as a draft in the store under dataDir. */
export function saveDraft(dataDir, doc) {
  importDocument(doc, ["--draft", "--data", dataDir]);
}

/** Publishes `doc` into the SQLite store under dataDir, from a process of its own (as a second instance would). */
export function publish(dataDir, doc) {
  importDocument(doc, ["--data", dataDir], { LINEAGE_DATABASE_URL: "" });
}
