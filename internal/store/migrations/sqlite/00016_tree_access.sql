-- +goose Up
-- A tree's access level (internal/access; docs/trees.md "Access"): '' is public.
ALTER TABLE trees ADD COLUMN access_level TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE trees DROP COLUMN access_level;
