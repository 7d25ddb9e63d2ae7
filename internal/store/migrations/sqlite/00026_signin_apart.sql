-- +goose Up
-- Sessions, external sign-ins under way and attempt counters move to signin.db
-- (migrations/sqlite-signin). store.Migrate copies their rows there before this runs,
-- so nobody is signed out by the move. PostgreSQL keeps them: it has no database-wide
-- write lock.
DROP TABLE oidc_flows;
DROP TABLE sessions;
DROP TABLE rate_limits;

-- +goose Down
-- The tables come back empty: their rows stay in signin.db.
CREATE TABLE sessions (
    id           TEXT    PRIMARY KEY,
    user_id      INTEGER REFERENCES users (id) ON DELETE CASCADE,
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
