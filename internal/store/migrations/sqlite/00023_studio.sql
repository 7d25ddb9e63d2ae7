-- +goose Up
-- The studio: the writing side of the content room (internal/content/studio*.go,
-- docs/content.md "The studio", decision 019). Times are epoch milliseconds.

-- Every studio write to a document raises its revision; a write that starts from an
-- older revision is refused (409), so two editors never overwrite each other unseen.
-- archived_at: withdrawn from the site and hidden from the studio's lists, history kept.
ALTER TABLE content_documents ADD COLUMN revision BIGINT NOT NULL DEFAULT 0;
ALTER TABLE content_documents ADD COLUMN archived_at BIGINT;
ALTER TABLE content_documents ADD COLUMN created_at BIGINT;
ALTER TABLE content_documents ADD COLUMN created_by BIGINT;
ALTER TABLE content_documents ADD COLUMN created_by_name TEXT NOT NULL DEFAULT '';
ALTER TABLE content_documents ADD COLUMN updated_at BIGINT;
ALTER TABLE content_documents ADD COLUMN updated_by BIGINT;
ALTER TABLE content_documents ADD COLUMN updated_by_name TEXT NOT NULL DEFAULT '';

-- A preview token may preview one release: only its documents' drafts are seen.
ALTER TABLE content_refs ADD COLUMN release_id TEXT;

-- Admins' copies of the type and slice models; a row overrides the repository's file of
-- the same id (internal/content/models).
CREATE TABLE content_models (
    kind       TEXT   NOT NULL CHECK (kind IN ('type', 'slice')),
    id         TEXT   NOT NULL,
    json       TEXT   NOT NULL,
    updated_at BIGINT NOT NULL,
    updated_by BIGINT,
    PRIMARY KEY (kind, id)
);

-- The history of every document: one row per save (an editor's autosaves within ten
-- minutes of their own last one update that row), publish, unpublish, archive, restore.
-- author_name is kept as it was then, so the history reads the same after a rename or
-- an account's deletion.
CREATE TABLE content_versions (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    document_id TEXT   NOT NULL,
    revision    BIGINT NOT NULL,
    kind        TEXT   NOT NULL CHECK (kind IN ('draft', 'published', 'unpublished', 'archived', 'unarchived', 'restored')),
    uid         TEXT,
    tags        TEXT   NOT NULL DEFAULT '[]',
    data        TEXT   NOT NULL,
    author_id   BIGINT,
    author_name TEXT   NOT NULL DEFAULT '',
    created_at  BIGINT NOT NULL
);
CREATE INDEX content_versions_document ON content_versions (document_id, id);

-- Releases group documents to publish together, now or at scheduled_at. The scheduler
-- claims a due release with a conditional UPDATE (status 'scheduled' → 'published') in
-- the same transaction that publishes it, so exactly one instance publishes it. A due
-- release that cannot be published (a document misses a required field) is 'failed'.
CREATE TABLE content_releases (
    id              TEXT   PRIMARY KEY,
    label           TEXT   NOT NULL,
    status          TEXT   NOT NULL CHECK (status IN ('open', 'scheduled', 'published', 'failed')),
    error           TEXT   NOT NULL DEFAULT '',  -- why a scheduled publish failed
    scheduled_at    BIGINT,
    published_at    BIGINT,
    master_ref      TEXT,
    created_at      BIGINT NOT NULL,
    created_by      BIGINT,
    created_by_name TEXT   NOT NULL DEFAULT ''
);
CREATE INDEX content_releases_due ON content_releases (status, scheduled_at);
CREATE TABLE content_release_documents (
    release_id  TEXT   NOT NULL REFERENCES content_releases (id) ON DELETE CASCADE,
    document_id TEXT   NOT NULL,
    added_at    BIGINT NOT NULL,
    PRIMARY KEY (release_id, document_id)
);
CREATE INDEX content_release_documents_document ON content_release_documents (document_id);

-- The media library: uploaded images, their resized variants (a JSON array of
-- {width,height,url}), alt text and copyright.
CREATE TABLE content_media (
    id              TEXT    PRIMARY KEY,
    name            TEXT    NOT NULL,
    url             TEXT    NOT NULL,
    content_type    TEXT    NOT NULL,
    bytes           BIGINT  NOT NULL,
    width           INTEGER NOT NULL,
    height          INTEGER NOT NULL,
    alt             TEXT    NOT NULL,
    copyright       TEXT    NOT NULL DEFAULT '',
    variants        TEXT    NOT NULL DEFAULT '[]',
    created_at      BIGINT  NOT NULL,
    created_by      BIGINT,
    created_by_name TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX content_media_created ON content_media (created_at);

-- Outgoing webhooks waiting to be delivered, in Prismic's body shape (without the
-- secret, which is added from the configuration when sent). A delivery is claimed by
-- moving next_at forward with a conditional UPDATE, so one instance sends it at a time.
CREATE TABLE content_webhook_deliveries (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    url        TEXT    NOT NULL,
    body       TEXT    NOT NULL,
    status     TEXT    NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts   INTEGER NOT NULL DEFAULT 0,
    next_at    BIGINT  NOT NULL,
    last_error TEXT    NOT NULL DEFAULT '',
    created_at BIGINT  NOT NULL
);
CREATE INDEX content_webhook_deliveries_due ON content_webhook_deliveries (status, next_at);

-- +goose Down
DROP TABLE content_webhook_deliveries;
DROP TABLE content_media;
DROP TABLE content_release_documents;
DROP TABLE content_releases;
DROP TABLE content_versions;
DROP TABLE content_models;
ALTER TABLE content_refs DROP COLUMN release_id;
ALTER TABLE content_documents DROP COLUMN updated_by_name;
ALTER TABLE content_documents DROP COLUMN updated_by;
ALTER TABLE content_documents DROP COLUMN updated_at;
ALTER TABLE content_documents DROP COLUMN created_by_name;
ALTER TABLE content_documents DROP COLUMN created_by;
ALTER TABLE content_documents DROP COLUMN created_at;
ALTER TABLE content_documents DROP COLUMN archived_at;
ALTER TABLE content_documents DROP COLUMN revision;
