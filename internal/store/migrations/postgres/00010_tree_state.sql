-- +goose Up
-- A tree's state (docs/decisions/010-imports-write-in-chunks.md): 'ready' is a tree
-- as everyone sees it; 'loading' is an import's staging tree, written in short
-- transactions and swapped in when complete; 'deleting' is a replaced or deleted
-- tree whose rows are being removed in short transactions. Only 'ready' trees are
-- seen by any reader. Hidden trees have a slug that no tree can take ('~' …), are
-- unpublished and have no owner. updated_at of a 'loading' tree is its import's
-- heartbeat: one long without it was left by a killed import.
ALTER TABLE trees ADD COLUMN state TEXT NOT NULL DEFAULT 'ready';

-- +goose Down
ALTER TABLE trees DROP COLUMN state;
