-- +goose Up
-- Scans served by the IIIF image server (internal/iiif, docs/iiif.md). An item is what
-- one manifest shows: the pages of one record, catalogue entry or person, in a research
-- collection (a person of a family tree: target_id is the tree, target_ref the person's
-- xref). Its images are the pages; each image's tile pyramid lives on disk under
-- files/iiif/tiles/{id}/{version}. Times are Unix seconds.
CREATE TABLE iiif_items (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    slug          TEXT    NOT NULL UNIQUE,
    collection_id INTEGER NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
    target        TEXT    NOT NULL,              -- record | library | archive | person
    target_id     INTEGER NOT NULL,              -- records.id, library_items.id, archive_items.id, trees.id
    target_ref    TEXT    NOT NULL DEFAULT '',   -- a person's xref in the tree
    label         TEXT    NOT NULL,
    access        INTEGER NOT NULL DEFAULT 0,    -- 1: members-only whatever the record says
    rights        TEXT    NOT NULL DEFAULT '',
    attribution   TEXT    NOT NULL DEFAULT '',
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL
);
CREATE INDEX iiif_items_target ON iiif_items (target, target_id);
CREATE INDEX iiif_items_collection ON iiif_items (collection_id, id);

CREATE TABLE iiif_images (
    id         TEXT    PRIMARY KEY,              -- the IIIF identifier
    item_id    INTEGER NOT NULL REFERENCES iiif_items (id) ON DELETE CASCADE,
    page       INTEGER NOT NULL,
    label      TEXT    NOT NULL DEFAULT '',
    width      INTEGER NOT NULL,
    height     INTEGER NOT NULL,
    levels     INTEGER NOT NULL,                 -- scale factors 1, 2 … 2^(levels-1)
    version    TEXT    NOT NULL,                 -- source SHA-256 prefix: tile folder and ETag
    source     TEXT    NOT NULL DEFAULT '',      -- the file name as imported
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (item_id, page)
);

-- +goose Down
DROP TABLE iiif_images;
DROP TABLE iiif_items;
