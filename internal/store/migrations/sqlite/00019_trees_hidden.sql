-- +goose Up
-- The hidden trees (state other than 'ready': staging trees of imports, trees being
-- removed), which every import and delete looks for (trees' removeHidden): a few rows
-- at most, found without reading every tree.
CREATE INDEX trees_hidden ON trees (id) WHERE state <> 'ready';

-- +goose Down
DROP INDEX trees_hidden;
