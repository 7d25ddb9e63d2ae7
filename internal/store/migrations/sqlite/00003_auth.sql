-- +goose Up
-- Accounts, sessions, API tokens, one-time links, sign-in throttling, external
-- identities and the mail outbox (internal/auth, internal/mail).
-- Every time is a Unix time in seconds (UTC): integers compare and index the same way
-- in SQLite and PostgreSQL, which text timestamps in SQLite do not.

CREATE TABLE users (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    email             TEXT    NOT NULL UNIQUE,          -- lower-cased
    name              TEXT    NOT NULL DEFAULT '',
    password_hash     TEXT    NOT NULL DEFAULT '',      -- argon2id PHC string; '' = no password (external sign-in only)
    role              TEXT    NOT NULL DEFAULT 'member' CHECK (role IN ('member', 'editor', 'admin')),
    email_verified_at INTEGER,
    created_at        INTEGER NOT NULL,
    updated_at        INTEGER NOT NULL
);

-- A browser session. id is the SHA-256 (hex) of the value in the lineage_session
-- cookie, so a copy of this table does not sign anyone in. Guests have sessions too:
-- they carry the CSRF token that POST /login needs.
CREATE TABLE sessions (
    id           TEXT    PRIMARY KEY,
    user_id      INTEGER REFERENCES users (id) ON DELETE CASCADE,
    csrf_token   TEXT    NOT NULL,
    remember     INTEGER NOT NULL DEFAULT 0,
    created_at   INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL,
    expires_at   INTEGER NOT NULL,                      -- the absolute end; idle expiry is last_seen_at + idle lifetime
    ip           TEXT    NOT NULL DEFAULT '',
    user_agent   TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX sessions_expires ON sessions (expires_at);

-- Bearer tokens of API clients: an access token and the refresh token that replaces it.
-- Only SHA-256 hashes are stored.
CREATE TABLE api_tokens (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id            INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name               TEXT    NOT NULL DEFAULT '',
    access_hash        TEXT    NOT NULL UNIQUE,
    refresh_hash       TEXT    NOT NULL UNIQUE,
    access_expires_at  INTEGER NOT NULL,
    refresh_expires_at INTEGER NOT NULL,
    created_at         INTEGER NOT NULL,
    last_used_at       INTEGER
);
CREATE INDEX api_tokens_user ON api_tokens (user_id);

-- One-time links sent by mail: email verification, password reset, email change.
-- token_hash is an HMAC of the link's token under the installation secret.
CREATE TABLE auth_links (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    purpose    TEXT    NOT NULL CHECK (purpose IN ('verify-email', 'reset-password', 'change-email')),
    token_hash TEXT    NOT NULL UNIQUE,
    new_email  TEXT    NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at    INTEGER
);
CREATE INDEX auth_links_user ON auth_links (user_id, purpose);

-- Fixed-window counters: sign-in failures per email and address, mail requests.
CREATE TABLE rate_limits (
    key      TEXT    PRIMARY KEY,
    hits     INTEGER NOT NULL,
    reset_at INTEGER NOT NULL
);

-- Accounts at an OpenID Connect provider linked to local users.
CREATE TABLE user_identities (
    issuer     TEXT    NOT NULL,
    subject    TEXT    NOT NULL,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    email      TEXT    NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    PRIMARY KEY (issuer, subject)
);
CREATE INDEX user_identities_user ON user_identities (user_id);

-- An external sign-in under way: state (hashed), nonce and PKCE verifier, bound to the
-- browser session that started it.
CREATE TABLE oidc_flows (
    state_hash    TEXT    PRIMARY KEY,
    session_id    TEXT    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    nonce         TEXT    NOT NULL,
    code_verifier TEXT    NOT NULL,
    return_to     TEXT    NOT NULL DEFAULT '/',
    expires_at    INTEGER NOT NULL
);

-- Mail waiting to be sent, being retried, sent or given up (internal/mail).
CREATE TABLE mail_outbox (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    to_addr         TEXT    NOT NULL,
    subject         TEXT    NOT NULL,
    body_text       TEXT    NOT NULL,
    status          TEXT    NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    locked_until    INTEGER NOT NULL DEFAULT 0,
    last_error      TEXT    NOT NULL DEFAULT '',
    created_at      INTEGER NOT NULL,
    sent_at         INTEGER
);
CREATE INDEX mail_outbox_due ON mail_outbox (status, next_attempt_at);

-- +goose Down
DROP TABLE mail_outbox;
DROP TABLE oidc_flows;
DROP TABLE user_identities;
DROP TABLE rate_limits;
DROP TABLE auth_links;
DROP TABLE api_tokens;
DROP TABLE sessions;
DROP TABLE users;
