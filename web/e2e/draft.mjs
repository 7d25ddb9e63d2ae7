// Saving a content draft into a running server's store, the way an editor's tooling
// does: `lineage content import --draft DIR`, which only preview refs see.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { runLineage } from "./harness.mjs";

/** Saves `doc` (a Prismic-shaped document) as a draft in the store under dataDir. */
export function saveDraft(dataDir, doc) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lineage-draft-"));
  try {
    writeFileSync(path.join(dir, `${doc.id}.json`), JSON.stringify(doc));
    runLineage(["content", "import", "--draft", "--data", dataDir, dir]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
