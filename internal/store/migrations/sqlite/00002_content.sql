-- +goose Up
-- Content documents (internal/content). Each row holds the published version (data IS
-- NOT NULL) and, independently, the editor's draft (draft_data IS NOT NULL). Times are
-- epoch milliseconds. tags and alternate_ids are JSON arrays of strings.
CREATE TABLE content_documents (
    id                     TEXT PRIMARY KEY,
    type                   TEXT NOT NULL,
    lang                   TEXT NOT NULL,
    alternate_ids          TEXT NOT NULL DEFAULT '[]',
    uid                    TEXT,
    tags                   TEXT NOT NULL DEFAULT '[]',
    data                   TEXT,
    first_publication_date BIGINT,
    last_publication_date  BIGINT,
    draft_uid              TEXT,
    draft_tags             TEXT,
    draft_data             TEXT,
    draft_saved_at         BIGINT
);
-- A uid names one published document per type and language (NULLs never clash).
CREATE UNIQUE INDEX content_documents_type_lang_uid ON content_documents (type, lang, uid);

-- Every master ref there has been (old ones answer 410) and every preview token.
CREATE TABLE content_refs (
    ref        TEXT PRIMARY KEY,
    kind       TEXT NOT NULL CHECK (kind IN ('master', 'preview')),
    created_at BIGINT NOT NULL,
    expires_at BIGINT
);

-- The one row naming the current master ref. revision grows on every change, drafts
-- included, so instances sharing the database know when their preview snapshot is stale.
CREATE TABLE content_state (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    master_ref TEXT NOT NULL,
    revision   BIGINT NOT NULL
);
INSERT INTO content_state (id, master_ref, revision) VALUES (1, lower(hex(randomblob(8))), 0);
INSERT INTO content_refs (ref, kind, created_at) SELECT master_ref, 'master', 0 FROM content_state;

-- +goose Down
DROP TABLE content_state;
DROP TABLE content_refs;
DROP TABLE content_documents;
