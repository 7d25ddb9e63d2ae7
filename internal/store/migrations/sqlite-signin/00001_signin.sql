-- +goose Up
-- Sign-in state on SQLite, in signin.db beside lineage.db (internal/store/signin.go):
-- what a visitor writes to get a session or sign in, kept apart from the records, trees
-- and content so that a long write there (an import, a tree's deletion) never holds the
-- lock a new session needs. SQLite's write lock is one per database file. The tables
-- are those of 00003_auth.sql in lineage.db, with one difference: a foreign key cannot
-- reach another file, so sessions.user_id does not reference users; deleting an
-- account deletes its sessions in code (auth.Service.DeleteUser).

CREATE TABLE sessions (
    id           TEXT    PRIMARY KEY,
    user_id      INTEGER,
    csrf_token   TEXT    NOT NULL,
    remember     INTEGER NOT NULL DEFAULT 0,
    created_at   INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL,
    expires_at   INTEGER NOT NULL,
    ip           TEXT    NOT NULL DEFAULT '',
    user_agent   TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX sessions_expires ON sessions (expires_at);

CREATE TABLE rate_limits (
    key      TEXT    PRIMARY KEY,
    hits     INTEGER NOT NULL,
    reset_at INTEGER NOT NULL
);

CREATE TABLE oidc_flows (
    state_hash    TEXT    PRIMARY KEY,
    session_id    TEXT    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    nonce         TEXT    NOT NULL,
    code_verifier TEXT    NOT NULL,
    return_to     TEXT    NOT NULL DEFAULT '/',
    expires_at    INTEGER NOT NULL
);

-- +goose Down
DROP TABLE oidc_flows;
DROP TABLE rate_limits;
DROP TABLE sessions;
