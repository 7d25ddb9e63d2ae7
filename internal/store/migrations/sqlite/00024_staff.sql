-- +goose Up
-- The staff tools (internal/staff, internal/audit; docs/studio-staff.md).
--
-- A disabled account cannot sign in; its sessions and tokens were ended when it was
-- disabled.
ALTER TABLE users ADD COLUMN disabled_at INTEGER;

-- Every staff action: who (copied, so that the log outlives the account), what, on
-- what, when, and the subject before and after (JSON).
CREATE TABLE audit_log (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    at          INTEGER NOT NULL,
    actor_id    INTEGER,
    actor_name  TEXT    NOT NULL DEFAULT '',
    actor_email TEXT    NOT NULL DEFAULT '',
    action      TEXT    NOT NULL,
    subject     TEXT    NOT NULL DEFAULT '',
    summary     TEXT    NOT NULL DEFAULT '',
    before_json TEXT    NOT NULL DEFAULT 'null',
    after_json  TEXT    NOT NULL DEFAULT 'null'
);
CREATE INDEX audit_log_action ON audit_log (action, id);
CREATE INDEX audit_log_subject ON audit_log (subject, id);
CREATE INDEX audit_log_actor ON audit_log (actor_id, id);
CREATE INDEX audit_log_at ON audit_log (at, id);

-- A CSV a staff member uploaded for a records import; the file itself is in the
-- staging folder under the upload's token (its id in the API); seq orders uploads.
CREATE TABLE staff_uploads (
    seq         INTEGER PRIMARY KEY AUTOINCREMENT,
    id          TEXT    NOT NULL UNIQUE,
    user_id     INTEGER REFERENCES users (id) ON DELETE CASCADE,
    filename    TEXT    NOT NULL,
    bytes       INTEGER NOT NULL,
    row_count   INTEGER NOT NULL,
    delimiter   TEXT    NOT NULL,
    columns     TEXT    NOT NULL,          -- JSON [{name, samples}]
    created_at  INTEGER NOT NULL,
    imported_at INTEGER
);
CREATE INDEX staff_uploads_user ON staff_uploads (user_id, seq);

-- Mappings saved for the next file of the same layout.
CREATE TABLE staff_mappings (
    name       TEXT    PRIMARY KEY,
    mapping    TEXT    NOT NULL,           -- an ingest Mapping (JSON)
    columns    TEXT    NOT NULL,           -- the header it was made for (JSON)
    updated_at INTEGER NOT NULL,
    updated_by INTEGER REFERENCES users (id) ON DELETE SET NULL
);

-- Background imports. The runner writes progress and a heartbeat; cancel is set by
-- any instance and read by the runner; version counts the row's changes (the event
-- stream's ids). params holds what the job needs to run and to undo itself.
CREATE TABLE staff_jobs (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    kind         TEXT    NOT NULL,
    state        TEXT    NOT NULL,
    user_id      INTEGER REFERENCES users (id) ON DELETE SET NULL,
    upload_id    TEXT    NOT NULL DEFAULT '',
    collection   TEXT    NOT NULL DEFAULT '',
    params       TEXT    NOT NULL DEFAULT '{}',
    progress     TEXT    NOT NULL DEFAULT '{}',
    report       TEXT    NOT NULL DEFAULT 'null',
    error        TEXT    NOT NULL DEFAULT '',
    cancel       INTEGER NOT NULL DEFAULT 0,
    version      INTEGER NOT NULL DEFAULT 0,
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL,
    heartbeat_at INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX staff_jobs_state ON staff_jobs (state, id);

-- The warnings a tree's upload through the studio reported, for the review queue.
CREATE TABLE staff_tree_warnings (
    tree_id       INTEGER PRIMARY KEY REFERENCES trees (id) ON DELETE CASCADE,
    warning_count INTEGER NOT NULL,
    warnings      TEXT    NOT NULL         -- JSON [string], at most 100
);

-- +goose Down
DROP TABLE staff_tree_warnings;
DROP TABLE staff_jobs;
DROP TABLE staff_mappings;
DROP TABLE staff_uploads;
DROP TABLE audit_log;
ALTER TABLE users DROP COLUMN disabled_at;
